"""The CLI as a user and an attacker meet it (issue #8): `--replace` replaces one catalog, name
collisions across catalogs are an error unless `--takeover`, every failure ends in ONE `error:` line
with a non-zero exit code (never a traceback), `neo4j status` exits 3 when stopped."""

from __future__ import annotations

import json

import pytest

import kg_tools.commands.stats
from kg_tools.cli import main
from kg_tools.commands.context import AppContext
from kg_tools.processes import free_port

pytestmark = pytest.mark.integration


def tool(name, deps=(), description=None):
    return {
        "name": name,
        "description": description or f"The {name.replace('_', ' ')} tool.",
        "func_type": "regular",
        "parameters": [],
        "depends_on": [
            {"name": d, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": f"needs {d}"} for d in deps
        ],
    }


@pytest.fixture
def cli_env(settings, embedder, monkeypatch):
    """The CLI against the test Neo4j, with the session's embedder (no model load per command)."""

    monkeypatch.setenv("NEO4J_URI", settings.neo4j_uri)
    monkeypatch.setenv("NEO4J_USER", settings.neo4j_user)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j_password)
    monkeypatch.delenv("KG_TOOLS_API_KEY", raising=False)
    monkeypatch.setattr(AppContext, "embedder", property(lambda self: embedder))
    return monkeypatch


def run_cli(capsys, *args) -> tuple[int, str, str]:
    """`kg-tools ARGS` in-process through the real entry point; (exit code, stdout, stderr)."""

    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def assert_one_error_line(err: str, *fragments: str) -> None:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert lines[-1].startswith("error: "), err
    assert sum(line.startswith("error: ") for line in lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[-1], err


def write(tmp_path, name, tools) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(tools))
    return str(path)


def names_by_catalog(graph) -> dict[str, list[str]]:
    rows = graph.read("MATCH (t:Tool) RETURN t.catalog AS c, t.name AS n ORDER BY n")
    out: dict[str, list[str]] = {}
    for r in rows:
        out.setdefault(r["c"], []).append(r["n"])
    return out


def test_replace_replaces_only_its_own_catalog(empty_graph, cli_env, capsys, tmp_path):
    """Item 7: `load json FILE --replace` deleted all 588 tools of 8 catalogs; it replaces that catalog only."""
    alpha = write(tmp_path, "alpha.json", [tool("alpha_one", ["alpha_two"]), tool("alpha_two")])
    beta = write(tmp_path, "beta.json", [tool("beta_one", ["beta_two"]), tool("beta_two"), tool("beta_three")])
    assert run_cli(capsys, "load", "json", alpha)[0] == 0
    assert run_cli(capsys, "load", "json", beta)[0] == 0
    edges_before = empty_graph.read("MATCH (a:Tool)-[r]->(b:Tool) RETURN a.name AS a, b.name AS b ORDER BY a")
    smaller = write(tmp_path, "beta_v2.json", [tool("beta_one", ["beta_two"]), tool("beta_two")])
    code, out, err = run_cli(capsys, "load", "json", smaller, "--catalog", "beta", "--replace")
    assert code == 0, err
    assert names_by_catalog(empty_graph) == {"alpha": ["alpha_one", "alpha_two"], "beta": ["beta_one", "beta_two"]}
    edges_after = empty_graph.read("MATCH (a:Tool)-[r]->(b:Tool) RETURN a.name AS a, b.name AS b ORDER BY a")
    assert edges_after == edges_before  # beta_three had no edges; every other edge is where it was


def test_a_name_of_another_catalog_is_another_tool(empty_graph, cli_env, capsys, tmp_path):
    """Item 8 of issue 21 made a name of another catalog an error; catalogs are namespaces now (issue 30):
    catalog gamma gets its own alpha_two and alpha_three, alpha's tools and edges stay as they were, and a
    dependency names a tool of the same catalog (alpha's are not gamma's)."""
    alpha = write(
        tmp_path,
        "alpha.json",
        [tool("alpha_one", ["alpha_two"]), tool("alpha_two", ["alpha_three"]), tool("alpha_three")],
    )
    assert run_cli(capsys, "load", "json", alpha)[0] == 0
    alpha_nodes = empty_graph.read(
        "MATCH (t:Tool {catalog: 'alpha'}) RETURN t.name AS n, t.description AS d ORDER BY n"
    )
    gamma = write(
        tmp_path,
        "gamma.json",
        [tool("alpha_two", description="Another alpha two."), tool("alpha_three"), tool("gamma_own")],
    )
    code, out, err = run_cli(capsys, "load", "json", gamma, "--takeover")  # --takeover is accepted, ignored
    assert code == 0, err
    assert names_by_catalog(empty_graph) == {
        "alpha": ["alpha_one", "alpha_three", "alpha_two"],
        "gamma": ["alpha_three", "alpha_two", "gamma_own"],
    }
    assert empty_graph.read("MATCH (t:Tool {catalog: 'alpha'}) RETURN t.name AS n, t.description AS d ORDER BY n") == (
        alpha_nodes
    )
    edges = empty_graph.read(
        "MATCH (a:Tool)-[r]->(b:Tool) RETURN a.catalog + ':' + a.name AS a, b.catalog AS b ORDER BY a"
    )
    assert edges == [{"a": "alpha:alpha_one", "b": "alpha"}, {"a": "alpha:alpha_two", "b": "alpha"}]
    crossing = write(tmp_path, "delta.json", [tool("delta_one", ["alpha_one"])])
    code, _, err = run_cli(capsys, "load", "json", crossing)
    assert code == 2
    assert_one_error_line(err, "nothing written")
    assert "delta_one -> alpha_one" in err


def test_neo4j_unreachable_is_one_error_line(cli_env, capsys):
    """Item 5: a command that cannot reach Neo4j ends with one `error:` line and exit code 1."""
    cli_env.setenv("NEO4J_URI", f"bolt://127.0.0.1:{free_port()}")
    for args in (["stats"], ["retrieve", "book a flight"], ["merge", "list"]):
        code, out, err = run_cli(capsys, *args)
        assert code == 1, (args, err)
        assert_one_error_line(err, "Neo4j is not reachable at bolt://127.0.0.1:")


def test_a_catalog_nested_5000_levels_deep_is_a_clear_error(empty_graph, cli_env, capsys, tmp_path):
    """Item 5: a catalog nested 5,000 levels deep gave `RecursionError`; now a clear catalog error (exit 2)."""
    deep = tmp_path / "deep.json"
    deep.write_text('[{"name": "deep", "description": "d", "x": ' + "[" * 5000 + "]" * 5000 + "}]")
    code, out, err = run_cli(capsys, "load", "json", str(deep))
    assert code == 2
    assert_one_error_line(err, "nested too deeply")
    merely_deep = tmp_path / "deep100.json"
    merely_deep.write_text('[{"name": "deep", "description": "d", "x": ' + "[" * 100 + "]" * 100 + "}]")
    code, out, err = run_cli(capsys, "load", "json", str(merely_deep))
    assert code == 2
    assert_one_error_line(err, "catalog rejected")
    assert "nested more than 64 levels deep" in err
    assert empty_graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0


def test_unexpected_errors_and_bad_stages_are_one_line_too(cli_env, capsys, monkeypatch, tlos_small):
    """Item 5 (and UnknownStageError is a KgToolsError): no traceback for anything."""
    code, out, err = run_cli(capsys, "retrieve", "book a flight", "--stage", "teleport")
    assert code == 1
    assert_one_error_line(err, "unknown stage(s): teleport")
    assert "unexpected" not in out + err  # a KgToolsError, not the catch-all for other exceptions

    monkeypatch.setattr(kg_tools.commands.stats, "graph_stats", lambda graph: {}["boom"])
    code, out, err = run_cli(capsys, "stats")
    assert code == 1
    assert_one_error_line(err, "unexpected KeyError")


@pytest.fixture
def tlos_small(empty_graph, cli_env, capsys, tmp_path):
    assert run_cli(capsys, "load", "json", write(tmp_path, "small.json", [tool("book_flight")]))[0] == 0
    return empty_graph


def test_control_characters_in_a_catalog_are_refused(empty_graph, cli_env, capsys, tmp_path):
    """Item 13: a NUL in a tool name was accepted; every control character is refused, position named."""
    path = write(tmp_path, "nul.json", [tool("nul\x00name"), tool("ok", ["tab\tname"])])
    code, out, err = run_cli(capsys, "load", "json", path)
    assert code == 2
    assert_one_error_line(err, "catalog rejected")
    assert "tool name contains the control character U+0000 at position 3" in err
    assert "control character U+0009 at position 3" in err
    assert empty_graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0


def test_neo4j_status_exits_3_when_stopped(cli_env, capsys, tmp_path):
    """Item 12: `kg-tools neo4j status` exited 0 when Neo4j was stopped; 3 now (LSB), so scripts can test it.
    (Exit 0 for a running server: tests/integration/test_restart.py, which runs its own server.)"""
    cli_env.setenv("KG_TOOLS_NEO4J_HOME", str(tmp_path / "no-server"))
    code, out, err = run_cli(capsys, "neo4j", "status")
    assert code == 3
    assert "Neo4j stopped" in out
    code, out, err = run_cli(capsys, "neo4j", "status", "--json")
    assert code == 3 and json.loads(out)["running"] is False


def test_a_bad_setting_is_one_error_line_naming_the_variable(capsys, monkeypatch):
    """A setting from the environment that does not validate: one line naming the variable and the
    value, not pydantic's multi-line report under `unexpected ValidationError`."""
    monkeypatch.setenv("KG_TOOLS_EMBED_SOLO_THREADS", "abc")
    code, out, err = run_cli(capsys, "neo4j", "status")
    assert code == 1
    assert_one_error_line(err, "KG_TOOLS_EMBED_SOLO_THREADS", "valid integer", "'abc'")
    assert "unexpected" not in err and len(err.strip().splitlines()) == 1
