// The :Core utilities of the kinds a request's steps imply (kg_tools/implied.py), for retrieval to attach:
// live tools only, not merged into another tool, optionally of some catalogs ($catalogs: a list or null); `score` is the cosine of the
// tool's embedding and $embedding (null without one), to choose among several utilities of one kind.
MATCH (t:Core)
WHERE t.core_kind IN $kinds AND ($catalogs IS NULL OR t.catalog IN $catalogs)
  AND (t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version })
  AND NOT (t)-[:MERGED_INTO]->(:Tool)
RETURN t.name AS name, t.core_kind AS kind, t.catalog AS catalog, t.func_type AS func_type, t.spec AS spec,
       CASE WHEN $embedding IS NULL OR t.embedding IS NULL THEN null
            ELSE vector.similarity.cosine(t.embedding, $embedding) END AS score
ORDER BY kind, score DESC, name
