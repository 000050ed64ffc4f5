// Fragment: return the seeds as rerank candidates (no expansion).
RETURN node.name AS name, score, node.description AS description, node.spec AS spec
