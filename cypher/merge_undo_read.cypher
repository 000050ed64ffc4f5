// What undoing a run must restore: each canonical tool and its previous properties (JSON).
MATCH (r:MergeRun {id: $run_id})-[u:UPDATED]->(c:Tool)
RETURN c.name AS name, u.previous AS previous
