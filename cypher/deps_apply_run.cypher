// The node of one inference run (its edges follow in batches: deps_apply_edges).
CREATE (run:DependencyRun)
SET run = $run
