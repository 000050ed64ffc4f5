// Last step of deleting a catalog: its dependency inference runs and merge runs, then its node, and the
// (:Server) node of that name if no gateway lists it any more.
CALL () {
  MATCH (r:DependencyRun) WHERE r.catalog = $catalog
  DETACH DELETE r
  RETURN count(*) AS dependency_runs
}
CALL () {
  MATCH (r:MergeRun) WHERE r.catalog = $catalog
  DETACH DELETE r
  RETURN count(*) AS merge_runs
}
CALL () {
  MATCH (c:Catalog {name: $catalog})
  DETACH DELETE c
}
CALL () {
  MATCH (s:Server {name: $catalog}) WHERE size(coalesce(s.gateways, [])) = 0
  DETACH DELETE s
}
RETURN dependency_runs, merge_runs
