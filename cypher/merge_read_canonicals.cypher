// The properties a merge rewrites on each canonical tool (kept on the run for an exact undo).
UNWIND $names AS name
MATCH (t:Tool {name: name}) WHERE $catalog IS NULL OR t.catalog = $catalog
RETURN t.name AS name, t.description AS description, t.spec AS spec, t.param_text AS param_text,
       t.embedding AS embedding, t.embedding_model AS embedding_model
