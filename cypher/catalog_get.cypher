// One catalog's metadata node (null when there is none) and how many tools carry its name.
OPTIONAL MATCH (c:Catalog {name: $catalog})
RETURN properties(c) AS catalog, COUNT { MATCH (t:Tool) WHERE t.catalog = $catalog } AS tools
