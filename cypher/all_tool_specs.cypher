MATCH (t:Tool) RETURN t.name AS name, t.spec AS spec
