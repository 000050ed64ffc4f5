"""Odd inputs to the fifteenth session's name and body rules (kg_tools/deps/resources.py `name_verb_and_object`,
`prefix_words`, `catalog_names`; producers.py `whole_body`): nothing raises, parses stay small, and a catalog's
prefix words stay its own while another catalog is parsed in another thread. Made-up names only."""

from __future__ import annotations

import threading
import time

import pytest

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import infer_producers, nested_parameters, prepare
from kg_tools.deps.resources import catalog_names, current_prefix, name_verb_and_object, prefix_words

ODD_NAMES = [
    "",
    "a",
    "_",
    "...",
    "__",
    "123",
    "1_2_3",
    "_._._",
    "获取用户",
    "用户_list",
    "ünïcödé_get",
    "HTTPServerList",
    "list",
    "all",
    "info",
    "x.all",
    "by_list",
    "list_by",
    "get__",
    "__list",
    "_".join(f"w{i}" for i in range(200)),
    "_".join(["list"] * 200),
    "get" + "Foo" * 300,
]


def _tool(name: str, params: list[dict] | None = None, **spec) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": "", "parameters": params or [], **spec})


@pytest.mark.parametrize("name", ODD_NAMES)
def test_odd_names_parse_without_raising(name: str):
    for tools in ([], [_tool(f"w0_{v}_thing{i}") for i in range(4) for v in ("get", "list")]):
        with catalog_names(tools):
            verb, obj = name_verb_and_object(name)
        assert verb is None or isinstance(verb, str)
        assert len(obj) <= len(name)


def test_trailing_verbs_alone_and_non_latin_names():
    assert name_verb_and_object("all") == (None, ["all"])
    assert name_verb_and_object("用户_list") == ("list", [])
    assert name_verb_and_object("HTTPServerList") == ("list", ["http", "server"])


def test_prefix_words_of_empty_and_uniform_catalogs():
    assert prefix_words([]) == frozenset()
    every = [_tool("_".join(ws)) for ws in (("aa", "bb", "cc"), ("aa", "cc", "bb"), ("bb", "aa", "cc"))]
    assert prefix_words(every) <= {"aa", "bb"}
    shared = [_tool(f"acme_thing{i}_get", [{"name": "thing_id", "type": "string"}]) for i in range(5)]
    assert prefix_words(shared) == {"acme"}


def test_a_catalog_s_prefix_words_stay_in_its_own_thread():
    """Two inferences side by side (a gateway's syncs, a test runner's threads) each parse with their own prefix."""
    seen: dict[str, frozenset[str]] = {}

    def parse(key: str, prefix: str) -> None:
        tools = [_tool(f"{prefix}_get_thing{i}") for i in range(4)]
        with catalog_names(tools):
            time.sleep(0.05)
            seen[key] = current_prefix()

    threads = [threading.Thread(target=parse, args=(k, k)) for k in ("north", "south")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"north": frozenset({"north"}), "south": frozenset({"south"})}
    assert current_prefix() == frozenset()


def _body(schema: object, body_type: str | None = "object") -> ToolInfo:
    param = {"name": "body", "type": body_type, "in": "body", "required": True}
    http = {"method": "POST", "path": "/things"}
    return _tool("createThing", [param], http=http, input_schema={"type": "object", "properties": {"body": schema}})


def _deep(levels: int, key: str) -> dict:
    node: dict = {"type": "object", "properties": {"leaf_id": {"type": "string"}}}
    for i in range(levels):
        node = {key: [node, {"type": "object", "properties": {f"p{i}_id": {"type": "string"}}}]}
    return node


CYCLE = {
    "A": {
        "allOf": [{"$ref": "#/$defs/B"}, {"type": "object", "properties": {"a_id": {}, "me": {"$ref": "#/$defs/A"}}}]
    },
    "B": {"oneOf": [{"$ref": "#/$defs/A"}, {"type": "object", "properties": {"b_id": {}}}]},
}


@pytest.mark.parametrize(
    "body",
    [
        _body(_deep(20, "allOf")),
        _body(_deep(20, "oneOf")),
        _body({"type": "array", "items": {"type": "object", "properties": {"x_id": {}}}}, "array"),
        _body({"type": "string"}, "string"),
        _body(True, None),
        _tool(
            "createThing",
            [{"name": "body", "type": "object", "in": "body"}],
            http={"method": "POST", "path": "/things"},
            input_schema={"type": "object", "properties": {"body": {"$ref": "#/$defs/A"}}, "$defs": CYCLE},
        ),
    ],
)
def test_odd_whole_bodies_end_quickly(body: ToolInfo):
    lister = _tool(
        "listThings",
        http={"method": "GET", "path": "/things"},
        output_schema={"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
    )
    start = time.perf_counter()
    assert len(nested_parameters(prepare([body])["createThing"])) <= 40
    infer_producers([body, lister])
    assert time.perf_counter() - start < 5
