// Lock one inference run's node and return it (null when there is none). SET then REMOVE changes nothing
// but takes the node's exclusive lock until the transaction ends: this waits while the apply that owns the
// run is alive (its last transaction holds the lock from its start: kg_tools/deps/store.py).
OPTIONAL MATCH (run:DependencyRun {id: $run_id})
SET run.locked = true
REMOVE run.locked
RETURN properties(run) AS run
