// Every tool as [catalog, name] (kg_tools.closure: full recompute).
MATCH (t:Tool)
RETURN [t.catalog, t.name] AS key
