// One page of tools by name, optionally filtered by catalog and kind; `total` counts the filtered set.
MATCH (t:Tool)
WHERE ($catalog IS NULL OR t.catalog = $catalog) AND ($kind IS NULL OR t.func_type = $kind)
  AND (t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version })
WITH t ORDER BY t.name, t.catalog
WITH collect(t) AS tools
RETURN size(tools) AS total,
       [t IN tools[$offset..($offset + $limit)] | {name: t.name, kind: t.func_type, description: t.description,
                                                  catalog: t.catalog}] AS page
