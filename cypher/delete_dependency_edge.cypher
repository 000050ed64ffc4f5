// One outgoing dependency edge of a tool, by its element id (neomodel can only disconnect every edge of a
// type between two nodes, which would also take parallel and inferred edges).
MATCH (:Tool {catalog: $catalog, name: $name})-[r]->(:Tool)
WHERE elementId(r) = $id
DELETE r
