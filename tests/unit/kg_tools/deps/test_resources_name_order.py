"""Names that put the object before the verb (kg_tools/deps/resources.py `name_verb_and_object`, `prefix_words`;
fifteenth session). Small made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, prepare, tool_kind
from kg_tools.deps.resources import catalog_names, name_verb_and_object, prefix_words


def _p(name: str, description: str = "", required: bool = True) -> dict:
    return {"name": name, "type": "string", "description": description, "required": required}


def _tool(name: str, description: str = "", params: tuple[dict, ...] = ()) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": list(params)})


def test_a_verb_at_the_end_has_the_words_before_it_as_its_object():
    assert name_verb_and_object("garden-create") == ("create", ["garden"])
    assert name_verb_and_object("plots_list") == ("list", ["plots"])
    assert name_verb_and_object("plots_get") == ("get", ["plot"])  # one instance of the collection
    assert name_verb_and_object("GardenShedList") == ("list", ["garden", "shed"])
    assert name_verb_and_object("seed_packet_bulk_update") == ("update", ["seed", "packet", "bulk"])


def test_trpc_and_rpc_verbs_end_a_name():
    assert name_verb_and_object("garden.all") == ("list", ["garden"])
    assert name_verb_and_object("garden-one") == ("get", ["garden"])
    assert name_verb_and_object("plots.info") == ("get", ["plot"])
    assert name_verb_and_object("water_all_plots") == (None, ["water", "all", "plots"])  # not at the end


def test_a_verb_after_the_first_words_opens_what_follows_it():
    assert name_verb_and_object("GardenService_ListGardenBeds") == ("list", ["garden", "beds"])
    assert name_verb_and_object("v2_plot_harvest_list_by_season") == ("list", ["v2", "plot", "harvest"])


def test_names_that_open_with_their_verb_are_unchanged():
    assert name_verb_and_object("list_gardens") == ("list", ["gardens"])
    assert name_verb_and_object("greenhouse_create_bed") == ("create", ["bed"])
    assert name_verb_and_object("search") == ("search", [])
    assert name_verb_and_object("water_plot") == (None, ["water", "plot"])


def _server() -> list[ToolInfo]:
    plot = _p("plotId", "The plot")
    return [
        _tool("verdant_plot_list", "List plots"),
        _tool("verdant_plot_get", "Get a plot", (plot,)),
        _tool("verdant_plot_delete", "Delete a plot", (plot,)),
        _tool("verdant_seed_packet_create", "Create a seed packet", (plot,)),
        _tool("verdant_search", "Search everything", (_p("query"),)),
    ]


def test_a_word_that_begins_most_names_and_no_parameter_is_a_prefix():
    tools = _server()
    assert prefix_words(tools) == {"verdant"}
    with catalog_names(tools):
        assert name_verb_and_object("verdant_seed_packet_create") == ("create", ["seed", "packet"])
        assert name_verb_and_object("verdant_search") == ("search", [])  # the product alone: no object
    assert name_verb_and_object("verdant_search") == ("search", ["verdant"])  # outside the catalog


def test_a_word_before_a_verb_and_its_object_in_most_of_its_names_is_a_prefix():
    tools = [
        *_server(),
        *[_tool(f"trellis_{v}_vine", f"{v} a vine", (_p("vineId"),)) for v in ("get", "update", "delete")],
        _tool("trellis_search", "Search vines", (_p("query"),)),
    ]
    assert "trellis" in prefix_words(tools)


def test_a_resource_named_in_a_parameter_is_no_prefix():
    tools = [_tool(f"plot_{v}", f"{v} a plot", (_p("plotId"),)) for v in ("get", "update", "delete", "create")]
    assert prefix_words(tools) == frozenset()


def test_an_object_first_getter_provides_the_identifier_of_its_resource():
    tools = _server()
    with catalog_names(tools):
        kinds = {n: tool_kind(t) for n, t in prepare(tools).items()}
    assert kinds["verdant_plot_list"] == "list"
    assert kinds["verdant_plot_get"] == "get"
    _, groups = candidate_groups(tools)
    producers = {(c.consumer.name, c.producer.name) for g in groups for c in g}
    assert ("verdant_plot_delete", "verdant_plot_list") in producers
