"""The REST PUT/DELETE of one tool against a versioned load (issue 32 item 3, the write-path attack), on
the real Neo4j: a tool a running or crashed load has staged but not switched in is invisible to them.

- A load paused between staging and switch-in (the load's `between` hook): a DELETE of a staged name is
  404 and the load still switches in whole; a PUT of a staged name is a 409 naming the running load,
  nothing written; a PUT of a live tool of the catalog, and of a new tool into it, is acknowledged and
  survives the switch-in (also a --replace load's: it deletes only what it planned to delete); a PUT
  that depends on a staged tool is a 409 (the target is not a tool yet).
- After a crashed load (killed after staging, nothing cleaned up): while it could still be running
  (last batch under 10 minutes ago) the same; once it is dead, a PUT of a name it staged removes its
  leftovers and creates the tool (201, then GET 200), and the next load that contains the name
  refuses it explicitly (the name belongs to the PUT's catalog) instead of silently dropping it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg_tools import staged_load
from kg_tools.api.app import create_app
from kg_tools.ingest import LoadMode, load_catalog
from tests.conftest import wipe
from tests.integration.test_catalogs import closures, recomputed
from tests.integration.test_cli_load import tool
from tests.integration.test_staged_load import OTHER, big, quiet

pytestmark = pytest.mark.integration


class Crash(BaseException):
    """The load's process dies (nothing after it runs: no cleanup)."""


@pytest.fixture
def loaded(graph, embedder):
    """Catalog `other`, and catalog `big` with 6 tools (big_tool_0..5) live."""

    wipe(graph)
    load_catalog(graph, embedder, OTHER, "other", log=quiet)
    load_catalog(graph, embedder, big(6), "big", batch_size=4, log=quiet)
    return graph


@pytest.fixture
def client(settings, loaded, embedder):
    with TestClient(create_app(settings, graph=loaded, embedder=embedder)) as c:
        yield c


def staged(graph) -> set[str]:
    return {r["name"] for r in graph.read("MATCH (t:Tool) WHERE t.version IS NOT NULL RETURN t.name AS name")}


def test_put_and_delete_during_a_load_paused_before_its_switch(client, loaded, embedder):
    answers: dict[str, object] = {}

    def between(stage: str) -> None:
        assert stage == "staged" and {f"big_tool_{i}" for i in range(6, 12)} <= staged(loaded)
        answers["delete staged"] = client.delete("/v1/tools/big_tool_9")
        answers["put staged"] = client.put(
            "/v1/tools/big_tool_10?catalog=big", json=tool("big_tool_10", description="Mine.")
        )
        answers["put on staged"] = client.put("/v1/tools/needs_staged", json=tool("needs_staged", ["big_tool_8"]))
        answers["put live"] = client.put("/v1/tools/big_tool_1", json=tool("big_tool_1", description="Put live."))
        answers["put new"] = client.put("/v1/tools/put_new?catalog=big", json=tool("put_new", description="New."))

    result = load_catalog(loaded, embedder, big(12), "big", LoadMode.REPLACE, batch_size=4, log=quiet, between=between)
    assert result.written_how.startswith("under catalog version 2")
    statuses = {k: r.status_code for k, r in answers.items()}
    assert statuses == {"delete staged": 404, "put staged": 409, "put on staged": 409, "put live": 200, "put new": 201}
    assert "being loaded" in answers["put staged"].json()["detail"]
    assert "big_tool_8" in str(answers["put on staged"].json())
    # The load switched in whole; the acknowledged PUTs survived it; nothing a refused request named was written.
    for i in range(12):
        assert client.get(f"/v1/tools/big_tool_{i}").status_code == 200
    assert client.get("/v1/tools/big_tool_10").json()["spec"]["description"] != "Mine."
    assert client.get("/v1/tools/big_tool_1").json()["spec"]["description"] == "Put live."
    assert client.get("/v1/tools/put_new").json()["catalog"] == "big"
    assert client.get("/v1/tools/needs_staged").status_code == 404
    assert staged(loaded) == set()
    assert closures(loaded) == recomputed(loaded)


def crash_after_staging(graph, embedder, monkeypatch) -> None:
    """A load of big(12) killed between staging and switch-in: version 2 stays pending, its tools staged."""

    def between(stage: str) -> None:
        raise Crash

    monkeypatch.setattr(staged_load, "discard", lambda *args, **kwargs: None)  # a killed process cleans nothing
    with pytest.raises(Crash):
        load_catalog(graph, embedder, big(12), "big", batch_size=4, log=quiet, between=between)
    monkeypatch.undo()
    assert {f"big_tool_{i}" for i in range(6, 12)} <= staged(graph)


def test_put_and_delete_after_a_crashed_load(client, loaded, embedder, monkeypatch):
    crash_after_staging(loaded, embedder, monkeypatch)
    # It may still be running (its last batch is recent): staged names are not touched.
    assert client.delete("/v1/tools/big_tool_9").status_code == 404
    busy = client.put("/v1/tools/big_tool_10?catalog=big", json=tool("big_tool_10", description="Mine."))
    assert busy.status_code == 409 and "being loaded" in busy.json()["detail"]
    assert client.get("/v1/tools/big_tool_10").status_code == 404
    # Dead (no batch for an hour): a DELETE of a staged name is still 404 ...
    loaded.write("MATCH (c:Catalog {name: 'big'}) SET c.pending_at = '2000-01-01T00:00:00.000+00:00'")
    assert client.delete("/v1/tools/big_tool_9").status_code == 404
    # ... a PUT creates the tool (the dead load's leftovers removed first), and it is there to GET.
    put = client.put("/v1/tools/big_tool_10?catalog=big", json=tool("big_tool_10", description="Mine."))
    assert (put.status_code, put.json()["created"], put.json()["tool"]["catalog"]) == (201, True, "big")
    assert client.get("/v1/tools/big_tool_10").json()["spec"]["description"] == "Mine."
    assert staged(loaded) == set()
    # The next load of big sees the PUT's tool in its own catalog and rewrites it as its file says.
    load_catalog(loaded, embedder, big(12), "big", batch_size=4, log=quiet)
    assert client.get("/v1/tools/big_tool_10").json()["spec"]["description"] != "Mine."
    assert {client.get(f"/v1/tools/big_tool_{i}").json()["catalog"] for i in range(12)} == {"big"}
    assert closures(loaded) == recomputed(loaded)
