// `kg-tools core detect --apply`: make each tool of $rows a :Core utility with the kind, reason and source
// detection found (source 'catalog': the catalog already said core; 'detected': detection made it core).
UNWIND $rows AS row
MATCH (t:Tool {catalog: row.catalog, name: row.name})
SET t:Core, t.func_type = 'core', t.core_kind = row.kind, t.core_reason = row.reason, t.core_source = row.source
REMOVE t:Regular
RETURN count(t) AS written
