// The catalogs that hold a live tool named $name (a bare name: one catalog -> that tool; several -> the
// caller asks which). A tool of a catalog version not switched in yet is not counted.
MATCH (t:Tool {name: $name})
WHERE t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version }
RETURN t.catalog AS catalog ORDER BY catalog
