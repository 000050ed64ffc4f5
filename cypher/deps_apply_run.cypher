// The node of one inference run, status 'pending' with the sources of its edges (its edges follow in
// batches: deps_apply_edges; deps_run_finish makes it 'applied').
CREATE (run:DependencyRun)
SET run = $run
