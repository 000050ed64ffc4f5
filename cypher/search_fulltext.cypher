// Fragment: fulltext (Lucene BM25) leg. $lucene_query has special characters escaped by the caller.
CALL db.index.fulltext.queryNodes($fulltext_index, $lucene_query, {limit: $candidates}) YIELD node AS hit, score
