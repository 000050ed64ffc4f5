// Every tool name (kg_tools.closure: full recompute).
MATCH (t:Tool)
RETURN t.name AS name
