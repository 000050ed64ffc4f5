// Edges stay inside the catalog $catalog. e.type is one of the four DependencyType values (validated in kg_tools.tool_spec). An edge that is
// already there (same source, type, target and listing order) is updated in place, not recreated.
UNWIND $edges AS e
MATCH (a:Tool {catalog: $catalog, name: e.source}), (b:Tool {catalog: $catalog, name: e.target})
MERGE (a)-[r:$(e.type) {ord: e.ord}]->(b)
SET r.reason = e.reason, r.parameter_name = e.parameter_name, r.original_type = e.original_type
