// Inside the PUT transaction, after the edges were written: which listed targets do not exist?
UNWIND $targets AS target
WITH DISTINCT target
WHERE NOT EXISTS { MATCH (:Tool {name: target}) }
RETURN collect(target) AS missing
