// Replace each tool's enrichment: provenance on the tool, one (:Question) per text with its vector. A tool is
// (catalog, name): the same name in another catalog is another tool, left as it is.
UNWIND $rows AS row
MATCH (t:Tool {name: row.name, catalog: row.catalog})
CALL (t) {
  MATCH (old:Question)-[:ASKS_FOR]->(t)
  DETACH DELETE old
}
SET t.enriched_description = row.description,
    t.enrichment_topics = row.topics,
    t.enrichment_model = row.model,
    t.enrichment_created = datetime(row.created),
    t.enrichment_spec_hash = row.spec_hash,
    t.enrichment_embedding_model = row.embedding_model
WITH t, row
UNWIND row.texts AS item
CREATE (q:Question {text: item.text, kind: item.kind, embedding: item.embedding, tool: t.name,
                    model: row.model, created: datetime(row.created), spec_hash: row.spec_hash,
                    embedding_model: row.embedding_model})-[:ASKS_FOR]->(t)
