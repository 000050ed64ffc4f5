MATCH (t:Tool) RETURN t.name AS name
