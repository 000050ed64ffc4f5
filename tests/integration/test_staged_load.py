"""Large catalogs in bounded memory (issue 21 item 5), against the real Neo4j: a load of more than one
batch of new tools writes them under a new catalog version in bounded transactions and switches it
in with one small transaction; readers never see the half-written version; a failure leaves the old
version current and removes the partial new one; a running load blocks a second one, a dead one is
cleaned up by the next; Neo4j running out of transaction memory is one clear error naming the setting."""

from __future__ import annotations

import secrets

import pytest

from kg_tools.catalog_store import list_catalogs
from kg_tools.deps.store import catalog_edges, catalog_tools
from kg_tools.errors import DanglingReferenceError, ToolNotFoundError
from kg_tools.graph import Graph
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.merge.candidates import mergeable_tools
from kg_tools.neo4j_server import LocalNeo4j
from kg_tools.processes import free_port
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.tool_store import ToolStore
from tests.conftest import graph_snapshot, wipe
from tests.integration.test_catalogs import closures, recomputed
from tests.integration.test_cli_load import assert_one_error_line, cli_env, run_cli, tool, write  # noqa: F401

pytestmark = pytest.mark.integration
quiet = lambda *_: None  # noqa: E731

OTHER = [tool("weather_now"), tool("weather_city", ["weather_now"])]


def big(n: int, prefix: str = "big", deps: bool = True) -> list[dict]:
    """n tools: each depends on the one before and (from the third on) on the first (edges stay inside a catalog)."""
    return [
        tool(
            f"{prefix}_tool_{i}",
            ([f"{prefix}_tool_{i - 1}"] if i else []) + ([f"{prefix}_tool_0"] if deps and i > 1 else []),
            description=f"Compute the {prefix} number {i} for a spreadsheet.",
        )
        for i in range(n)
    ]


@pytest.fixture
def other(graph, embedder):
    wipe(graph)
    load_catalog(graph, embedder, OTHER, "other", log=quiet)
    return graph


def visible_names(graph, settings, embedder) -> set[str]:
    store = ToolStore(graph)
    listed = {t["name"] for t in store.list_tools(limit=1000)["tools"]}
    found = set(
        Pipeline(graph, embedder, settings)
        .retrieve(RetrievalRequest(query="compute the big number for a spreadsheet", k=10, K=10))
        .names
    )
    return listed | found


def test_readers_never_see_the_version_being_written(other, settings, embedder):
    seen = []

    def during(line: str) -> None:
        if line.startswith("staged"):
            names = visible_names(other, settings, embedder)
            seen.append(names)
            listed = {c["name"]: c for c in list_catalogs(other)}["big"]
            assert (listed["tools"], listed["version"], listed["pending_version"]) == (0, 0, 1)
            # single-tool reads (neomodel), merge planning and dependency inference skip the pending version
            with pytest.raises(ToolNotFoundError):
                ToolStore(other).get_tool("big_tool_0")
            assert mergeable_tools(other, "big") == {} and catalog_tools(other, "big") == {}
            assert catalog_edges(other, "big") == ([], set())

    load_catalog(other, embedder, big(12), "big", batch_size=4, log=during)
    assert len(seen) >= 4  # 3 tool batches, edges, closures
    assert all(names <= {"weather_now", "weather_city"} for names in seen), seen
    assert {f"big_tool_{i}" for i in range(12)} <= visible_names(other, settings, embedder)
    assert other.read("MATCH (t:Tool) WHERE t.version IS NOT NULL RETURN count(t) AS n")[0]["n"] == 0  # settled
    assert closures(other) == recomputed(other)
    assert closures(other)["big_tool_2"] == ["big_tool_1", "big_tool_0"]
    info = {c["name"]: c for c in list_catalogs(other)}["big"]
    assert info["tools"] == 12 and info["edges"] == 21
    assert (info["version"], info["pending_version"]) == (1, None)
    assert ToolStore(other).get_tool("big_tool_0")["catalog"] == "big"
    assert len(mergeable_tools(other, "big")) == 12 and len(catalog_tools(other, "big")["big"]) == 12
    before = graph_snapshot(other)
    load_catalog(other, embedder, big(12), "big", batch_size=4, log=quiet)  # idempotent: writes nothing
    assert graph_snapshot(other) == before


def test_a_large_sync_and_a_large_replace_all_write_in_bounded_transactions(other, settings, embedder):
    lines: list[str] = []
    seen = []

    def during(line: str) -> None:
        lines.append(line)
        if line.startswith("staged"):
            seen.append(visible_names(other, settings, embedder))

    # a sync (differential) of more than one batch of new tools: staged under a version, then switched in
    result = load_catalog(other, embedder, big(12), "big", mode=LoadMode.SYNC, batch_size=4, log=during)
    assert result.written_how.startswith("under catalog version 1 in bounded transactions")
    assert sum(line.startswith("staged") for line in lines) >= 4
    assert all(names <= {"weather_now", "weather_city"} for names in seen), seen
    assert {c["name"]: c["tools"] for c in list_catalogs(other)}["big"] == 12
    assert closures(other) == recomputed(other)
    # replace_all (eval, bench) of more than one batch: everything deleted in bounded batches, then staged
    lines.clear()
    load_catalog(
        other,
        embedder,
        big(12, prefix="fresh", deps=False),
        "fresh",
        mode=LoadMode.REPLACE_ALL,
        batch_size=4,
        log=during,
    )
    assert any(line.startswith("replace_all: deleted") for line in lines)
    assert sum(line.startswith("staged") for line in lines) >= 3
    assert {c["name"]: c["tools"] for c in list_catalogs(other)} == {"fresh": 12}
    assert other.read("MATCH (t:Tool) WHERE t.version IS NOT NULL RETURN count(t) AS n")[0]["n"] == 0
    assert closures(other) == recomputed(other)


def test_a_failed_load_keeps_the_old_version_and_removes_the_partial_one(other, settings, embedder):
    load_catalog(other, embedder, big(12), "big", batch_size=4, log=quiet)
    changed = big(24)  # 12 new tools (staged), the 12 old ones unchanged
    changed[3]["description"] = "A changed description."  # one changed tool: rewritten at the switch
    before = graph_snapshot(other)

    def delete_target(line: str) -> None:
        if line.startswith("staged 12/"):
            other.write("MATCH (t:Tool {name: 'big_tool_11'}) DETACH DELETE t")

    with pytest.raises(DanglingReferenceError):
        load_catalog(other, embedder, changed, "big", batch_size=4, log=delete_target)
    assert other.read("MATCH (t:Tool) WHERE t.version IS NOT NULL RETURN count(t) AS n")[0]["n"] == 0
    catalog = other.read("MATCH (c:Catalog {name: 'big'}) RETURN properties(c) AS c")[0]["c"]
    assert catalog["current"] == 1 and "pending" not in catalog
    after = graph_snapshot(other)
    names = {n for labels, props in after["nodes"] for k, n in props if k == "name"}
    assert "'big_tool_12'" not in names and "'big_tool_3'" in names
    assert ToolStore(other).get_tool("big_tool_3")["spec"]["description"] != "A changed description."
    assert len(after["nodes"]) == len(before["nodes"]) - 1  # only big_tool_11, deleted by the other writer
    assert closures(other) == recomputed(other)


def test_a_running_load_blocks_a_second_one_and_a_dead_one_is_cleaned_up(other, embedder, cli_env, capsys, tmp_path):
    load_catalog(other, embedder, big(6), "big", batch_size=4, log=quiet)
    other.write(
        "MATCH (c:Catalog {name: 'big'}) SET c.pending = 7, c.pending_at = $now", now="2999-01-01T00:00:00.000+00:00"
    )
    path = write(tmp_path, "big.json", big(10))
    code, _, err = run_cli(capsys, "load", "json", path, "--catalog", "big")
    assert code == 1
    assert_one_error_line(err, "catalog 'big' is being loaded by another writer")
    # A load that died an hour ago left version 7 half-written: the next load removes it first.
    other.write(
        "MATCH (c:Catalog {name: 'big'}) SET c.pending_at = '2000-01-01T00:00:00.000+00:00' "
        "CREATE (:Tool:Regular {name: 'half_written', catalog: 'big', version: 7})"
    )
    code, _, err = run_cli(capsys, "load", "json", path, "--catalog", "big")
    assert code == 0, err
    assert other.read("MATCH (t:Tool {name: 'half_written'}) RETURN count(t) AS n")[0]["n"] == 0
    assert {c["name"]: c["tools"] for c in list_catalogs(other)}["big"] == 10


@pytest.fixture
def capped(settings, tmp_path_factory):
    """A second real Neo4j whose transactions may hold at most 4 MB (`db.memory.transaction.max`)."""

    class CappedNeo4j(LocalNeo4j):
        def write_conf(self) -> None:
            super().write_conf()
            with (self.conf_dir / "neo4j.conf").open("a") as conf:
                conf.write("db.memory.transaction.max=4m\n")

    if settings.neo4j_uri and "127.0.0.1" not in settings.neo4j_uri:
        pytest.skip("needs the local Maven-assembled server")
    password = "test-" + secrets.token_hex(8)
    server = CappedNeo4j(
        home=tmp_path_factory.mktemp("capped"),
        bolt_port=free_port(),
        http_port=free_port(),
        heap="512m",
        pagecache="64m",
        password=password,
        lib_dir=LocalNeo4j.from_settings(settings).lib,
    )
    server.install(log=quiet)
    server.start(log=quiet)
    try:
        capped_settings = settings.model_copy(update={"neo4j_uri": server.bolt_uri, "neo4j_password": password})
        with Graph.connect(capped_settings) as graph:
            yield capped_settings, graph
    finally:
        server.stop(log=quiet)


def test_out_of_transaction_memory_is_one_clear_error_and_batches_fit(capped, embedder, cli_env, capsys, tmp_path):
    capped_settings, graph = capped
    cli_env.setenv("NEO4J_URI", capped_settings.neo4j_uri)
    cli_env.setenv("NEO4J_PASSWORD", capped_settings.neo4j_password)
    path = write(tmp_path, "big.json", big(300, deps=False))
    cli_env.setenv("KG_TOOLS_WRITE_BATCH_SIZE", "500")  # one transaction: over the cap
    code, _, err = run_cli(capsys, "load", "json", path, "--catalog", "big")
    assert code == 1
    assert_one_error_line(
        err,
        "Neo4j ran out of memory",
        "KG_TOOLS_NEO4J_HEAP",
        "server.memory.heap.max_size",
        "KG_TOOLS_WRITE_BATCH_SIZE",
    )
    assert "big" not in {c["name"] for c in list_catalogs(graph)}
    cli_env.setenv("KG_TOOLS_WRITE_BATCH_SIZE", "50")  # bounded batches under the same cap
    cli_env.setenv("KG_TOOLS_VECTOR_WRITE_BATCH_SIZE", "50")
    code, out, err = run_cli(capsys, "load", "json", path, "--catalog", "big")
    assert code == 0, err
    assert (
        "wrote 300 tools and 299 dependency edges under catalog version 1 in bounded transactions of at most "
        "50 tools, switched in by one transaction" in out
    )
    assert {c["name"]: c["tools"] for c in list_catalogs(graph)}["big"] == 300
