// Fragment: return the seeds as rerank candidates (no expansion).
RETURN node.name AS name, node.catalog AS catalog, score, node.description AS description, node.spec AS spec
