// The tools `kg-tools core detect` classifies (one catalog, or all; not a catalog version still being
// loaded): the original spec, the current kind and Core facts, and how many tools depend on each one.
MATCH (t:Tool)
WHERE ($catalog IS NULL OR t.catalog = $catalog)
  AND (t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version })
RETURN t.name AS name, t.catalog AS catalog, t.spec AS spec, t.description AS description,
       t.func_type AS func_type, t.core_source AS core_source, t.core_kind AS core_kind,
       t.core_reason AS core_reason,
       COUNT { (t)<-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]-(:Tool) } AS dependents
ORDER BY t.catalog, t.name
