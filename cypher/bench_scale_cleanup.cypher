// bench scale: remove every tool of its catalog with its relationships, in batches (auto-commit only).
MATCH (t:Tool) WHERE t.catalog = $catalog
CALL (t) { DETACH DELETE t } IN TRANSACTIONS OF 5000 ROWS
