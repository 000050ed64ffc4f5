// Inside the write transaction, after the edges were written: which listed targets do not exist in catalog $catalog
// (e.g. deleted concurrently since validation)? Any -> the whole write rolls back.
UNWIND $targets AS target
WITH DISTINCT target
WHERE NOT EXISTS { MATCH (:Tool {catalog: $catalog, name: target}) }
RETURN collect(target) AS missing
