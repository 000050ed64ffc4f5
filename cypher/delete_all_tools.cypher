// --replace: remove the whole catalog (tools, merge runs, enrichment questions) before a reload.
MATCH (n) WHERE n:Tool OR n:MergeRun OR n:Question
DETACH DELETE n
