// A catalog's versions: current, pending (with the time of its last batch), any tools newer than current.
OPTIONAL MATCH (c:Catalog {name: $catalog})
RETURN c IS NOT NULL AS exists, coalesce(c.current, 0) AS current, c.pending AS pending, c.pending_at AS pending_at,
       EXISTS { MATCH (t:Tool) WHERE t.catalog = $catalog AND t.version > coalesce(c.current, 0) } AS leftovers
