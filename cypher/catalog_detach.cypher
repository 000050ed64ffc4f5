// First step of deleting a catalog: cut it off from every other catalog, so that no tool outside it
// can reach it while its tools are deleted in batches. Deletes the dependency edges INTO the catalog
// from other catalogs' tools and every MERGED_INTO between it and another catalog (both directions).
// Returns the dependency edges from its tools (`edges`, deleted with them later) and the tools of other catalogs whose precomputed closure must be recomputed: sources of those
// edges, canonical tools that lose members, and any tool whose closure lists a tool of the catalog, as
// [catalog, name] pairs. Edges between catalogs are left only by older versions (they are catalog-internal now).
CALL () {
  MATCH (t:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool)
  WHERE t.catalog = $catalog
  RETURN count(r) AS edges
}
CALL () {
  MATCH (o:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON|MERGED_INTO]->(t:Tool)
  WHERE t.catalog = $catalog AND coalesce(o.catalog, '') <> $catalog
  DELETE r
  RETURN collect(DISTINCT [o.catalog, o.name]) AS sources, count(r) AS incoming
}
CALL () {
  MATCH (t:Tool)-[r:MERGED_INTO]->(o:Tool)
  WHERE t.catalog = $catalog AND coalesce(o.catalog, '') <> $catalog
  DELETE r
  RETURN collect(DISTINCT [o.catalog, o.name]) AS canonicals
}
CALL () {
  MATCH (a:Tool)
  WHERE coalesce(a.catalog, '') <> $catalog AND a.closure IS NOT NULL
    AND any(n IN a.closure WHERE EXISTS { MATCH (x:Tool {name: n}) WHERE x.catalog = $catalog })
  RETURN collect([a.catalog, a.name]) AS listing
}
RETURN sources + canonicals + listing AS affected, incoming, edges
