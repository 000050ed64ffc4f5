// After the discarded tools are gone: the catalog has no pending version; a node this load created
// for a catalog that has no tools is removed again ($drop_new).
MATCH (c:Catalog {name: $catalog}) WHERE c.pending = $version
REMOVE c.pending, c.pending_at
WITH c
WHERE $drop_new AND coalesce(c.current, 0) = 0 AND NOT EXISTS { MATCH (t:Tool) WHERE t.catalog = $catalog }
DETACH DELETE c
