// Reference semantics of the expansion, NOT used at run time: every simple path up to {depth} hops
// from the seed or a tool merged into it, enumerated by Cypher. Exponential in the graph's density;
// tests compare kg_tools/retrieval/expansion.py (over expand_paths.cypher's subgraph) against it.
  UNWIND [seed] + COLLECT { MATCH (member:Tool)-[:MERGED_INTO]->(seed) RETURN member } AS src
  MATCH path = (src)-[rels:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON*1..{depth}]->(raw:Tool)
  WHERE all(i IN range(1, size(rels)) WHERE NOT nodes(path)[i] IN nodes(path)[..i])
    AND all(r IN rels WHERE type(r) IN $edge_types
            AND NOT (type(r) STARTS WITH 'PARAMETER_' AND r.parameter_name IS NOT NULL
                     AND any(pattern IN $drop_parameter_patterns WHERE r.parameter_name =~ pattern)))
  OPTIONAL MATCH (raw)-[:MERGED_INTO]->(canonical:Tool)
  WITH coalesce(canonical, raw) AS dep, last(rels) AS via,
       [r IN rels | [CASE WHEN $prefer_direct AND type(r) CONTAINS '_INDIRECTLY_' THEN 1 ELSE 0 END, coalesce(r.ord, 0),
                     endNode(r).name, type(r), coalesce(r.parameter_name, ''), coalesce(r.reason, '')]] AS key
  WHERE dep <> seed
  WITH dep, via ORDER BY key
  WITH collect({dep: dep, via: via}) AS ordered
  WITH reduce(acc = [], x IN ordered |
         CASE WHEN x.dep IN [y IN acc | y.dep] THEN acc ELSE acc + [x] END) AS unique
  RETURN [x IN unique[..$d_limit] | {
           name: x.dep.name, catalog: x.dep.catalog, func_type: x.dep.func_type, spec: x.dep.spec,
           members: COLLECT { MATCH (m:Tool)-[:MERGED_INTO]->(d) WHERE d = x.dep RETURN m.name },
           via: {from: startNode(x.via).name, type: type(x.via),
                 parameter_name: x.via.parameter_name, reason: x.via.reason,
                 inferred: coalesce(x.via.inferred, false) OR coalesce(x.via.observed, false),
                 confidence: x.via.confidence}}] AS deps, null AS reach
