"""The seed cache keys a row by (tool name, catalog) and d_limit: the same name in two catalogs is two rows."""

from kg_tools.retrieval.request import tool_key
from kg_tools.retrieval.seed_cache import SeedCache


def row(name: str, catalog: str) -> dict:
    return {"name": name, "catalog": catalog, "func_type": "regular", "spec": catalog, "members": [], "deps": []}


def test_same_named_tools_of_two_catalogs_are_two_entries():
    cache = SeedCache(10)
    cache.observe("v1")
    cache.store("v1", "v1", [row("login", "pizza"), row("login", "books")], 5)
    assert len(cache) == 2
    found = cache.lookup("v1", [tool_key("login", "books"), tool_key("login", "pizza"), tool_key("login", "x")], 5)
    assert [r and r["catalog"] for r in found] == ["books", "pizza", None]
    assert cache.lookup("v1", [tool_key("login", "books")], 10) == [None]  # another d_limit
