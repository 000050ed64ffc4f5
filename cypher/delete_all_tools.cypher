// Evaluation and bench reloads: remove every tool, merge run and enrichment question first.
MATCH (n) WHERE n:Tool OR n:MergeRun OR n:Question
DETACH DELETE n
