// Give up a pending version (or clean up after a load that died): delete at most $limit of the
// catalog's tools written under a version newer than the current one.
MATCH (t:Tool) WHERE t.catalog = $catalog AND t.version > $current
WITH t LIMIT $limit
DETACH DELETE t
RETURN count(*) AS deleted
