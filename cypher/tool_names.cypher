// Every tool name, and how many tools a catalog has (bench scale: avoid names in use, refuse a used catalog).
MATCH (t:Tool)
RETURN collect(t.name) AS names, count(CASE WHEN t.catalog = $catalog THEN 1 END) AS in_catalog
