"""Hostile catalog documents (issue 23, items 1 and 8): YAML alias bombs, OpenAPI `$ref` fan-out, specs too
large to store and documents nested 1,000+ levels deep are refused fast, with little memory and a clear
error: `CatalogError`/`DocumentTooLargeError` from the loaders, one `error:` line from the CLI, 413/422 from
the API (never 500)."""

from __future__ import annotations

import json
import time
import tracemalloc

import pytest

from benchmarks import DATA
from kg_tools.errors import CatalogError, DocumentTooLargeError
from kg_tools.loaders import openapi
from kg_tools.loaders.bounded import MAX_DEPTH, RefResolver, parse_document, parse_yaml
from kg_tools.loaders.document import load_document
from kg_tools.tool_spec import MAX_SPEC_BYTES, validate_catalog
from tests.support import FIXTURES
from tests.support.cli_process import kg_tools_process

SHOP = FIXTURES / "shop_openapi.yaml"
REAL_JSON = DATA / "real" / "openapi" / "discord.json"


def alias_bomb(levels: int = 9, fan: int = 9) -> str:
    """The issue's document: a tool whose field is a list of aliases nested `levels` deep, `fan` per level
    (9 x 9: 538 bytes that expand to 9**9 strings)."""
    lines = ['a0: &a0 ["lol"]'] + [
        f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * fan) + "]" for i in range(1, levels + 1)
    ]
    return "tools:\n  - name: x\n    description: y\n    bomb:\n" + "".join(f"      {line}\n" for line in lines)


def ref_bomb(levels: int = 12, fan: int = 10) -> str:
    """An OpenAPI spec whose request body schema fans out: each schema refers to the previous one `fan`
    times (a DAG, not a cycle), so resolving it naively makes fan**levels copies."""
    schemas = {"S0": {"type": "string", "description": "leaf"}}
    for i in range(1, levels + 1):
        schemas[f"S{i}"] = {
            "type": "object",
            "properties": {f"p{j}": {"$ref": f"#/components/schemas/S{i - 1}"} for j in range(fan)},
        }
    body = {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/S{levels}"}}}}
    return json.dumps(
        {
            "openapi": "3.0.0",
            "paths": {"/x": {"post": {"operationId": "x", "requestBody": body}}},
            "components": {"schemas": schemas},
        },
        separators=(",", ":"),
    )


def response_fan_out(operations: int = 100, levels: int = 14) -> str:
    """The issue 32 spec (17 KB): every operation's 200 response is a schema that refers twice to the one
    below it, `levels` deep, so each expands to ~1 MB, under the per-response budget; 100 of them cost ~42 s
    of CPU to cut to size while the budget was reset per operation."""
    schemas: dict = {"F0": {"type": "string"}}
    for i in range(1, levels + 1):
        ref = {"$ref": f"#/components/schemas/F{i - 1}"}
        schemas[f"F{i}"] = {"type": "object", "properties": {"a": ref, "b": ref}}
    ok = {
        "200": {
            "description": "ok",
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/F{levels}"}}},
        }
    }
    paths = {f"/r{n}": {"get": {"operationId": f"op{n}", "responses": ok}} for n in range(operations)}
    return json.dumps({"openapi": "3.0.0", "paths": paths, "components": {"schemas": schemas}}, separators=(",", ":"))


def dense_yaml(items: int = 3_000_000) -> str:
    """6 MB of YAML that is nearly all values (2 characters each): it cost +740 MB to parse."""
    return "x: [" + ",".join(["a"] * items) + "]\n"


def deep_json(levels: int = 1500) -> str:
    return '[{"name": "x", "deep": ' + "[" * levels + "]" * levels + "}]"


def refused_fast(text: str, error=CatalogError, match: str = "") -> tuple[float, float]:
    """Seconds and peak MiB (tracemalloc) of refusing `text` through the REST import's loader."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(error, match=match):
            load_document(text, "c")
        return time.perf_counter() - started, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


# -- loaders (no database) ---------------------------------------------------------------------------


def test_a_yaml_alias_bomb_is_refused_fast_with_little_memory():
    bomb = alias_bomb()
    assert len(bomb) <= 600
    seconds, mib = refused_fast(bomb, DocumentTooLargeError, "YAML aliases expand the document")
    assert (
        seconds < 10 and mib < 20
    )  # fails fast: measured 0.06-0.36 s (docs/security.md); 10 s leaves room for a loaded CI machine


def test_a_ref_fan_out_bomb_is_refused_fast_with_little_memory():
    bomb = ref_bomb()
    seconds, mib = refused_fast(bomb, DocumentTooLargeError, r"resolving \$refs produces more than")
    assert (
        seconds < 10 and mib < 20
    )  # fails fast: measured 0.06-0.36 s (docs/security.md); 10 s leaves room for a loaded CI machine


def test_response_schemas_share_one_budget_per_document():
    seconds, mib = refused_fast(response_fan_out(), DocumentTooLargeError, "the response schemas expand to more than")
    assert seconds < 10 and mib < 50  # measured 0.01 s (was ~42-68 s of CPU)
    one = load_document(response_fan_out(operations=1), "c")  # one such response alone is kept, cut to size
    assert len(one.tools) == 1 and "output_schema" in one.tools[0]
    # s23rev: a $ref the document does not hold, at the bottom, took every response out of the budget (~99 s)
    dangling = json.loads(response_fan_out())
    dangling["components"]["schemas"]["F0"] = {"$ref": "#/components/schemas/Missing"}
    seconds, _ = refused_fast(json.dumps(dangling), DocumentTooLargeError, "the response schemas expand to more than")
    assert seconds < 10


def test_a_yaml_document_is_bounded_before_it_is_parsed_and_by_its_values():
    seconds, mib = refused_fast(dense_yaml(), DocumentTooLargeError, "YAML document of more than 5,242,880 characters")
    assert seconds < 10 and mib < 50
    with pytest.raises(DocumentTooLargeError, match="YAML document of more than 2,000 values"):
        parse_yaml(dense_yaml(3000), "c", max_nodes=2000)
    assert json.loads(json.dumps(parse_document(dense_yaml(3000), "c"))) == {"x": ["a"] * 3000}
    assert load_document(json.dumps(json.loads(REAL_JSON.read_text())), "c").tools  # JSON: no YAML limits


def test_a_small_ref_fan_out_bomb_through_the_cli_loader(tmp_path):
    path = tmp_path / "fanout.yaml"
    path.write_text(ref_bomb(levels=9, fan=10))  # 10**9 leaves
    started = time.perf_counter()
    with pytest.raises(DocumentTooLargeError):
        openapi.load(path)
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize(
    "text, message",
    [
        ("a: &a [*a]", "recursive"),  # an alias inside its own anchor
        (
            "a: &a {k0: v}\n"
            + "".join(
                f"b{i}: &b{i} {{<<: [{'*a' if i == 0 else f'*b{i - 1}'}, "
                f"{'*a' if i == 0 else f'*b{i - 1}'}], k{i}: v}}\n"
                for i in range(40)
            ),
            "YAML aliases expand",
        ),  # merge keys doubling per level
        (deep_json(), f"nested more than {MAX_DEPTH} levels"),  # JSON, 1,500 levels
        ("[" * 100_000 + "]" * 100_000, "nested more than"),  # past Python's recursion limit
        ("a:\n" + "".join(" " * (i + 1) + f"b{i}:\n" for i in range(1200)), "nested more than"),  # YAML blocks
        ("x: " + "[" * 3000 + "]" * 3000, "nested more than"),  # YAML flow
    ],
)
def test_recursive_exploding_and_deep_documents_get_a_clear_error(text, message):
    seconds, _ = refused_fast(text, CatalogError, message)
    assert seconds < 10


def test_a_control_byte_in_yaml_is_a_catalog_error_naming_it():
    """PyYAML's reader refuses the byte while the loader is made, before parsing: that was a ReaderError
    outside the error mapping (HTTP 500 `unexpected ReaderError`, CLI exit 1)."""
    with pytest.raises(CatalogError, match=r"neither JSON nor YAML: unacceptable character #x0001"):
        load_document("tools:\n- name: x\x01\n", "request body")


def test_aliases_refs_and_yaml_scalars_that_stay_in_bounds_still_load(tmp_path):
    tools = load_document(
        "defaults: &d {type: string, description: a city}\n"
        "tools:\n- name: a\n  description: A\n  parameters: [{name: city, <<: *d}]\n"
        "  created: 2024-01-02\n  raw: !!binary aGk=\n",
        "c",
    ).tools
    assert tools[0]["parameters"] == [{"name": "city", "type": "string", "description": "a city"}]
    assert tools[0]["created"] == "2024-01-02" and tools[0]["raw"] == "aGk="  # JSON data, storable
    json.dumps(tools)
    assert {t["name"] for t in openapi.load(SHOP).tools} == {
        "login_user",
        "searchProducts",
        "get_products_product_id",
        "add-to-cart",
    }


def test_the_ref_resolver_resolves_each_target_once_and_counts_what_it_returns():
    document = {
        "components": {"S": {"type": "object", "properties": {"a": {"type": "string"}}}},
        "x": [{"$ref": "#/components/S"}, {"$ref": "#/components/S", "description": "second"}],
    }
    resolver = RefResolver(document, "doc")
    first, second = resolver.resolve(document["x"])
    assert first is resolver.resolve({"$ref": "#/components/S"})  # memoised, shared
    assert second == {**first, "description": "second"}
    assert resolver.emitted > 0
    with pytest.raises(DocumentTooLargeError):
        RefResolver(document, "doc", max_expansion=50).resolve([{"$ref": "#/components/S"}] * 10)


def test_a_tool_larger_than_a_stored_spec_may_be_is_refused():
    shared = ["x" * 1000] * 200  # YAML aliases share one list: cheap in memory, 200 KB each as JSON
    with pytest.raises(CatalogError, match=f"larger than {MAX_SPEC_BYTES:,} characters as JSON"):
        validate_catalog([{"name": "big", "blob": [shared] * 10}])
    validate_catalog([{"name": "fine", "blob": [shared] * 2}])


# -- CLI -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("bomb.yaml", alias_bomb(), "YAML aliases expand the document"),
        ("fanout.json", ref_bomb(), "resolving $refs produces more than"),
        ("deep.json", '{"openapi": "3.0.0", "paths": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than"),
        ("control.yaml", "openapi: 3.0.0\ninfo: {title: t\x01}\n", "unacceptable character #x0001"),
        ("fanout.yaml", response_fan_out(), "the response schemas expand to more than"),
        ("dense.yaml", dense_yaml(), "YAML document of more than"),
    ],
)
def test_the_cli_refuses_a_hostile_openapi_file_with_one_error_line(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    started = time.perf_counter()
    done = kg_tools_process("load", "openapi", str(path), timeout=60)  # no Neo4j is needed to refuse the file
    assert time.perf_counter() - started < 30  # a fresh interpreter importing the CLI; the refusal itself < 2 s
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], done.stderr
    assert "Traceback" not in done.stderr


# -- REST API (real Neo4j) -------------------------------------------------------------------------
