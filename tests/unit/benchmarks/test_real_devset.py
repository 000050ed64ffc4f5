"""The real-catalog dev set (benchmarks/data/real): files parse with today's loaders, counts meet the
minimums of issues 19 and 20, and every gold name (queries, provider edges) is a tool of its catalog file.
Unit test: no Neo4j."""

from __future__ import annotations

import importlib.util
import json

import pytest

from benchmarks import DATA
from benchmarks.eval.datasets import EvalDataset, instances_from_rows
from kg_tools.loaders import json_catalog, openapi
from kg_tools.loaders.document import load_document
from kg_tools.tool_spec import normalise_dependency_type, validate_catalog

REAL = DATA / "real"
SPECS = {"spotify": "spotify.yml", "resend": "resend.yaml", "discord": "discord.json", "petstore": "petstore.yaml"}
KINDS = ("single", "multi", "multi-step")


def names(tools) -> set[str]:
    return {t["name"] for t in tools}


def server_sets() -> dict[str, str]:
    """{server: set} over make/servers.json (base, xl) and make/servers_steps.json (steps)."""
    sets = {}
    for file in ("servers.json", "servers_steps.json"):
        sets |= {k: v.get("set", "base") for k, v in json.loads((REAL / "make" / file).read_text()).items()}
    return sets


@pytest.fixture(scope="module")
def catalog_all() -> list[dict]:
    return json_catalog.load(REAL / "catalog_all.json").tools


def test_mcp_servers_dumped_with_provenance():
    records = [json.loads(p.read_text()) for p in sorted((REAL / "mcp").glob("*.json"))]
    sets = server_sets()
    assert set(sets) == {r["server"] for r in records}
    assert sum(s == "base" for s in sets.values()) >= 15
    assert sum(s == "steps" for s in sets.values()) >= 10
    for record in records:
        prov = record["provenance"]
        assert prov["package"] and prov["version"] and prov["license"] and prov["command"] and prov["dumped_at"]
        assert record["tools"] and all("name" in t and "inputSchema" in t for t in record["tools"])
        # the REST import's auto-detection reads a raw tools/list as an MCP tool list
        source = load_document(json.dumps({"tools": record["tools"]}), record["server"])
        assert "(mcp)" in source.files[0] and len(source.tools) == len(record["tools"])


def test_openapi_specs_load_with_licences():
    sources = json.loads((REAL / "sources.json").read_text())
    assert len(SPECS) >= 4
    for key, file in SPECS.items():
        tools = openapi.load(REAL / "openapi" / file).tools
        assert len(tools) >= 15 and len(names(tools)) == len(tools)
        entry = sources["openapi"][key]
        assert entry["license"] and entry["repository"] and len(entry["commit"]) == 40
        assert (REAL / "openapi" / "licenses" / entry["license_file"]).is_file()


def test_combined_catalogs_are_what_the_loaders_make(catalog_all):
    mcp = json_catalog.load(REAL / "catalog_mcp.json").tools
    assert len(catalog_all) >= 400 and len(names(catalog_all)) == len(catalog_all)
    assert names(mcp) <= names(catalog_all)
    assert all("__" in n for n in names(mcp))
    sets = server_sets()
    assert {n.split("__")[0] for n in names(mcp)} == {k for k, s in sets.items() if s == "base"}
    xl = json_catalog.load(REAL / "catalog_xl.json").tools
    assert names(catalog_all) < names(xl) and len(names(xl)) == len(xl)
    assert {n.split("__")[0] for n in names(xl) - names(catalog_all)} == {k for k, s in sets.items() if s == "xl"}
    for file in SPECS.values():  # OpenAPI names exactly as `kg-tools load openapi FILE` makes them
        assert names(openapi.load(REAL / "openapi" / file).tools) <= names(catalog_all)
    steps = json_catalog.load(REAL / "catalog_steps.json").tools
    assert names(catalog_all) < names(steps) and len(names(steps)) == len(steps)
    assert {n.split("__")[0] for n in names(steps) - names(catalog_all)} == {k for k, s in sets.items() if s == "steps"}
    for tools in (catalog_all, mcp, xl, steps):  # what `load` validates before writing anything
        report = validate_catalog(tools).report
        assert not report.errors and not report.reference_errors


def test_queries_split_kinds_and_gold_names(catalog_all):
    rows = {split: json.loads((REAL / f"queries_{split}.json").read_text()) for split in ("dev", "test")}
    everything = rows["dev"] + rows["test"]
    assert len(everything) >= 150
    for kind in KINDS:
        assert sum(r["kind"] == kind for r in everything) >= 50
    assert {r["split"] for r in rows["dev"]} == {"dev"} and {r["split"] for r in rows["test"]} == {"test"}
    assert len({r["id"] for r in everything}) == len(everything)
    assert len({r["user_query"].lower() for r in everything}) == len(everything)
    assert 0.55 <= len(rows["dev"]) / len(everything) <= 0.65
    for r in everything:
        assert (len(r["golden_function_names"]) == 1) == (r["kind"] == "single")
        assert r["main_golden_function_name"] in r["golden_function_names"]
    for split in ("dev", "test"):  # what `eval catalog --queries FILE` does with the file
        dataset = EvalDataset("real", catalog_all, [], []).with_queries(REAL / f"queries_{split}.json")
        assert len(dataset.instances) == len(rows[split])
        assert instances_from_rows(rows[split], split)


def test_xl_queries_use_xl_names_and_leave_out_overlapping_gold():
    xl = names(json_catalog.load(REAL / "catalog_xl.json").tools)
    groups = json.loads((REAL / "make" / "equivalents.json").read_text())["groups"]
    overlapping = {n for group in groups.values() for n in group}
    assert overlapping <= xl
    rows = [r for split in ("dev", "test") for r in json.loads((REAL / f"queries_xl_{split}.json").read_text())]
    assert len(rows) >= 150 and all(k in {r["kind"] for r in rows} for k in KINDS)
    for r in rows:
        assert set(r["golden_function_names"]) <= xl
        if not r["id"].startswith("xl-"):
            assert not overlapping & set(r["golden_function_names"]), r["id"]
    dataset = EvalDataset("real-xl", json_catalog.load(REAL / "catalog_xl.json").tools, [], [])
    assert dataset.with_queries(REAL / "queries_xl_dev.json").instances


def test_steps_queries_split_by_seed_and_use_steps_names():
    steps = names(json_catalog.load(REAL / "catalog_steps.json").tools)
    groups = json.loads((REAL / "make" / "equivalents_steps.json").read_text())["groups"]
    overlapping = {n for group in groups.values() for n in group}
    assert overlapping <= steps
    rows = {split: json.loads((REAL / f"queries_steps_{split}.json").read_text()) for split in ("dev", "test")}
    new = [r for split in ("dev", "test") for r in rows[split] if r["id"].startswith("steps-")]
    assert sum(r["kind"] == "multi-step" for r in new) >= 150
    assert 0.55 <= sum(r["split"] == "dev" for r in new) / len(new) <= 0.65
    for split in ("dev", "test"):
        assert {r["split"] for r in rows[split]} == {split}
    everything = rows["dev"] + rows["test"]
    assert len({r["id"] for r in everything}) == len(everything)
    assert len({r["user_query"].lower() for r in everything}) == len(everything)
    for r in everything:
        assert set(r["golden_function_names"]) <= steps and not overlapping & set(r["golden_function_names"])
        assert (len(r["golden_function_names"]) == 1) == (r["kind"] == "single")
        assert r["main_golden_function_name"] in r["golden_function_names"]
    dataset = EvalDataset("real-steps", json_catalog.load(REAL / "catalog_steps.json").tools, [], [])
    assert len(dataset.with_queries(REAL / "queries_steps_test.json").instances) == len(rows["test"])


def gold_catalog(file: str) -> dict[str, dict]:
    """A gold file's catalog as `eval deps --catalog-file` reads it (any format the import auto-detects)."""
    path = REAL / file
    source = load_document(path.read_text(encoding="utf-8"), path.stem, where=str(path))
    return {t["name"]: t for t in source.tools}


def test_gold_provider_edges_name_real_tools_and_parameters():
    files = sorted((REAL / "gold_edges").glob("*.json"))
    specs, servers = set(), set()
    for path in files:
        gold = json.loads(path.read_text())
        tools = gold_catalog(gold["catalog_file"])
        assert gold["provenance"] and gold["edges"], path.name
        for e in gold["edges"]:
            assert e["source"] in tools and e["target"] in tools and e["source"] != e["target"], (path.name, e)
            assert normalise_dependency_type(e["type"]).value == e["type"]
            assert e["split"] in ("dev", "test") and e["reason"]
            if e["type"].startswith("PARAMETER_"):
                assert e["parameter_name"] in {p["name"] for p in tools[e["source"]]["parameters"]}, (path.name, e)
            else:
                assert e["parameter_name"] is None
        if gold["catalog_file"].startswith("openapi/"):
            specs.add(path.stem)
        if path.stem.startswith("mcp_"):
            servers.add(path.stem)
        keys = [(e["source"], e["target"], e["parameter_name"]) for e in gold["edges"]]
        assert len(keys) == len(set(keys)), path.name
    assert len(specs) >= 4 and len(servers) >= 10
    combined = json.loads((REAL / "gold_edges" / "all.json").read_text())["edges"]
    parts = [e for p in files if p.stem in (*SPECS, "mcp") for e in json.loads(p.read_text())["edges"]]
    assert len(combined) == len(parts)
    xl = json.loads((REAL / "gold_edges" / "xl.json").read_text())["edges"]
    assert len(json.loads((REAL / "gold_edges" / "all_xl.json").read_text())["edges"]) == len(combined) + len(xl)


def _make_module(name: str):
    spec = importlib.util.spec_from_file_location(name, REAL / "make" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_files_are_what_the_hand_written_sources_make():
    """queries.txt / gold_edges.txt are the sources: the committed JSON must not drift from them."""
    queries = _make_module("build_queries")
    rows = queries.parse((REAL / "make" / "queries.txt").read_text())
    committed = [r for split in ("dev", "test") for r in json.loads((REAL / f"queries_{split}.json").read_text())]
    assert sorted((r["user_query"], tuple(r["golden_function_names"])) for r in rows) == sorted(
        (r["user_query"], tuple(r["golden_function_names"])) for r in committed
    )
    gold = _make_module("build_gold_edges").parse((REAL / "make" / "gold_edges.txt").read_text())
    for name, section in gold.items():
        edges = json.loads((REAL / "gold_edges" / f"{name}.json").read_text())["edges"]
        assert {(e["source"], e["target"], e["parameter_name"], e["type"]) for e in section["edges"]} == {
            (e["source"], e["target"], e["parameter_name"], e["type"]) for e in edges
        }, name
