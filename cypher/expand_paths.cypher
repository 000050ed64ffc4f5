// Fragment of expand.cypher / expand_closure.cypher (inside CALL (seed) { ... }): what the expansion
// needs, never the paths themselves. Enumerating every simple path up to depth 5 is exponential in
// the graph's density (a catalog where every tool depends on every other one exhausted Neo4j's
// transaction memory), so this returns the seed's reachable subgraph -- the tools within
// {reach_depth} (= depth - 1) hops of the seed or of a tool merged into it, found breadth-first with
// each tool once (VarLengthExpand(Pruning,BFS)), and their outgoing dependency edges -- and
// kg_tools/retrieval/expansion.py orders it in Python with the semantics of
// expand_paths_enumerated.cypher (bounded work: each tool is walked at most `depth` times).
  WITH seed, [seed] + COLLECT { MATCH (member:Tool)-[:MERGED_INTO]->(seed) RETURN member ORDER BY member.name } AS sources
  CALL (sources) {
    UNWIND sources AS src
    MATCH (src)-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON*0..{reach_depth}]->(tool:Tool)
    RETURN collect(DISTINCT tool) AS reached
  }
  CALL (reached) {
    UNWIND reached AS a
    MATCH (a)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
    OPTIONAL MATCH (b)-[:MERGED_INTO]->(canonical:Tool)
    RETURN collect({source: a.name, target: b.name, canonical: canonical.name,
                    target_catalog: b.catalog, canonical_catalog: canonical.catalog, type: type(r), ord: coalesce(r.ord, 0),
                    parameter_name: r.parameter_name, reason: r.reason,
                    inferred: coalesce(r.inferred, false) OR coalesce(r.observed, false), confidence: r.confidence}) AS edges
  }
  RETURN null AS deps, {sources: [s IN sources | s.name], edges: edges} AS reach
