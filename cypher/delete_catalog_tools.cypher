// Remove every tool of one catalog with its relationships, in batches (auto-commit transaction only).
MATCH (t:Tool) WHERE t.catalog = $catalog
CALL (t) { DETACH DELETE t } IN TRANSACTIONS OF 5000 ROWS
