"""Dependencies learned from real calls: observe -> shadow -> promote.

The gateway (kg_tools/gateway/) shows every successful `call_tool` to a `CallObserver`. When a value an
argument holds (anywhere under a top-level argument) equals a value of an earlier call's result in the
same session (structuredContent, or text content that is JSON; nested anywhere), the consumer's
parameter took it from the provider: a *flow*. Only keyed hashes of values are kept, per session and
bounded (MAX_VALUES_PER_SESSION values, MAX_SESSIONS sessions, least recently used first out); values
that say nothing (booleans, floats, short strings, small integers) are ignored.

Flows are stored apart from the dependency edges, as
`(consumer:Tool)-[:OBSERVED_FLOW {parameter_name, count, sessions, first_seen, last_seen}]->(provider:Tool)`
(`sessions`: hashes of the session ids, at most MAX_SESSION_HASHES): in shadow, retrieval never reads
them. Seen in `observed_promote_after` distinct sessions (KG_TOOLS_OBSERVED_PROMOTE_AFTER), a flow is
promoted: a `PARAMETER_DIRECTLY_DEPENDS_ON` edge with `observed: true` as a one-edge dependency run
(kg_tools/deps/store.py), written with the closure refresh of its consumer in one transaction under
the write lock. `kg-tools deps undo RUN` removes it like any run; an undone flow is not promoted again.
A pair that already has a dependency edge (hand-written or inferred) is not promoted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kg_tools import closure
from kg_tools.cypher import query
from kg_tools.graph import Graph
from kg_tools.write_lock import serialized

logger = logging.getLogger("kg_tools.gateway")

MIN_STRING = 6  # shorter strings ("ok", "en", "true") match by chance
MIN_INTEGER = 1000  # |n| below it: counts, limits, flags, not identifiers
MAX_STRING = 10_000  # longer strings (file contents) are not hashed
MAX_VALUES_PER_CALL = 500  # values taken from one result or one call's arguments
MAX_DEPTH = 20  # nesting walked into a result
MAX_VALUES_PER_SESSION = 2000  # value hashes a session remembers
MAX_PROVIDERS = 4  # tools a value hash remembers it came from (most recent last)
MAX_SESSIONS = 1000  # sessions remembered at once
MAX_SESSION_HASHES = 64  # session hashes an observation keeps (its distinct-session count caps here)
METHOD = "observed"

_REASON = re.compile(r"^seen \d+ times in \d+ sessions: ")


@dataclass(frozen=True)
class Flow:
    """`parameter_name` of `consumer` took a value from `provider`'s result. A tool is (catalog, name): the
    catalogs, when known (the gateway's: each server's), pick the tools among same-named ones."""

    provider: str
    consumer: str
    parameter_name: str
    provider_catalog: str | None = None
    consumer_catalog: str | None = None

    def as_dict(self) -> dict:
        return {
            "provider": self.provider,
            "consumer": self.consumer,
            "parameter_name": self.parameter_name,
            "provider_catalog": self.provider_catalog,
            "consumer_catalog": self.consumer_catalog,
        }


def leaves(value: Any, limit: int = MAX_VALUES_PER_CALL) -> Iterator[str]:
    """The non-trivial scalar values under `value` (dicts, lists, nested), as text; at most `limit`.
    A number and its decimal string are the same value (an id returned as 42017, sent back as "42017")."""
    count = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack and count < limit:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth < MAX_DEPTH:
                stack.extend((v, depth + 1) for v in reversed(list(item.values())))
            continue
        if isinstance(item, (list, tuple)):
            if depth < MAX_DEPTH:
                stack.extend((v, depth + 1) for v in reversed(item))
            continue
        text = significant(item)
        if text is not None:
            count += 1
            yield text


def significant(value: Any) -> str | None:
    """`value` as the text it is matched by, or None when it is trivial."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return str(value) if abs(value) >= MIN_INTEGER else None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) < 30:  # a numeric string: the rule of a number
            return str(int(text)) if int(text) >= MIN_INTEGER else None
        return text if MIN_STRING <= len(text) <= MAX_STRING else None
    return None  # floats (measures, scores) and anything else


def result_values(result: Any) -> list[Any]:
    """What a CallToolResult holds to match against: its structuredContent and each text content
    that parses as JSON (an object or a list; a bare JSON string is text, not a value)."""
    out: list[Any] = []
    structured = getattr(result, "structured_content", None)
    if structured is not None:
        out.append(structured)
    for item in getattr(result, "content", None) or []:
        text = getattr(item, "text", None)
        if not isinstance(text, str) or len(text) > 1_000_000 or text[:1].strip() not in ("{", "["):
            continue
        try:
            out.append(json.loads(text))
        except ValueError:
            continue
    return out


class CallObserver:
    """Per-session memory of value hashes -> the tools whose results held them. Thread-safe enough for
    the gateway's one event loop (no awaits inside); bounded in sessions and values per session."""

    def __init__(
        self,
        *,
        max_sessions: int = MAX_SESSIONS,
        max_values: int = MAX_VALUES_PER_SESSION,
        key: bytes | None = None,
    ):
        self.max_sessions = max_sessions
        self.max_values = max_values
        self._key = key or os.urandom(32)  # values are hashed with a key that never leaves the process
        self._sessions: OrderedDict[str, OrderedDict[bytes, tuple[str, ...]]] = OrderedDict()

    def digest(self, text: str) -> bytes:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), key=self._key, digest_size=16).digest()

    def observe(self, session: str, tool: str, arguments: dict, result: Any) -> list[Flow]:
        """Match the call's arguments against the session's earlier results, then remember this result's
        values. Returns the flows (provider -> this tool, per top-level parameter), without duplicates
        and without the tool itself as its own provider."""
        memory = self._sessions.get(session)
        flows: dict[Flow, None] = {}
        if memory is not None:
            self._sessions.move_to_end(session)
            budget = MAX_VALUES_PER_CALL
            for name, value in (arguments or {}).items():
                for text in leaves(value, budget):
                    budget -= 1
                    for provider in memory.get(self.digest(text), ()):
                        if provider != tool:
                            flows[Flow(provider, tool, str(name))] = None
                if budget <= 0:
                    break
        values = [text for part in result_values(result) for text in leaves(part)][:MAX_VALUES_PER_CALL]
        if values:
            memory = self._memory(session)
            for text in values:
                h = self.digest(text)
                providers = tuple(p for p in memory.pop(h, ()) if p != tool) + (tool,)
                memory[h] = providers[-MAX_PROVIDERS:]
            while len(memory) > self.max_values:
                memory.popitem(last=False)
        return list(flows)

    def _memory(self, session: str) -> OrderedDict[bytes, tuple[str, ...]]:
        memory = self._sessions.get(session)
        if memory is None:
            memory = self._sessions[session] = OrderedDict()
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
        self._sessions.move_to_end(session)
        return memory

    def size(self) -> tuple[int, int]:
        """(sessions, value hashes) held."""
        return len(self._sessions), sum(len(m) for m in self._sessions.values())


def new_session_id() -> str:
    return uuid.uuid4().hex


def session_hash(session: str) -> str:
    """What an observation keeps of a session: a hash of its (random, per-connection) id."""
    return hashlib.sha256(session.encode()).hexdigest()[:16]


def reason(count: int, sessions: int, flow: Flow) -> str:
    return (
        f"seen {count} times in {sessions} sessions: {flow.parameter_name} of {flow.consumer} "
        f"took a value from {flow.provider}'s result"
    )


def is_observed_reason(text: str | None) -> bool:
    """The reason of a promoted observed edge (search_tools says "observed in real calls" for it)."""
    return bool(text and _REASON.match(text))


def confidence(sessions: int) -> float:
    """1 - 2^-sessions: 0.875 after 3 distinct sessions, 0.97 after 5."""
    return round(1 - 0.5**sessions, 3)


def run_id(flow: Flow) -> str:
    catalogs = [flow.consumer_catalog, flow.provider_catalog] if flow.consumer_catalog or flow.provider_catalog else []
    payload = json.dumps([METHOD, flow.consumer, flow.provider, flow.parameter_name, *catalogs])
    return "obs-" + hashlib.sha256(payload.encode()).hexdigest()[:12]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def record(graph: Graph, flows: list[Flow], session: str, promote_after: int) -> list[dict]:
    """Count the flows of one call (one transaction), then promote those seen in `promote_after`
    distinct sessions. Returns the promotions made ({"run", ...})."""
    if not flows:
        return []
    rows = graph.write(
        query("observed_record"),
        flows=[f.as_dict() for f in flows],
        session=session_hash(session),
        now=_now(),
        max_sessions=MAX_SESSION_HASHES,
    )
    promoted = []
    for r in rows:
        if r["run"] is None and not r["has_edge"] and r["sessions"] >= promote_after:
            flow = Flow(r["provider"], r["consumer"], r["parameter_name"], r["provider_catalog"], r["consumer_catalog"])
            done = promote(graph, flow, promote_after)
            if done:
                promoted.append(done)
    return promoted


def promote(graph: Graph, flow: Flow, promote_after: int) -> dict | None:
    """The flow as a one-edge dependency run, with the closure refresh of its consumer, in one
    transaction under the write lock. None when it no longer qualifies (promoted meanwhile, an edge
    appeared, undone before)."""
    rid = run_id(flow)

    def work(tx) -> dict | None:
        row = tx.run(query("observed_get"), **flow.as_dict()).single()
        if row is None or row["run"] is not None or row["has_edge"] or row["sessions"] < promote_after:
            return None
        text = reason(row["count"], row["sessions"], flow)
        run = {
            "id": rid,
            "created": _now(),
            "catalog": row["catalog"] or "*",
            "method": METHOD,
            "min_confidence": 0.0,
            "proposed": 1,
            "edges": 1,
            "notes": [text],
        }
        edge = flow.as_dict() | {"reason": text, "confidence": confidence(row["sessions"])}
        tx.run(query("observed_promote"), run=run, edge=edge, now=run["created"]).consume()
        closure.refresh(tx, [flow.consumer])  # by name: every catalog's tools of that name (a superset)
        return {"run": rid, **edge}

    done = serialized(graph, work)
    if done:
        logger.info("promoted observed dependency %s: %s", done["run"], done["reason"])
    return done


def list_observed(graph: Graph) -> list[dict]:
    """Every observation, most recently seen first, with its status: shadow (counting), promoted (its
    run's edge is in the graph), undone (its run was undone: not promoted again), exists (the pair
    already has a dependency edge of another origin)."""
    out = []
    for r in graph.read(query("observed_list")):
        row = dict(r)
        if row["run"] is not None:
            row["status"] = "promoted" if row["promoted_edge"] else "undone"
        else:
            row["status"] = "exists" if row["has_edge"] else "shadow"
        out.append(row)
    return out


__all__ = [
    "CallObserver",
    "Flow",
    "is_observed_reason",
    "leaves",
    "list_observed",
    "promote",
    "record",
    "result_values",
    "significant",
]
