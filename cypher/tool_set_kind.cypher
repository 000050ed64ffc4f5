// The :Core or :Regular label of one tool after a PUT changed its func_type (neomodel's save adds the
// labels of the instance's class but never removes one).
MATCH (t:Tool {catalog: $catalog, name: $name})
FOREACH (_ IN CASE WHEN $core THEN [1] ELSE [] END | SET t:Core REMOVE t:Regular)
FOREACH (_ IN CASE WHEN $core THEN [] ELSE [1] END | SET t:Regular REMOVE t:Core)
