"""Each tool's place in its catalog as loaded (kg_tools/deps/sources.py reads a catalog's servers in that order),
against the real Neo4j (thirteenth session, review)."""

from __future__ import annotations

import pytest

from kg_tools.deps.store import catalog_tools
from kg_tools.ingest import LoadMode, load_catalog
from tests.conftest import wipe
from tests.integration.test_cli_load import tool

pytestmark = pytest.mark.integration
quiet = lambda *_: None  # noqa: E731


def places(graph, catalog: str) -> dict[str, int | None]:
    return {t.name: t.position for t in catalog_tools(graph, catalog)[catalog]}


def test_servers_added_one_by_one_keep_apart_and_a_large_replace_keeps_the_loaded_order(graph, embedder):
    wipe(graph)
    crate = [tool(f"crate_tool_{i}") for i in range(3)]
    depot = [tool(f"depot_tool_{i}") for i in range(3)]
    load_catalog(graph, embedder, crate, "many", log=quiet)
    load_catalog(graph, embedder, depot, "many", log=quiet)  # ADD: after the stored ones, not interleaved
    assert places(graph, "many") == {t["name"]: i for i, t in enumerate(crate + depot)}
    # a versioned load (more than one batch of new tools): new ones after the stored ones, which keep their places
    listed = [tool(f"bin_tool_{i}") for i in range(5)] + depot[::-1]
    load_catalog(graph, embedder, listed, "many", mode=LoadMode.REPLACE, batch_size=2, log=quiet)
    assert places(graph, "many") == {f"bin_tool_{i}": 6 + i for i in range(5)} | {
        f"depot_tool_{i}": 3 + i for i in range(3)
    }
