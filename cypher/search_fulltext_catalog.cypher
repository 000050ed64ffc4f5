// Fragment: fulltext leg restricted to the catalogs $catalogs (a list): every match of the query is
// considered and the catalog's best $candidates kept, so no tool of the catalog is lost to other
// catalogs (BM25 statistics are those of the whole index). Yields `hit, score`.
CALL db.index.fulltext.queryNodes($fulltext_index, $lucene_query) YIELD node AS hit, score
WITH hit, score WHERE hit.catalog IN $catalogs
LIMIT $candidates
