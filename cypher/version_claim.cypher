// Same transaction as version_begin: this load owns version $version until it switches or gives up.
MATCH (c:Catalog {name: $catalog})
SET c.pending = $version, c.pending_at = $now, c.version_seq = $version, c.current = coalesce(c.current, 0)
REMOVE c.new
