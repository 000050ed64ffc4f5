// Applied by `kg-tools schema apply`; every statement is idempotent (IF NOT EXISTS).
// $dimensions comes from the configured embedder. Quantization is off: catalogs are small and
// exact scores matter more than memory. HNSW is approximate: query with >= 50 candidates, then cut.
// A tool is identified by (catalog, name): unique within a catalog, the same name may be in several
// (a composite uniqueness constraint; Community has no node keys). schema/0_migrate.cypher runs first.
CREATE CONSTRAINT tool_catalog_name_unique IF NOT EXISTS FOR (t:Tool) REQUIRE (t.catalog, t.name) IS UNIQUE;
CREATE INDEX tool_name IF NOT EXISTS FOR (t:Tool) ON (t.name);
CREATE CONSTRAINT merge_run_id_unique IF NOT EXISTS FOR (r:MergeRun) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT catalog_name_unique IF NOT EXISTS FOR (c:Catalog) REQUIRE c.name IS UNIQUE;
CREATE CONSTRAINT dependency_run_id_unique IF NOT EXISTS FOR (r:DependencyRun) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT write_lock_name_unique IF NOT EXISTS FOR (l:WriteLock) REQUIRE l.name IS UNIQUE;
CREATE INDEX tool_catalog IF NOT EXISTS FOR (t:Tool) ON (t.catalog);
CREATE FULLTEXT INDEX tool_text IF NOT EXISTS FOR (t:Tool) ON EACH [t.name, t.name_words, t.description, t.param_text];
CREATE VECTOR INDEX tool_embedding IF NOT EXISTS FOR (t:Tool) ON t.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
CREATE CONSTRAINT server_name_unique IF NOT EXISTS FOR (s:Server) REQUIRE s.name IS UNIQUE;
CREATE CONSTRAINT gateway_pin_unique IF NOT EXISTS FOR (p:GatewayPin) REQUIRE (p.server, p.tool) IS UNIQUE;
