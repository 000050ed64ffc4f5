// `kg-tools core detect --apply`: tools detection made :Core earlier and no longer finds to be utilities go
// back to :Regular. Only core_source 'detected': a tool its catalog made core stays core.
UNWIND $tools AS ref
MATCH (t:Tool {catalog: ref.catalog, name: ref.name}) WHERE t.core_source = 'detected'
SET t:Regular, t.func_type = 'regular'
REMOVE t:Core, t.core_kind, t.core_reason, t.core_source
RETURN count(t) AS written
