// The tools an expansion ordered in Python (kg_tools/retrieval/expansion.py) lists, each given by name and
// catalog (a tool is (catalog, name)): what a dependency row carries besides `via` (the same fields as
// expand_paths_enumerated.cypher's).
UNWIND $tools AS wanted
MATCH (dep:Tool {name: wanted.name})
WHERE wanted.catalog IS NULL OR dep.catalog = wanted.catalog
RETURN dep.name AS name, dep.catalog AS catalog, dep.func_type AS func_type, dep.spec AS spec,
       COLLECT { MATCH (m:Tool)-[:MERGED_INTO]->(dep) RETURN m.name } AS members
