// The gateway's (:Server) node of one upstream: what a sync compares before writing anything.
OPTIONAL MATCH (s:Server {name: $name})
RETURN s.state_hash AS state_hash, s.embedding_model AS embedding_model
