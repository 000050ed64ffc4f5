// The tools an expansion ordered in Python (kg_tools/retrieval/expansion.py) lists: what a
// dependency row carries besides `via` (the same fields as expand_paths_enumerated.cypher's).
UNWIND $names AS name
MATCH (dep:Tool {name: name})
RETURN dep.name AS name, dep.func_type AS func_type, dep.spec AS spec,
       COLLECT { MATCH (m:Tool)-[:MERGED_INTO]->(dep) RETURN m.name } AS members
