SHOW INDEXES YIELD name, type, state, options
WHERE name = $name
RETURN name, type, state, options.indexConfig.`vector.dimensions` AS dimensions
