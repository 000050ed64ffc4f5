// Tools of a plan that are missing or already take part in a merge (a stale plan).
UNWIND $names AS name
OPTIONAL MATCH (t:Tool {name: name})
WITH name, t
WHERE t IS NULL OR (t)-[:MERGED_INTO]-()
RETURN name, t IS NULL AS missing
