// Every tool by elementId with the seeds a search hit on it gives (kg_tools/retrieval/hit_index.py): itself,
// or the tools it is MERGED_INTO; none while its catalog version is not switched in (seeds_canonical.cypher's
// rules). At most $limit tools: the caller uses the result only when it holds every tool. One row of two
// lists (a Bolt record per tool costs the driver ~10x more: ToolLinkOS 1 ms instead of 8-10).
MATCH (t:Tool)
WITH t LIMIT $limit
WITH t, [(t)-[:MERGED_INTO]->(canonical:Tool) | canonical] AS merged
WITH elementId(t) AS id,
     CASE
       WHEN t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version }
       THEN [n IN CASE WHEN merged = [] THEN [t] ELSE merged END | [n.name, n.catalog]]
       ELSE []
     END AS seeds
RETURN collect(id) AS ids, collect(seeds) AS seeds
