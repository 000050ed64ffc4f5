MATCH (q:Question) RETURN elementId(q) AS id, q.text AS text
