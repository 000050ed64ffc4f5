// One bounded batch of a catalog's NEW tools, written under the pending version $version: invisible
// to readers (cypher/seeds_canonical.cypher, get_tool, list_tools) until the version is switched in.
// Every key of a row (kg_tools.ingest.tool_row) is a property. CREATE, not MERGE: a name taken
// meanwhile (another catalog) fails on the name constraint. No row when the catalog's pending
// version is no longer ours (taken over, or given up).
MATCH (c:Catalog {name: $catalog}) WHERE c.pending = $version
SET c.pending_at = $now
WITH c
UNWIND $rows AS row
CREATE (t:Tool)
SET t = row, t.version = $version
FOREACH (_ IN CASE WHEN row.func_type = 'core' THEN [1] ELSE [] END | SET t:Core)
FOREACH (_ IN CASE WHEN row.func_type = 'core' THEN [] ELSE [1] END | SET t:Regular)
RETURN count(t) AS written
