// Start writing a new version of a catalog (kg_tools/staged_load.py). The SET takes the catalog
// node's write lock first, so two loads of one catalog see each other's pending version.
MERGE (c:Catalog {name: $catalog})
ON CREATE SET c.created = $now, c.new = true
SET c.lock = true
REMOVE c.lock
RETURN c.pending AS pending, c.pending_at AS pending_at, coalesce(c.current, 0) AS current,
       coalesce(c.version_seq, 0) AS seq, coalesce(c.new, false) AS new
