// Every tool by elementId with the seeds a search hit on it gives (kg_tools/retrieval/hit_index.py): itself,
// or the tools it is MERGED_INTO; none while its catalog version is not switched in (seeds_canonical.cypher's
// rules). At most $limit rows: the caller uses the result only when it holds every tool.
MATCH (t:Tool)
OPTIONAL MATCH (t)-[:MERGED_INTO]->(canonical:Tool)
WITH t, collect(canonical) AS merged
RETURN elementId(t) AS id,
       CASE
         WHEN t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version }
         THEN [n IN CASE WHEN merged = [] THEN [t] ELSE merged END | [n.name, n.catalog]]
         ELSE []
       END AS seeds
LIMIT $limit
