// One row per tool. A null embedding keeps the stored one (spec and model unchanged). The kind is the
// catalog's again: what `kg-tools core detect` stored (core_*) goes until it runs again.
UNWIND $rows AS row
MERGE (t:Tool {catalog: row.catalog, name: row.name})
SET t.description = row.description,
    t.func_type = row.func_type,
    t.name_words = row.name_words,
    t.param_text = row.param_text,
    t.spec = row.spec,
    t.spec_hash = row.spec_hash,
    t.position = row.position,
    t.field = row.field,
    t.title = row.title,
    t.http_method = row.http_method,
    t.http_path = row.http_path,
    t.tags = row.tags,
    t.deprecated = row.deprecated,
    t.has_output_schema = row.has_output_schema,
    t.read_only_hint = row.read_only_hint,
    t.destructive_hint = row.destructive_hint,
    t.idempotent_hint = row.idempotent_hint,
    t.open_world_hint = row.open_world_hint
REMOVE t.core_kind, t.core_reason, t.core_source
FOREACH (_ IN CASE WHEN row.func_type = 'core' THEN [1] ELSE [] END | SET t:Core REMOVE t:Regular)
FOREACH (_ IN CASE WHEN row.func_type = 'core' THEN [] ELSE [1] END | SET t:Regular REMOVE t:Core)
FOREACH (_ IN CASE WHEN row.embedding IS NULL THEN [] ELSE [1] END |
  SET t.embedding = row.embedding, t.embedding_model = row.embedding_model)
