// After the switch: drop the version mark of at most $limit tools of the now-current version, so
// that readers' visibility check (`t.version IS NULL OR ...`) costs nothing in the steady state.
MATCH (t:Tool) WHERE t.catalog = $catalog AND t.version <= $current
WITH t LIMIT $limit
REMOVE t.version
RETURN count(*) AS settled
