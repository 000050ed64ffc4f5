"""Upstream tool definitions are pinned; what changes, or speaks to the model, is held until approved.

At a server's first sync every tool definition (description, title, input and output schema, annotations)
is hashed and pinned as (:GatewayPin {server, tool, hash}). At later syncs a tool is held (not offered, not
callable) when:
  1. its definition differs from the pinned one            -> "definition changed since it was pinned: …"
  2. it is new and the server was pinned before             -> "new tool of a known server"
  3. the scan flags it (any sync, the first included)       -> "its text speaks to the model: …"
unless the server's config says `"accept_changes": true` (1 and 2 are pinned at once; 3 still holds).
`kg-tools gateway approve` pins a held definition. A tool whose entry is not a valid catalog entry is
skipped with a warning naming it; its server's other tools sync.

The scan looks at the description, the title and every description inside the schemas for text aimed at
the model rather than the user (tool poisoning): instructions ("ignore previous instructions", "do not tell
the user", <IMPORTANT> blocks), hidden or invisible text (zero-width and bidi characters, Unicode tags, HTML
comments, ANSI escapes, long blank runs) and exfiltration hints (secrets, key files, "send … to <url>").
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass, field

from kg_tools.cypher import query
from kg_tools.errors import CatalogError
from kg_tools.gateway.names import qualified_name
from kg_tools.tool_spec import validate_catalog

logger = logging.getLogger("kg_tools.gateway")

DEFINITION_FIELDS = ("description", "title", "input_schema", "output_schema", "annotations")

# (what it is, pattern): case-insensitive, on the text with invisible characters left in
SCAN_RULES: list[tuple[str, re.Pattern]] = [
    (
        "instructions to ignore earlier ones",
        re.compile(
            r"\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|other|any)\b"
            r"[^.\n]{0,30}\b(instructions?|prompts?|rules|directions|guidelines)\b",
            re.I,
        ),
    ),
    (
        "a prompt-injection tag",
        re.compile(r"</?\s*(important|system|instructions?|secret|hidden)\s*>|\[/?INST\]", re.I),
    ),
    (
        "instructions to keep something from the user",
        re.compile(
            r"\b(do not|don't|never)\s+(tell|inform|mention|show|reveal|alert|notify)\b[^.\n]{0,30}\buser\b", re.I
        ),
    ),
    ("talk of the system prompt", re.compile(r"\bsystem\s+prompt\b|\byou are now\b|\bnew instructions\b", re.I)),
    (
        "an instruction to act before or instead of the tool",
        re.compile(
            r"\bbefore (using|calling) (this|any) tool\b[^.\n]{0,40}\b(read|call|send|pass|include)\b|"
            r"\binstead of\b[^.\n]{0,30}\b(call|use)\b[^.\n]{0,20}\btool\b",
            re.I,
        ),
    ),
    (
        "a reference to secrets or key files",
        re.compile(
            r"~/\.ssh|\bid_(rsa|ed25519|ecdsa)\b|/etc/(passwd|shadow)|\.aws/credentials|\bprivate[ _]key\b|"
            r"\.env\b[^.\n]{0,30}\b(contents?|file)\b|\b(mcp|claude_desktop)[_ ]config\.json\b",
            re.I,
        ),
    ),
    (
        "an instruction to send data elsewhere",
        re.compile(
            r"\b(send|post|upload|forward|exfiltrate|transmit|leak)\b[^.\n]{0,60}\b(to|via)\b[^.\n]{0,20}"
            r"(https?://|\b[\w.-]+@[\w-]+\.\w+)",
            re.I,
        ),
    ),
    (
        "invisible characters (zero-width, bidi controls or Unicode tags)",
        re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"),
    ),
    ("an HTML comment", re.compile(r"<!--")),
    ("an ANSI escape sequence", re.compile(r"\x1b\[")),
    ("a long blank run (text hidden below)", re.compile(r"(\s*\n){8,}|[ \t]{60,}")),
]


def definition(entry: dict) -> dict:
    """What is pinned of a catalog entry (kg_tools/gateway/sync.py gateway_entry)."""
    return {k: entry.get(k) for k in DEFINITION_FIELDS}


def definition_hash(entry: dict) -> str:
    return hashlib.sha256(json.dumps(definition(entry), sort_keys=True).encode()).hexdigest()


def texts(entry: dict) -> list[str]:
    """The description, the title and every `description` string inside the schemas."""
    out = [entry.get("description") or "", entry.get("title") or ""]

    def walk(node) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("description", "title") and isinstance(v, str):
                    out.append(v)
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(entry.get("input_schema"))
    walk(entry.get("output_schema"))
    return [t for t in out if t]


def scan(entry: dict) -> list[str]:
    """What in the tool's text speaks to the model (the rules' names, in order), or []."""
    found = texts(entry)
    return [what for what, pattern in SCAN_RULES if any(pattern.search(t) for t in found)]


def changed_fields(pinned: dict, entry: dict) -> list[str]:
    current = definition(entry)
    return [k for k in DEFINITION_FIELDS if pinned.get(k) != current.get(k)]


@dataclass
class Review:
    entries: list[dict]  # the valid entries (held ones included: they are synced, not offered)
    holds: dict[str, str] = field(default_factory=dict)  # server__tool -> why it is held
    hashes: dict[str, str] = field(default_factory=dict)  # server__tool -> its current definition hash
    skipped: dict[str, str] = field(default_factory=dict)  # upstream tool name -> why it is not a valid entry


def valid_entries(server: str, entries: list[dict]) -> tuple[list[dict], dict[str, str]]:
    """The entries that are valid catalog entries on their own; the others by name, with the problem."""

    good, skipped = [], {}
    for entry in entries:
        try:
            validate_catalog([entry])
            good.append(entry)
        except CatalogError as exc:
            tool = str((entry.get("upstream") or {}).get("tool") or entry.get("name"))
            skipped[tool] = "; ".join(getattr(exc, "problems", None) or [str(exc)])[:500]
            logger.warning("upstream %s: tool %r skipped, not a valid tool: %s", server, tool, skipped[tool])
    return good, skipped


def decide(entry: dict, pin: dict | None, first_sync: bool, accept_changes: bool) -> tuple[str | None, bool]:
    """(why the entry is held or None, whether its definition becomes the pinned one). Pure."""
    digest = definition_hash(entry)
    if pin is not None and pin["hash"] == digest:
        return None, False
    flags = scan(entry)
    if flags:
        return f"its text speaks to the model: {', '.join(flags)}", False
    if pin is None or pin["hash"] is None:  # never approved (a pin without a hash is a hold)
        if (first_sync and pin is None) or accept_changes:
            return None, True
        return "new tool of a known server", False
    if accept_changes:
        return None, True
    changed = changed_fields(json.loads(pin["definition"] or "{}"), entry)
    return f"definition changed since it was pinned: {', '.join(changed)}", False


def review(graph, server: str, entries: list[dict], *, accept_changes: bool = False) -> Review:
    """Skip invalid entries, compare the others with their pins, write the new pins and holds (blocking)."""

    good, skipped = valid_entries(server, entries)
    pins = {r["tool"]: r for r in graph.read(query("gateway_pins"), servers=[server])}
    first_sync = not pins
    result = Review(good, skipped=skipped)
    rows = []
    for entry in good:
        tool = entry["upstream"]["tool"]
        pin = pins.get(tool)
        digest = definition_hash(entry)
        result.hashes[entry["name"]] = digest
        hold, repin = decide(entry, pin, first_sync, accept_changes)
        now = json.dumps(definition(entry), sort_keys=True)
        row = {"server": server, "tool": tool, "hold": hold, "held_hash": None, "held_definition": None}
        if repin or pin is None:
            row |= {"hash": digest if repin else None, "definition": now if repin else None}
        else:
            row |= {"hash": pin["hash"], "definition": pin["definition"]}
        if hold is not None:
            result.holds[entry["name"]] = hold
            row |= {"held_hash": digest, "held_definition": now}
            logger.warning(
                "upstream %s: tool %s held (%s); approve with `kg-tools gateway approve`", server, tool, hold
            )
        if pin is None or repin or hold != pin["hold"] or (hold and pin["held_hash"] != digest):
            rows.append(row)
    if rows:
        graph.write(query("gateway_pins_write"), rows=rows)
    return result


def still_held(graph, server: str, tool: str, digest: str) -> bool:
    """Whether the tool with definition `digest` is still held (not approved since the sync held it)."""

    return graph.read(query("gateway_pin_get"), server=server, tool=tool)[0]["hash"] != digest


def holds(graph, servers: list[str]) -> list[dict]:
    """Every held tool of `servers`: server, tool, why."""

    return [
        {"server": r["server"], "tool": r["tool"], "hold": r["hold"]}
        for r in graph.read(query("gateway_pins"), servers=servers)
        if r["hold"]
    ]


def approve(graph, servers: list[str], names: list[str] | None) -> list[str]:
    """Pin the held definitions of `servers` (all, or the `server__tool` names given); the names approved."""

    tools = None
    if names is not None:
        tools = [
            [h["server"], h["tool"]] for h in holds(graph, servers) if qualified_name(h["server"], h["tool"]) in names
        ]
    rows = graph.write(query("gateway_pins_approve"), servers=servers, tools=tools)
    return [qualified_name(r["server"], r["tool"]) for r in rows]
