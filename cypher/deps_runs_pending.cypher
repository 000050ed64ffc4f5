// The inference runs still `pending`: being applied now, or left part-way by a crash (kg_tools/deps/store.py).
MATCH (r:DependencyRun {status: 'pending'})
RETURN r.id AS id
ORDER BY r.created, r.id
