// Delete one tool and all its relationships (in and out); `deleted` is 0 when there was none.
OPTIONAL MATCH (t:Tool {name: $name})
DETACH DELETE t
RETURN count(t) AS deleted
