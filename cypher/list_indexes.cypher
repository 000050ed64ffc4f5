SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties, populationPercent
RETURN name, type, state, labelsOrTypes, properties, populationPercent
ORDER BY name
