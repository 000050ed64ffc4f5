// Index names cannot be parameters in DROP; the name is fixed here.
DROP INDEX tool_embedding IF EXISTS
