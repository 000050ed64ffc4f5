MATCH (t:Tool) WHERE t.catalog = $catalog
RETURN count(t) AS n
