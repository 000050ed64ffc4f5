// Migrations of graphs written by older versions, applied first by `kg-tools schema apply` (files in
// name order); every statement is idempotent and does nothing on a current graph.
// Tool names were unique in the whole graph (tool_name_unique); a tool is now (catalog, name), so the old
// constraint goes and a tool without a catalog gets the default one (`api`, kg_tools.ingest.DEFAULT_CATALOG)
// before schema.cypher makes the new constraint.
DROP CONSTRAINT tool_name_unique IF EXISTS;
MATCH (t:Tool) WHERE t.catalog IS NULL SET t.catalog = 'api';
