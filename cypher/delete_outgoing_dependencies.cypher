// Before cypher/create_dependencies.cypher: delete the hand-written outgoing edges of the tools
// $names (of catalog $catalog) that the new edge list does not keep ($keep: source name -> [[type, target, ord], ...]).
// An unchanged edge stays as it is (its element id is referenced by the precomputed closure), so
// loading the same catalog twice changes nothing. Inferred edges belong to their run (deps undo); an
// edge into another catalog (written by an older version) is left.
UNWIND $names AS name
MATCH (:Tool {catalog: $catalog, name: name})-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
WHERE b.catalog = $catalog AND NOT coalesce(r.inferred, false) AND NOT [type(r), b.name, r.ord] IN coalesce($keep[name], [])
DELETE r
