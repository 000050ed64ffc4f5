CALL db.awaitIndexes($timeout_seconds)
