// Which of the given names are tools (of catalog $catalog, or of any), and their catalog (PUT validation; targets only, not the whole graph).
// `staged`: a tool of a catalog version a load has written but not switched in (kg_tools/staged_load.py).
UNWIND $names AS name
MATCH (t:Tool {name: name}) WHERE $catalog IS NULL OR t.catalog = $catalog
RETURN t.name AS name, t.catalog AS catalog,
       t.version IS NOT NULL AND NOT EXISTS { MATCH (c:Catalog {name: t.catalog}) WHERE c.current >= t.version }
         AS staged
