// Every catalog metadata node (kg-tools catalogs list).
MATCH (c:Catalog)
RETURN properties(c) AS catalog
