// Every merge run, newest first, with its member count in the graph.
MATCH (r:MergeRun)
RETURN properties(r) AS run, COUNT { MATCH (:Tool)-[:MERGED_INTO {run: r.id}]->(:Tool) } AS links
ORDER BY r.created DESC, r.id
