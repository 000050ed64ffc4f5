// The switch, last statement of the one small transaction that also writes the changed tools:
// readers see the whole new version from its commit on. No row: the version is no longer ours.
MATCH (c:Catalog {name: $catalog}) WHERE c.pending = $version
SET c.current = $version
REMOVE c.pending, c.pending_at
RETURN c.current AS current
