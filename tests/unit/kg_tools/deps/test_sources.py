"""Sources of a catalog that gathers many servers (kg_tools/deps/sources.py; thirteenth session, "many MCP servers in
one catalog"). Made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps import resources, sources, unordered
from kg_tools.deps.infer import structural_edges
from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import prepare, source_parts, tool_kind
from kg_tools.deps.sources import FAMILY_RUN, catalog_sources, declared_source, name_families, name_shape


def _tool(name: str, params: list[str] = (), **extra) -> ToolInfo:
    raw = {"name": name, "description": f"{name.replace('_', ' ')}", "parameters": [], **extra}
    raw["parameters"] = [{"name": p, "type": "string", "description": "", "required": True} for p in params]
    return ToolInfo.from_raw(raw)


def test_a_gateway_name_or_a_server_field_declares_the_source():
    assert declared_source("crate__get_box", None) == "crate"
    assert declared_source("get_box", _tool("get_box", mcp_server="crate").spec) == "crate"
    assert declared_source("get_box", _tool("get_box", namespace=" depot ").spec) == "depot"
    assert declared_source("get_box", _tool("get_box", server=3).spec) == ""
    assert declared_source("get_box", _tool("get_box").spec) == ""


CRATE = {"type": "object", "title": "Crate", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}


def _operation(name: str, method: str, path: str, params: list[str] = (), operation_id: str | None = None, **extra):
    http = {"method": method, "path": path, "operation_id": operation_id or name}
    return _tool(name, params, http=http, **extra)


def test_an_operation_named_by_its_own_operation_id_has_no_gateway_server():
    """FastAPI writes operationIds `<function>_<path>_<method>`, `__` around each path parameter (seventeenth
    session): no `<server>__` of a gateway name, also when the name is the operationId cut at 64 characters."""
    crate = _operation("read_crate_crates__id__get", "GET", "/crates/{id}")
    assert declared_source(crate.name, crate.spec) == "" and sources.gateway_server(crate.name, crate.spec) == ""
    cut = _operation("read_crate_crates__id__", "GET", "/crates/{id}", operation_id="read_crate_crates__id__get")
    assert declared_source(cut.name, cut.spec) == ""
    assert sources.short_name(crate.name, crate.spec) == crate.name
    gateway = _operation("depot__read_crate", "GET", "/crates/{id}", operation_id="read_crate")
    assert declared_source(gateway.name, gateway.spec) == "depot"
    assert sources.short_name(gateway.name, gateway.spec) == "read_crate"


def test_values_flow_between_operations_whose_operation_ids_hold_double_underscores():
    tools = [
        _operation("create_crate_crates__post", "POST", "/crates/", ["name"], output_schema=CRATE),
        _operation(
            "read_crates_crates_filter_post", "POST", "/crates/filter", output_schema={"type": "array", "items": CRATE}
        ),
        _operation("read_crate_crates__crate_id__get", "GET", "/crates/{crate_id}", ["crate_id"]),
        _operation("delete_crate_crates__crate_id__delete", "DELETE", "/crates/{crate_id}", ["crate_id"]),
    ]
    assert len(source_parts(tools)) == 1
    pairs = {(e.source, e.target) for e in structural_edges(tools, sources=None, min_confidence=0.2)}
    assert ("delete_crate_crates__crate_id__delete", "read_crates_crates_filter_post") in pairs


def test_a_name_shape_is_its_source_prefix_and_its_spelling():
    assert name_shape("crate_getBoxes") == ("crate", "snake")
    assert name_shape("crate-list-boxes") == ("crate", "kebab")
    assert name_shape("list_boxes") == ("", "snake")
    assert name_shape("boxes_list") == ("", "snake")  # a resource before its verb is no source
    assert name_shape("listBoxes") == ("", "camel")
    assert name_shape("ListBoxes") == ("", "pascal")
    assert name_shape("boxes") == ("", "")


def _server(prefix: str, n: int) -> list[str]:
    return [f"{prefix}_get_thing{i}" for i in range(n)]


def test_families_cut_where_a_run_of_another_shape_starts():
    """A new family where FAMILY_RUN names in a row share a new shape; a few odd names, one-word names included,
    stay in the family they are listed in."""
    first = [f"get_thing{i}" for i in range(10)]
    odd = ["check-health", "sync", "debugConfig"]
    second = _server("depot", FAMILY_RUN)
    names = first[:5] + odd + first[5:] + second
    families = name_families(names)
    assert {families[n] for n in first + odd} == {"#0"}
    assert {families[n] for n in second} == {"#1"}
    short = first + _server("depot", FAMILY_RUN - 1)
    assert set(name_families(short).values()) == {"#0"}


def test_names_in_alphabetical_order_are_grouped_by_shape():
    """A prefix FAMILY_RUN names share is a family, other names go by spelling; a one-word name (`boxes`) joins the
    commonest family."""
    plain = ["get_box", "list_boxes", "open_box", "seal_box", "ship_box"] + _server("rare", 2)
    names = sorted(_server("crate", FAMILY_RUN) + plain + ["boxes", "list-crates"])
    families = name_families(names)
    assert {families[n] for n in _server("crate", FAMILY_RUN)} == {"#crate"}
    assert {families[n] for n in [*plain, "boxes"]} == {"#snake"}
    assert families["list-crates"] == "#kebab"


def test_families_only_in_a_catalog_too_large_for_one_server(monkeypatch):
    names = [f"get_thing{i}" for i in range(8)] + _server("depot", FAMILY_RUN)
    assert set(catalog_sources(names, {}, set()).values()) == {""}
    monkeypatch.setattr(sources, "MANY_TOOLS", len(names))
    assert set(catalog_sources(names, {}, set()).values()) == {"#0", "#1"}
    declared = {n: "depot" for n in names[8:]}  # a declared source wins; HTTP operations keep ''
    assert catalog_sources(names, declared, {names[0]})[names[-1]] == "depot"
    assert catalog_sources(names, declared, {names[0]})[names[0]] == ""


def _two_servers(field: bool) -> list[ToolInfo]:
    """Two servers that both take a `box_id`; only the first lists boxes."""
    a = {"mcp_server": "crate"} if field else {}
    b = {"mcp_server": "depot"} if field else {}
    return [
        _tool("list_boxes", **a),
        _tool("open_box", ["box_id"], **a),
        _tool("seal_box", ["box_id"], **b),
        _tool("ship_box", ["box_id"], **b),
    ]


def test_no_value_flows_between_declared_servers():
    pairs = {(e.source, e.target) for e in structural_edges(_two_servers(False), sources=None, min_confidence=0.2)}
    assert ("seal_box", "list_boxes") in pairs  # nothing tells the servers apart
    pairs = {(e.source, e.target) for e in structural_edges(_two_servers(True), sources=None, min_confidence=0.2)}
    assert ("open_box", "list_boxes") in pairs
    assert ("seal_box", "list_boxes") not in pairs and ("ship_box", "list_boxes") not in pairs


def test_servers_of_one_product_are_one_family():
    """Twenty-fifth session: a gateway's servers whose keys begin with one product word pass ids between them."""
    keys = ["acme_vault", "acme_vault", "acme-relay", "acme-relay", "crate", "crate", "crate_x"]
    family = sources.product_families(keys)
    assert {k: family.get(k, k) for k in keys} == {
        "acme_vault": "acme*",
        "acme-relay": "acme*",
        "crate": "crate",  # one server alone in its word
        "crate_x": "crate_x",  # a source of one tool is an operation's, no server's
    }
    assert sources.product_families(["mcp_vault", "mcp_vault", "mcp-relay", "mcp-relay"])["mcp-relay"] == "mcp-relay"
    assert sources.product_families(["read_a", "read_a", "read_b", "read_b"])["read_b"] == "read_b"  # a verb


def test_a_server_key_begun_by_an_owner_place_or_number_is_its_own_family():
    """Twenty-sixth session: `my_github` and `my_slack` (a client config's keys) are two products, as are
    `local-files` and `local-git`, `1_vault` and `1_relay`; the keys keep their own sources."""
    keys = [k for k in ("my_github", "my_slack", "Local-files", "local_git", "1_vault", "1_relay") for _ in range(2)]
    assert sources.product_families(keys) == {k: k for k in keys}


def test_a_scoped_or_registry_server_name_is_its_own_family():
    """Review: `@modelcontextprotocol/…` and `io.github.…` begin with a publisher or a registry, no product; a word
    written with letters outside ASCII is one word (`ñandú_x` is no `x` server)."""
    scoped = ["@modelcontextprotocol/server-github", "@modelcontextprotocol/server-slack"]
    registry = ["io.github.acme/vault", "io.github.crate/relay"]
    keys = [k for k in (*scoped, *registry) for _ in range(2)]
    assert sources.product_families(keys) == {}
    family = sources.product_families(["ñandú_x", "ñandú_x", "ñandú_y", "ñandú_y", "x_z", "x_z"])
    assert family == {"ñandú_x": "ñandú*", "ñandú_y": "ñandú*", "x_z": "x_z"}


def test_values_flow_between_servers_of_one_product_only():
    tools = [
        _tool("acme_vault__list_boxes"),
        _tool("acme_vault__open_box", ["box_id"]),
        _tool("acme_relay__seal_box", ["box_id"]),
        _tool("acme_relay__ship_box", ["box_id"]),
        _tool("depot__weigh_box", ["box_id"]),
        _tool("depot__stamp_box", ["box_id"]),
    ]
    assert len(source_parts(tools)) == 2
    pairs = {(e.source, e.target) for e in structural_edges(tools, sources=None, min_confidence=0.2)}
    assert ("acme_relay__seal_box", "acme_vault__list_boxes") in pairs
    assert ("depot__weigh_box", "acme_vault__list_boxes") not in pairs


def test_parts_follow_the_loaded_order_when_tools_know_their_place(monkeypatch):
    monkeypatch.setattr(sources, "MANY_TOOLS", 2)
    tools = [_tool(n) for n in _server("crate", FAMILY_RUN) + [f"get_thing{i}" for i in range(FAMILY_RUN)]]
    for i, t in enumerate(tools):
        t.position = i
    by_name = sorted(tools, key=lambda t: t.name)
    parts = source_parts(by_name)
    assert [len(p) for p in parts] == [FAMILY_RUN, FAMILY_RUN]
    assert all(p == sorted(p, key=lambda t: t.name) for p in parts)  # each part in the order given


def test_tools_without_a_place_come_last_and_the_others_keep_their_order(monkeypatch):
    """A tool written by a PUT after a load has no place: the loaded order of the others still holds (review)."""
    monkeypatch.setattr(sources, "MANY_TOOLS", 2)
    tools = [_tool(n) for n in _server("crate", FAMILY_RUN) + [f"get_thing{i}" for i in range(FAMILY_RUN)]]
    for i, t in enumerate(tools):
        t.position = i
    tools[0].position = None
    parts = source_parts(sorted(tools, key=lambda t: t.name))
    assert sorted(len(p) for p in parts) == [FAMILY_RUN - 1, FAMILY_RUN + 1]  # the PUT one joins the last family


def _widgets() -> list[ToolInfo]:
    """One server's tools in load order, an odd camelCase reader among snake_case ones."""
    names = [f"get_thing{i}" for i in range(FAMILY_RUN)] + ["listWidgets"] + [f"open_box{i}" for i in range(FAMILY_RUN)]
    tools = [_tool(n) for n in names] + [_tool("delete_widget", ["widget_id"])]
    tools[FAMILY_RUN] = ToolInfo.from_raw({"name": "listWidgets", "description": "List widgets.", "parameters": []})
    for i, t in enumerate(tools):
        t.position = i
    return sorted(tools, key=lambda t: t.name)  # as a stored catalog is read


def test_a_source_read_from_the_loaded_order_holds_inside_its_part(monkeypatch):
    """The part's tools in name order say less than the whole catalog in loaded order: their source is the part's,
    not read again (review: the odd `listWidgets` was cut from its own server)."""
    monkeypatch.setattr(sources, "MANY_TOOLS", 2)
    assert len(source_parts(_widgets())) == 1
    pairs = {(e.source, e.target) for e in structural_edges(_widgets(), sources=None, min_confidence=0.2)}
    assert ("delete_widget", "listWidgets") in pairs


# fifteenth session: groups inside a name family, a listing without order


def test_a_shuffled_listing_has_no_server_order():
    """Neighbouring names share their shape far more often than chance only in a listing kept server by server."""
    grouped = _server("crate", 8) + [f"list-box{i}" for i in range(8)] + [f"getWidget{i}" for i in range(8)]
    shuffled = [n for trio in zip(grouped[:8], grouped[8:16], grouped[16:]) for n in trio]
    assert sources.in_server_order([name_shape(n) for n in grouped])
    assert not sources.in_server_order([name_shape(n) for n in shuffled])
    assert name_families(shuffled) == sources.shape_families(shuffled)  # no run to read: the shapes


def test_capitalised_words_inside_a_sentence():
    assert sources.capitalised_words("Open a box in Crate. Returns the Box ID as JSON.") == {"crate", "box"}
    assert sources.capitalised_words("") == set()


def test_marks_of_a_run_make_a_group_and_words_written_everywhere_none():
    names = [f"t{i}" for i in range(12)]
    marks = {n: {"crate"} for n in names[:5]} | {n: {"depot", "@box_id"} for n in names[6:12]}
    groups = sources.mark_groups(names, marks)
    assert len({groups[n] for n in names[:5]}) == 1 and len({groups[n] for n in names[6:]}) == 1
    assert groups["t0"] != groups["t6"]
    assert "t5" not in groups  # between two runs: no group
    marks["t1"] = marks["t1"] | {"@box_id"}  # a parameter both servers write joins their runs: one group
    assert len(set(sources.mark_groups(names, marks).values())) == 1
    far = [f"t{i}" for i in range(3 * sources.MARK_GAP + 3)]  # a word written far apart is no mark
    assert sources.mark_groups(far, {far[0]: {"example"}, far[-1]: {"example"}, far[len(far) // 2]: {"example"}}) == {}


def _product_tools(server: str, verbs: list[str], param: str) -> list[ToolInfo]:
    return [
        ToolInfo.from_raw(
            {
                "name": f"{verb}_box{server[0]}" if verb != "list" else "list_boxes",
                "description": f"{verb.title()} a box in {server}.",
                "parameters": [{"name": param, "type": "string", "description": "", "required": True}]
                if verb != "list"
                else [],
            }
        )
        for verb in verbs
    ]


def test_no_value_flows_between_two_products_of_one_name_family(monkeypatch):
    """Two servers of one name shape listed one after the other in a catalog of several families: the words their
    descriptions capitalise and their parameter names tell them apart, and the second one's `boxId` gets no provider
    from the first one's list; sorted by name (no order), their descriptions' rare words (the product names,
    kg_tools/deps/unordered.py); one family alone (ToolLinkOS) has no groups."""
    tools = _product_tools("Crate", ["list", "open", "seal", "weigh"], "box_id")
    tools += _product_tools("Depot", ["ship", "store", "stack", "lift"], "boxId")
    tools += [_tool(f"weigh-parcel{i}") for i in range(FAMILY_RUN)]  # another shape: the catalog has two families
    monkeypatch.setattr(sources, "MANY_TOOLS", len(tools))  # many servers' tools (a server's runs span fewer)
    for i, t in enumerate(tools):
        t.position = i
    pairs = {(e.source, e.target) for e in structural_edges(tools, sources=None, min_confidence=0.2)}
    assert ("open_boxC", "list_boxes") in pairs
    assert not any(s.endswith("D") for s, _ in pairs)
    for t in tools:
        t.position = None
    by_name = sorted(tools, key=lambda t: t.name)
    monkeypatch.setattr(unordered, "RARE_SHARE", 0.3)  # a word of 4 of the 14 tools is rare
    pairs = {(e.source, e.target) for e in structural_edges(by_name, sources=None, min_confidence=0.2)}
    assert ("open_boxC", "list_boxes") in pairs
    assert ("ship_boxD", "list_boxes") not in pairs
    one_family = [t for t in tools if "-" not in t.name]
    for i, t in enumerate(one_family):
        t.position = i
    pairs = {(e.source, e.target) for e in structural_edges(one_family, sources=None, min_confidence=0.2)}
    assert ("ship_boxD", "list_boxes") in pairs


# sixteenth session: review of the groups (a mark every server of a long stretch writes is no server's)


def test_a_mark_written_over_more_places_than_one_server_exposes_makes_no_run(monkeypatch):
    monkeypatch.setattr(sources, "MANY_TOOLS", 20)
    names = [f"t{i}" for i in range(30)]
    marks = {n: {"@limit"} for n in names} | {n: {"@limit", "crate"} for n in names[:5]}
    marks |= {n: {"@limit", "depot"} for n in names[10:15]}
    groups = sources.mark_groups(names, marks)  # `@limit` in every tool would make one group of all thirty
    assert groups["t0"] != groups["t10"]
    assert "t20" not in groups


def test_a_boilerplate_word_does_not_join_every_family(monkeypatch):
    """A word capitalised in every description (a gateway's template) runs across every family: no server's name,
    so the families stay apart; a product's name across two of them still joins them."""
    monkeypatch.setattr(sources, "MANY_TOOLS", 12)
    names = [f"get_box{i}" for i in range(6)] + [f"get-box{i}" for i in range(6)] + [f"getBox{i}" for i in range(6)]
    source = {n: f"#{i // 6}" for i, n in enumerate(names)}
    words = {n: {"acme"} for n in names}
    assert sources.joined_families(names, source, words) == source
    words |= {n: {"acme", "crate"} for n in names[:12]}
    joined = sources.joined_families(names, source, words)
    assert {joined[n] for n in names[:12]} == {"#0"} and joined["getBox0"] == "#2"


def test_a_generated_operation_id_is_read_as_its_function_name():
    """`<function><path>_<method>` (FastAPI): `read_crate` is the name's verb and object, not `get` (seventeenth
    session); a name that is the operationId cut short too, an operationId of another shape not."""
    tools = [
        _operation("read_crate_crates__id__get", "GET", "/crates/{id}"),
        _operation("read_crates_crates_filter_post", "POST", "/crates/filter"),
        _operation("read_crate_by_name_crates_n", "GET", "/crates/name/{name}", operation_id=_LONG),
        _operation("getCrate", "GET", "/crates/{id}"),
    ]
    assert resources.generated_functions(tools) == {
        "read_crate_crates__id__get": "read_crate",
        "read_crates_crates_filter_post": "read_crates",
        "read_crate_by_name_crates_n": "read_crate_by_name",
    }
    with resources.catalog_names(tools):
        assert resources.name_verb_and_object("read_crate_crates__id__get") == ("read", ["crate"])
        assert resources.tool_part("read_crate_crates__id__get") == "read_crate"
        assert resources.tool_part("depot__get_crate") == "get_crate"
    # outside its catalog: a gateway name, `<server>__` its first part (the gateway's tool may hold `__` itself)
    assert resources.tool_part("read_crate_crates__id__get") == "id__get"
    assert resources.tool_part("depot__read_crate_crates__id__get") == "read_crate_crates__id__get"


_LONG = "read_crate_by_name_crates_name__name__get"


def test_a_post_that_paginates_lists():
    """`paginate_crates` (POST /crates/paginate) lists crates page by page: no create (seventeenth session)."""
    tools = [_operation("paginate_crates_crates_paginate_post", "POST", "/crates/paginate")]
    with resources.catalog_names(tools):
        assert [tool_kind(t) for t in prepare(tools).values()] == ["list"]


# nineteenth session: a product prefix in a catalog of one server's size


def _prefix_catalog(prefix: str = "crate", said: bool = True, local: int = 4) -> tuple[list[str], dict[str, str]]:
    api = [f"{prefix}_{r}_{v}" for r in ("box", "shelf", "lid") for v in ("list", "get")]
    names = api + [f"{v}_parcel" for v in ("pack", "seal", "weigh", "ship", "stack")[:local]]
    descriptions = {
        n: f"Works with the {prefix.title()} API." if said and n in api else "Works locally." for n in names
    }
    return names, descriptions


def test_a_product_prefix_most_tools_carry_and_their_descriptions_say_makes_two_groups():
    names, descriptions = _prefix_catalog()
    assert sources.product_prefix(names, descriptions) == "crate"
    groups = sources.prefix_groups(names, descriptions)
    assert groups["crate_box_list"] == groups["crate_lid_get"] != groups["pack_parcel"] == groups["ship_parcel"]
    declared = dict.fromkeys(names, "")
    tools = {n: _tool(n) for n in names}
    for n, t in tools.items():
        t.description = descriptions[n]
    assert sources.catalog_groups(names, declared, set(), tools)[1] == groups


def test_no_product_prefix_without_the_property():
    names, descriptions = _prefix_catalog(said=False)  # its tools' descriptions do not write it
    assert sources.prefix_groups(names, descriptions) == {}
    names, descriptions = _prefix_catalog(local=5)  # 6 of 11 tools: most
    assert sources.product_prefix(names, descriptions) == "crate"
    assert sources.product_prefix([*names, "lift_parcel"], descriptions) == ""  # 6 of 12: half, not most
    names, descriptions = _prefix_catalog(local=0)  # every tool: one product, no second
    assert sources.product_prefix(names, descriptions) == ""
    names, descriptions = _prefix_catalog(prefix="list")  # a verb is no product
    assert sources.product_prefix(names, descriptions) == ""
    names, descriptions = _prefix_catalog()
    assert sources.product_prefix([*names, "unpack_crate"], descriptions) == ""  # a later word of another name


def test_no_value_flows_between_a_product_prefix_and_the_other_tools():
    """A local tool's `box_id` gets no provider from the product's list once the prefix makes two groups; with fewer
    than FAMILY_RUN prefixed tools it still does."""

    def tool(name: str, description: str, params: list[str] = ()) -> ToolInfo:
        raw = {"name": name, "description": description, "parameters": []}
        raw["parameters"] = [{"name": p, "type": "string", "description": "", "required": True} for p in params]
        return ToolInfo.from_raw(raw)

    api = [tool("crate_boxes_list", "List boxes in Crate."), tool("crate_box_get", "Get a box in Crate.", ["box_id"])]
    api += [tool(f"crate_{r}_{v}", f"{v} a {r} in Crate.", [f"{r}_id"]) for r in ("shelf", "lid") for v in ("get",)]
    api += [tool(f"crate_{r}_list", f"List every {r} in Crate.") for r in ("shelf", "lid")]
    api += [tool("crate_box_delete", "Delete a box in Crate.", ["box_id"])]
    local = [tool("seal_parcel", "Seal a box locally.", ["box_id"]), tool("weigh_parcel", "Weigh locally.")]
    pairs = {(e.source, e.target) for e in structural_edges(api + local, sources=None, min_confidence=0.2)}
    assert ("crate_box_get", "crate_boxes_list") in pairs and ("seal_parcel", "crate_boxes_list") not in pairs
    few = [t for t in api if t.name != "crate_box_delete" and t.name != "crate_lid_get"] + local
    pairs = {(e.source, e.target) for e in structural_edges(few, sources=None, min_confidence=0.2)}
    assert ("seal_parcel", "crate_boxes_list") in pairs


# twenty-second session: a product group between two tools of one name family


def test_a_product_group_between_two_tools_keeps_them_apart():
    """t0-t2 one server's tools outside every group, t3-t7 a product's ("crate"), t8-t9 a third server's: a tool
    outside every group takes no value across a product group; a group of parameter names alone (`@box_id`, one
    server's part) is no barrier; two tools of one group, or with no product group between them, stay together."""
    names = [f"t{i}" for i in range(12)]
    words = {n: {"crate"} for n in names[3:8]}
    groups = sources.mark_groups(names, words | {n: {"@box_id"} for n in names[9:12]})
    zoned = sources.zoned(names, groups, words)
    assert sources.apart(zoned["t0"], zoned["t8"]) and sources.apart(zoned["t8"], zoned["t0"])
    assert sources.apart(zoned["t2"], zoned["t11"])  # one free, one in a group of parameter names: crate between
    assert not sources.apart(zoned["t0"], zoned["t2"]) and not sources.apart(zoned["t0"], zoned["t5"])
    assert not sources.apart(zoned["t4"], zoned["t8"]) and not sources.apart(zoned["t3"], zoned["t7"])
    assert not sources.apart(zoned["t8"], zoned["t11"])  # a group of parameter names alone: no barrier
    assert sources.apart(zoned["t5"], zoned["t10"])  # two groups, as before
    assert sources.apart("^crate", "^") and not sources.apart("^crate", "") and not sources.apart("", "|1|1")


def test_no_value_flows_across_another_product_in_the_listing(monkeypatch):
    """A crate server outside every group, a depot product between, a bin server: `open_bin(box_id)` takes the
    crate list's boxes only when nothing lies between them."""
    crate = [_tool("list_boxes"), _tool("seal_crate", ["crate_id"]), _tool("weigh_crate", ["crate_id"])]
    depot = [
        ToolInfo.from_raw({"name": f"{v}_depot{i}", "description": f"{v.title()} a depot in Depot.", "parameters": []})
        for i, v in enumerate(["ship", "store", "stack", "lift"])
    ]
    bins = [_tool("open_bin", ["box_id"])] + [_tool(f"weigh-parcel{i}") for i in range(FAMILY_RUN)]
    monkeypatch.setattr(sources, "MANY_TOOLS", len(crate + depot + bins))
    for tools in (crate + depot + bins, crate + bins + depot):
        for i, t in enumerate(tools):
            t.position = i
        pairs = {(e.source, e.target) for e in structural_edges(tools, sources=None, min_confidence=0.2)}
        assert (("open_bin", "list_boxes") in pairs) == (tools[3] is not depot[0])


def test_a_parameter_two_products_write_joins_neither():
    """`@box_id` runs across crate's and depot's spans (FAMILY_RUN tools each writing the product's name): two
    groups; when one side's name is written by too few tools (no product), it joins them as before."""
    names = [f"t{i}" for i in range(2 * FAMILY_RUN)]
    marks = {n: {"crate", "@box_id"} for n in names[:FAMILY_RUN]} | {
        n: {"depot", "@box_id"} for n in names[FAMILY_RUN:]
    }
    groups = sources.mark_groups(names, marks)
    assert len({groups[n] for n in names[:FAMILY_RUN]}) == 1 and groups["t0"] != groups[names[-1]]
    for n in names[1:FAMILY_RUN]:
        marks[n] = {"@box_id"}
    assert len(set(sources.mark_groups(names, marks).values())) == 1


# twenty-fifth session: a few servers gathered under plain names


def _said(names: list[str], product: str, params: list[str] = ()) -> list[ToolInfo]:
    return [
        ToolInfo.from_raw(
            {
                "name": n,
                "description": f"Do this in {product}.",
                "parameters": [{"name": p, "type": "string", "description": "", "required": True} for p in params],
            }
        )
        for n in names
    ]


def _words(tools: list[ToolInfo]) -> dict[str, set[str]]:
    return {t.name: sources.capitalised_words(t.description) for t in tools}


def test_two_name_families_that_each_name_their_product_are_several_products():
    crate = _said(["list_boxes"] + [f"open_box{i}" for i in range(FAMILY_RUN)], "Crate")
    depot = _said([f"ship-box{i}" for i in range(FAMILY_RUN)], "Depot")
    tools = depot + crate  # not in name order
    assert sources.several_products([t.name for t in tools], _words(tools))
    odd = _said([f"ship-box{i}" for i in range(FAMILY_RUN)], "")  # one server's odd names name no product
    assert not sources.several_products([t.name for t in odd + crate], _words(odd + crate))
    same = _said([f"ship-box{i}" for i in range(FAMILY_RUN)], "Crate")  # one product's name across both: one server
    assert not sources.several_products([t.name for t in same + crate], _words(same + crate))
    by_name = sorted(tools, key=lambda t: t.name)  # no order to read
    assert not sources.several_products([t.name for t in by_name], _words(by_name))


def test_no_value_flows_between_several_products_of_one_server_size():
    crate = _said(["list_boxes"], "Crate") + _said([f"open_box{i}" for i in range(FAMILY_RUN)], "Crate", ["box_id"])
    depot = _said([f"ship-box{i}" for i in range(FAMILY_RUN)], "Depot", ["box_id"])
    tools = depot + crate
    assert len(tools) < sources.MANY_TOOLS
    for i, t in enumerate(tools):
        t.position = i
    pairs = {(e.source, e.target) for e in structural_edges(tools, sources=None, min_confidence=0.2)}
    assert ("open_box0", "list_boxes") in pairs
    assert not any(s.startswith("ship-") for s, _ in pairs)


# twenty-sixth session: gathered products that share a spelling


def test_a_plural_acronym_is_no_capitalised_word():
    assert sources.capitalised_words("Returns the IDs and URLs of Crate boxes.") == {"crate"}


def _three_products(count: int = 3) -> list[ToolInfo]:
    crate = _said(["list_boxes"], "Crate") + _said([f"open_box{i}" for i in range(FAMILY_RUN)], "Crate", ["box_id"])
    depot = _said([f"ship_box{i}" for i in range(FAMILY_RUN)], "Depot", ["box_id"])
    vault = _said([f"stack_box{i}" for i in range(FAMILY_RUN)], "Vault", ["box_id"])
    tools = (depot + crate + vault)[: len(crate) + (count - 1) * FAMILY_RUN]  # not in name order
    for i, t in enumerate(tools):
        t.position = i
    return tools


def test_three_products_named_apart_in_one_name_family_are_several_products():
    """One spelling (snake_case) for all: the families say nothing, three runs of product names apart do; one
    server's own name and one section's word (a plan, a mode) are two, not enough."""
    three, two = _three_products(), _three_products(2)
    assert len(set(name_families([t.name for t in three]).values())) == 1
    assert sources.several_products([t.name for t in three], _words(three))
    assert not sources.several_products([t.name for t in two], _words(two))


def test_no_value_flows_between_products_of_one_spelling():
    pairs = {(e.source, e.target) for e in structural_edges(_three_products(), sources=None, min_confidence=0.2)}
    assert ("open_box0", "list_boxes") in pairs
    assert not any(s.startswith(("ship_", "stack_")) for s, _ in pairs)
    two = {(e.source, e.target) for e in structural_edges(_three_products(2), sources=None, min_confidence=0.2)}
    assert ("ship_box0", "list_boxes") in two  # two names apart: one server, as before
