// Evaluation and bench reloads: remove every tool, merge run, enrichment question and catalog node first.
MATCH (n) WHERE n:Tool OR n:MergeRun OR n:Question OR n:Catalog
DETACH DELETE n
