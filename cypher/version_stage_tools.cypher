// One bounded batch of a catalog's NEW tools, written under the pending version $version: invisible
// to readers (cypher/seeds_canonical.cypher, get_tool, list_tools) until the version is switched in.
// CREATE, not MERGE: a name taken meanwhile (another catalog) fails on the name constraint. No row
// when the catalog's pending version is no longer ours (taken over, or given up).
MATCH (c:Catalog {name: $catalog}) WHERE c.pending = $version
SET c.pending_at = $now
WITH c
UNWIND $rows AS row
CREATE (t:Tool)
SET t.name = row.name, t.description = row.description, t.func_type = row.func_type,
    t.name_words = row.name_words, t.param_text = row.param_text, t.spec = row.spec, t.spec_hash = row.spec_hash,
    t.catalog = row.catalog, t.field = row.field, t.embedding = row.embedding,
    t.embedding_model = row.embedding_model, t.version = $version
FOREACH (_ IN CASE WHEN row.func_type = 'core' THEN [1] ELSE [] END | SET t:Core)
FOREACH (_ IN CASE WHEN row.func_type = 'core' THEN [] ELSE [1] END | SET t:Regular)
RETURN count(t) AS written
