// Which of the given names are tools, and their catalog (PUT validation; targets only, not the whole graph).
UNWIND $names AS name
MATCH (t:Tool {name: name})
RETURN t.name AS name, t.catalog AS catalog
