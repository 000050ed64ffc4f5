// The graph's write lock (kg_tools/write_lock.py): SET takes an exclusive lock on the one lock node,
// held until the transaction commits or rolls back. MERGE is safe when two writers create the node at
// the same moment thanks to the constraint write_lock_name_unique (schema/schema.cypher).
MERGE (l:WriteLock {name: $name})
SET l.locked = true
