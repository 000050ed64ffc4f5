"""A small hand-made catalog with known retrieval answers (cycles included), for pipeline and API tests.

Seeds live in catalog "syn-seeds" (A, F); everything else in "syn-deps", so a request with
catalog="syn-seeds" and k=2 has exactly A and F as seeds. Dependency listing order (ord) decides
depth-first order:

    A -> H (TOOL_INDIRECTLY, ord 0), A -> B (TOOL_DIRECTLY, ord 1), A -> C (PARAMETER_DIRECTLY "travel_date", ord 2)
    B -> D (TOOL_INDIRECTLY)            D -> B (TOOL_DIRECTLY)        (cycle B <-> D)
    C -> A (TOOL_DIRECTLY, ord 0)       C -> E (TOOL_DIRECTLY, ord 1) (cycle A -> C -> A)
    F -> E (PARAMETER_INDIRECTLY "currency"), F -> G (TOOL_DIRECTLY)
"""

from __future__ import annotations

import copy

from kg_tools import catalog_store, closure
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.tool_spec import ToolSpec, tool_document


def _dep(name, dtype, parameter_name=None, reason=""):
    return {
        "name": name,
        "dependence_type": dtype,
        "parameter_name": parameter_name,
        "reason": reason or f"needs {name}",
    }


SEED_TOOLS = [
    {
        "name": "book_flight_ticket",
        "description": "Book an airplane ticket between two airports for a traveller.",
        "func_type": "regular",
        "parameters": [
            {"name": "origin_airport", "type": "string", "description": "IATA code", "required": True},
            {"name": "travel_date", "type": "string", "description": "Date of travel", "required": True},
        ],
        "depends_on": [
            _dep("check_passport_validity", "TOOL_INDIRECTLY_DEPENDS_ON"),
            _dep("get_user_profile", "TOOL_DIRECTLY_DEPENDS_ON"),
            _dep("get_current_date", "PARAMETER_DIRECTLY_DEPENDS_ON", "travel_date"),
        ],
        "module": "travel",
    },
    {
        "name": "convert_currency_amount",
        "description": "Convert a sum of money into another currency.",
        "func_type": "regular",
        "parameters": [
            {"name": "amount", "type": "float", "description": "How much", "required": True},
            {"name": "currency", "type": "string", "description": "Target currency code"},
        ],
        "depends_on": [
            _dep("get_system_locale", "PARAMETER_INDIRECTLY_DEPENDS_ON", "currency"),
            _dep("fetch_exchange_rates", "TOOL_DIRECTLY_DEPENDS_ON"),
        ],
    },
]

DEP_TOOLS = [
    {
        "name": "get_user_profile",
        "description": "Read the signed-in user's profile record.",
        "func_type": "core",
        "depends_on": [_dep("refresh_session_token", "TOOL_INDIRECTLY_DEPENDS_ON")],
    },
    {
        "name": "get_current_date",
        "description": "Today's calendar date.",
        "func_type": "core",
        "depends_on": [
            _dep("book_flight_ticket", "TOOL_DIRECTLY_DEPENDS_ON"),
            _dep("get_system_locale", "TOOL_DIRECTLY_DEPENDS_ON"),
        ],
    },
    {
        "name": "refresh_session_token",
        "description": "Renew the authentication session token.",
        "func_type": "core",
        "depends_on": [_dep("get_user_profile", "TOOL_DIRECTLY_DEPENDS_ON")],
    },
    {"name": "get_system_locale", "description": "Language and region settings of the device.", "func_type": "core"},
    {
        "name": "fetch_exchange_rates",
        "description": "Download the latest foreign exchange rates.",
        "func_type": "regular",
    },
    {
        "name": "check_passport_validity",
        "description": "Verify that a passport has not expired.",
        "func_type": "regular",
    },
    {
        "name": "play_music_track",
        "description": "Start playback of a song on the speaker (xylophone jingle).",
        "func_type": "regular",
    },
]

# Letters used in the docstring above.
A, B, C, D = "book_flight_ticket", "get_user_profile", "get_current_date", "refresh_session_token"
E, F, G, H = "get_system_locale", "convert_currency_amount", "fetch_exchange_rates", "check_passport_validity"
UNRELATED = "play_music_track"

ALL_TOOLS = SEED_TOOLS + DEP_TOOLS


def raw(name: str) -> dict:
    return copy.deepcopy(next(t for t in ALL_TOOLS if t["name"] == name))


def document(name: str) -> str:
    """The exact embedded text of a tool: as a query it makes that tool the top vector hit."""
    return tool_document(ToolSpec.model_validate(raw(name)))


def plain_tool(name: str, description: str, params: tuple[str, ...] = ("value",)) -> dict:
    """A regular tool of its own (not of this catalog): string parameters, no dependencies."""
    return {
        "name": name,
        "description": description,
        "func_type": "regular",
        "parameters": [{"name": p, "type": "string", "description": f"the {p}"} for p in params],
        "dependencies": [],
    }


def load(graph, embedder) -> None:
    """Replace the graph with the synthetic catalog: everything as "syn-deps", then the seeds moved to
    "syn-seeds" in place, edges kept: a graph whose edges cross catalogs, as versions before catalog
    namespaces wrote them (loads keep edges inside a catalog now; retrieval still follows such edges)."""

    quiet = lambda *_: None  # noqa: E731
    load_catalog(graph, embedder, copy.deepcopy(ALL_TOOLS), "syn-deps", mode=LoadMode.REPLACE_ALL, log=quiet)
    seeds = [t["name"] for t in SEED_TOOLS]

    def move(tx) -> None:
        tx.run("MATCH (t:Tool {catalog: 'syn-deps'}) WHERE t.name IN $seeds SET t.catalog = 'syn-seeds'", seeds=seeds)
        catalog_store.record(tx, "syn-seeds")
        closure.refresh(tx)

    graph.transaction(move)
