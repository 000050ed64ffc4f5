"""A synthetic tool catalog with ToolLinkOS's shape, for `kg-tools bench scale`.

Names and descriptions come from word lists (verb_domain_object[_qualifier]); 10 % of the tools are
Core utilities; each Regular tool's out-degree follows ToolLinkOS's regular tools (1-7, mostly 2-3),
each Core tool's ToolLinkOS's core tools (mostly 0-1); 84 % of the edges point at Core tools, which
are chosen with Zipf-like weights (a few hubs get most of them, as get_wifi_status does in
ToolLinkOS); dependency types follow ToolLinkOS's mix, and some Core tools depend back on Regular
tools (cycles). Deterministic for a given seed.
"""

from __future__ import annotations

import itertools
import random
from typing import TypeVar

K = TypeVar("K")

VERBS = [
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "send",
    "fetch",
    "check",
    "validate",
    "convert",
    "schedule",
    "cancel",
    "book",
    "share",
    "upload",
    "download",
    "sync",
    "archive",
    "restore",
    "translate",
    "summarize",
    "export",
    "import",
    "compare",
    "calculate",
    "estimate",
    "track",
    "monitor",
    "reserve",
    "approve",
    "reject",
    "publish",
    "subscribe",
    "unsubscribe",
    "rename",
    "merge",
    "split",
    "resize",
    "scan",
]
DOMAINS = [
    "calendar",
    "email",
    "weather",
    "finance",
    "travel",
    "music",
    "photo",
    "video",
    "contact",
    "message",
    "shopping",
    "health",
    "fitness",
    "news",
    "map",
    "restaurant",
    "hotel",
    "flight",
    "train",
    "taxi",
    "bank",
    "invoice",
    "payroll",
    "crm",
    "ticket",
    "document",
    "spreadsheet",
    "note",
    "task",
    "project",
    "home",
    "car",
    "device",
    "network",
    "security",
    "school",
    "library",
    "recipe",
    "pet",
    "garden",
]
OBJECTS = [
    "event",
    "reminder",
    "account",
    "balance",
    "report",
    "order",
    "item",
    "playlist",
    "album",
    "route",
    "booking",
    "reservation",
    "receipt",
    "profile",
    "setting",
    "file",
    "folder",
    "link",
    "comment",
    "review",
    "rating",
    "alert",
    "subscription",
    "payment",
    "transfer",
    "schedule",
    "quote",
    "forecast",
    "summary",
    "record",
    "entry",
    "status",
    "history",
    "invitation",
    "attachment",
    "template",
    "label",
    "category",
    "location",
    "address",
]
QUALIFIERS = [
    "",
    "",
    "",
    "by_date",
    "by_name",
    "in_bulk",
    "for_user",
    "for_team",
    "details",
    "summary",
    "status",
    "preview",
    "history",
    "draft",
    "async",
]
PARAMS = [
    "user_id",
    "email_address",
    "date",
    "start_time",
    "end_time",
    "amount",
    "currency",
    "location",
    "query",
    "item_id",
    "account_id",
    "file_path",
    "language",
    "phone_number",
    "limit",
    "category",
    "title",
    "message",
]
CORE_NAMES = [
    "get_current_date",
    "get_current_time",
    "get_current_location",
    "get_wifi_status",
    "validate_email",
    "get_user_profile",
    "get_country_code",
    "get_system_locale",
    "get_timezone",
    "get_device_id",
    "get_network_status",
    "get_battery_level",
    "validate_phone_number",
    "get_cellular_service_status",
    "get_airplane_mode_status",
    "get_screen_brightness",
    "get_auth_token",
    "get_default_currency",
    "resolve_contact",
    "get_storage_space",
]

# ToolLinkOS: out-degree of its 523 Regular and 50 Core tools, and its dependency types.
REGULAR_OUT_DEGREE = {1: 83, 2: 145, 3: 203, 4: 27, 5: 23, 6: 37, 7: 5}
CORE_OUT_DEGREE = {0: 20, 1: 27, 2: 2, 3: 1}
DEPENDENCY_MIX = {
    "TOOL_DIRECTLY_DEPENDS_ON": 676,
    "PARAMETER_DIRECTLY_DEPENDS_ON": 404,
    "PARAMETER_INDIRECTLY_DEPENDS_ON": 239,
    "TOOL_INDIRECTLY_DEPENDS_ON": 175,
}
CORE_SHARE = 0.10
TO_CORE_SHARE = 0.84  # of the edges (ToolLinkOS: 1,264 of 1,496)


def _names(rng: random.Random, n: int, taken: set[str]) -> list[str]:
    names: list[str] = []
    seen = set(taken)
    while len(names) < n:
        parts = [rng.choice(VERBS), rng.choice(DOMAINS), rng.choice(OBJECTS), rng.choice(QUALIFIERS)]
        name = "_".join(p for p in parts if p)
        if name in seen:
            name = f"{name}_{len(names)}"
        seen.add(name)
        names.append(name)
    return names


def describe(name: str) -> str:
    words = name.split("_")
    verb, rest = words[0], " ".join(w for w in words[1:] if not w.isdigit())
    return f"{verb.capitalize()} the {rest} for the user; returns the result as structured data."


def _pick(rng: random.Random, distribution: dict[K, int]) -> K:
    return rng.choices(list(distribution), weights=list(distribution.values()))[0]


def generate(n: int, seed: int = 0, taken: set[str] | frozenset = frozenset()) -> list[dict]:
    """n tools in the ToolLinkOS JSON schema; names avoid `taken` (tools already in the graph)."""
    rng = random.Random(seed)
    n_core = max(1, round(n * CORE_SHARE))
    base_core = [c for c in CORE_NAMES if c not in taken]
    core = (base_core + _names(rng, max(0, n_core - len(base_core)), set(taken) | set(CORE_NAMES)))[:n_core]
    regular = _names(rng, n - n_core, set(taken) | set(core))
    # Zipf-like popularity of Core tools: the first few are hubs.
    core_weights = list(itertools.accumulate(1.0 / (i + 1) ** 1.1 for i in range(len(core))))
    tools = []
    for name, kind in [(c, "core") for c in core] + [(r, "regular") for r in regular]:
        params = rng.sample(PARAMS, rng.randint(1, 4))
        degree = _pick(rng, REGULAR_OUT_DEGREE if kind == "regular" else CORE_OUT_DEGREE)
        deps, used = [], {name}
        for _ in range(degree):
            if kind == "regular" and rng.random() < TO_CORE_SHARE or not regular:
                target = rng.choices(core, cum_weights=core_weights)[0]
            else:  # Regular -> Regular, and Core -> Regular (these close cycles)
                target = rng.choice(regular)
            if target in used:
                continue
            used.add(target)
            dtype = _pick(rng, DEPENDENCY_MIX)
            dep = {"name": target, "dependence_type": dtype, "reason": f"{name} needs the output of {target}."}
            if dtype.startswith("PARAMETER_"):
                dep["parameter_name"] = rng.choice(params)
            deps.append(dep)
        tools.append(
            {
                "name": name,
                "description": describe(name),
                "func_type": kind,
                "parameters": [
                    {"name": p, "type": "string", "description": f"The {p.replace('_', ' ')}.", "required": i == 0}
                    for i, p in enumerate(params)
                ],
                "depends_on": deps,
            }
        )
    return tools


def queries(tools: list[dict], n: int, seed: int = 1) -> list[str]:
    """n distinct user requests, each about one Regular tool of the catalog (reworded from its name)."""
    rng = random.Random(seed)
    regular = [t["name"] for t in tools if t["func_type"] == "regular"]
    openers = ["Please", "Can you", "I need to", "Help me", "I want to", "Could you"]
    out: dict[str, None] = {}
    while len(out) < n and len(out) < len(regular):
        words = [w for w in rng.choice(regular).split("_") if not w.isdigit()]
        out[f"{rng.choice(openers)} {words[0]} my {' '.join(words[1:])} (request {len(out)})"] = None
    return list(out)
