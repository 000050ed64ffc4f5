// Store recomputed closures (kg_tools.closure): dependency names and the element ids of their via edges.
UNWIND $rows AS row
MATCH (t:Tool {name: row.name})
SET t.closure = row.closure, t.closure_via = row.via
