// Store recomputed closures (kg_tools.closure): dependency names (of the tool's own catalog) and the element
// ids of their via edges.
UNWIND $rows AS row
MATCH (t:Tool {catalog: row.catalog, name: row.name})
SET t.closure = row.closure, t.closure_via = row.via
