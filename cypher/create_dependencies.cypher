// e.type is one of the four DependencyType values (validated in kg_tools.catalog).
UNWIND $edges AS e
MATCH (a:Tool {name: e.source}), (b:Tool {name: e.target})
CREATE (a)-[r:$(e.type)]->(b)
SET r.reason = e.reason, r.parameter_name = e.parameter_name, r.ord = e.ord, r.original_type = e.original_type
