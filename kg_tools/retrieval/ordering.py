"""The default ordering of Graph RAG-Tool Fusion results, in Python over the expansion rows.

The expansion query (cypher/expand.cypher) returns one row per candidate seed, best search score
first, each with its dependencies in depth-first order. This module decides what the K returned
tools are:

1. **Seed rescoring** (`rerank: offline`, the default, vector mode): the first SEED_POOL candidates
   are rescored with two signals a small embedder misses, then the best k become the seeds:
     score = cosine(query, tool) + W_LEVEL * (+1 if the tool's location parameter has the
             granularity the query names -- country / city / sub-region --, -1 if another)
             + W_VALUES * (kinds of values in the query -- e-mail, date, amount ... -- that one of
             the tool's parameters takes)
             + W_NAME * (share of the tool's name words, weighted by their rarity among the
             candidates, that the query says: "Uber Eats", "DoorDash", "IP")
             + W_INTENT * (when the query asks for information -- "what does my latest message
             say?", "tell me where my order is" --: +1 for a tool whose name says it reads
             (get, search, track ...), -1 for one whose name says it acts (send, place, add ...))
             + W_DESCRIPTION * (share of the tool's description words, weighted by their rarity
             among the candidates' descriptions, that the query says)
2. **Supplied values last** (`supplied_last`, default on): a seed's dependencies reached through a
   PARAMETER_* edge whose parameter the query already supplies (kg_tools/retrieval/supplied.py),
   and what was reached only through them, go after the seed's other dependencies (still before
   the next seed). The dependency is not dropped: when the user's value is not usable as is, the
   tool is still there.
3. seed 1, its dependencies, seed 2, ... unique, cut to K.

Weights, the pool size and the word lists were chosen on the ToolLinkOS dev half and on our own
dev sets (benchmarks/data/), never on the test half or ToolSandbox's benchmark queries.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from functools import lru_cache
from itertools import chain
from typing import Protocol, Self, TypeVar

from kg_tools.retrieval import places
from kg_tools.retrieval.supplied import ValueKind, query_values, supplied_parameters
from kg_tools.tool_spec import split_name

SEED_POOL = 15  # 5, 10, 15, 20 tried on the dev sets (with W_DESCRIPTION): 15 lowers none, 20 lowers one
W_LEVEL = 0.05
W_VALUES = 0.03
W_NAME = 0.05
W_INTENT = 0.05
W_DESCRIPTION = 0.12  # 0.01-0.3 tried on the dev sets: the largest dev mean that lowers none of them
# Words too common to tell descriptions apart (fixed list, not tuned).
STOP_WORDS = frozenset(
    "a an the to of for and or in on with by from is are be it this that my me i you your as at".split()
)

_WORDS = re.compile(r"[a-z0-9]+")  # compiled here: `re`'s cache of 512 patterns is cycled by others

# Verbs in tool names that read vs act; the first one in the name decides.
READ_VERBS = frozenset("get find search track view fetch check list read monitor lookup show".split())
WRITE_VERBS = frozenset(
    "set add update schedule log buy sell delete remove book send create place manage checkout "
    "enable launch play download select modify cancel order".split()
)
# A request that asks for information: a question, or "tell me / show me / I want to know ...".
ASKS = re.compile(
    r"(?i)^\s*(what|what's|whats|which|who|who's|whom|whose|when|when's|where|where's|"
    r"how (many|much|far|long|old|is|are|does|do)|is|are|does|do|did|was|were|has|have|any)\b"
    r"|\b(tell me|show me|let me know|find out|want to know|like to know|wondering|curious|look up|status of|"
    r"check (if|whether|on|my|the|what|how))\b"
)

LEVEL_PARAMETERS = {
    "country": re.compile(r"(?i)country"),
    "city": re.compile(r"(?i)(^|_)city"),
    "sub_region": re.compile(r"(?i)sub_?region|district|county|province|neighbou?rhood"),
}


def parameters(spec: str | dict | None) -> list[tuple[str, str]]:
    """(name, description) of a tool's parameters from its stored spec (JSON text or dict)."""
    if not spec:
        return []
    if isinstance(spec, str):
        return list(_parsed(spec)[0])
    return _parameters(spec)


def parameter_tuple(spec: str | dict | None) -> tuple[tuple[str, str], ...]:
    """parameters() as the tuple the per-tool caches are keyed on (a stored spec text's: no copy)."""
    if not spec:
        return ()
    if isinstance(spec, str):
        return _parsed(spec)[0]
    return tuple(_parameters(spec))


def description_words(spec: str | dict | None) -> frozenset[str]:
    """The words of a tool's description (lower case, no stop words, at least 3 letters)."""
    if not spec:
        return frozenset()
    if isinstance(spec, str):
        return _parsed(spec)[1]
    return _description_words(spec)


@lru_cache(maxsize=8192)
def _parsed(text: str) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """parameters() and description_words() of a stored spec text, parsed once per text (the same
    tools recur across requests)."""
    try:
        spec = json.loads(text)
    except ValueError:
        return (), frozenset()
    if not isinstance(spec, dict):
        return (), frozenset()
    return tuple(_parameters(spec)), _description_words(spec)


def _description_words(spec: dict) -> frozenset[str]:
    text = str(spec.get("description") or "").lower()
    return frozenset(w for w in _WORDS.findall(text) if len(w) > 2 and w not in STOP_WORDS)


def _parameters(spec: dict) -> list[tuple[str, str]]:
    out = []
    for p in spec.get("parameters") or []:
        if isinstance(p, dict) and isinstance(p.get("name"), str):
            out.append((p["name"], str(p.get("description") or "")))
    return out


@lru_cache(maxsize=8192)
def _tool_levels(parameter_names: tuple[str, ...]) -> frozenset[str]:
    """The place levels a tool's parameter names ask for, once per tool's parameter names (the same tools recur across requests)."""
    return frozenset(level for level, rx in LEVEL_PARAMETERS.items() if any(rx.search(p) for p in parameter_names))


@lru_cache(maxsize=8192)
def _levels_of(params: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """_tool_levels of a tool's (name, description) parameters, once per tool."""
    return _tool_levels(tuple(n for n, _ in params))


@lru_cache(maxsize=8192)
def _fillable(params: tuple[tuple[str, str], ...], kinds: tuple[ValueKind, ...]) -> int:
    """How many of `kinds` one of the parameters takes (once per tool and set of kinds: both recur)."""
    return sum(1 for k in kinds if any(k.fills(n, d) for n, d in params))


class QuerySignals:
    """What the query says, computed once per request (lazily: place lookups only when needed)."""

    def __init__(self, query: str):
        self.query = query
        self.kinds = query_values(query)[0]
        self._levels: set[str] | None = None
        self.asks = bool(ASKS.search(query))

    @property
    def levels(self) -> set[str]:
        if self._levels is None:
            self._levels = places.mentioned_levels(self.query)
        return self._levels

    def bonus(self, params: tuple[tuple[str, str], ...]) -> float:
        score = 0.0
        own = _levels_of(params)
        if own and self.levels:
            score += W_LEVEL if own & self.levels else -W_LEVEL
        score += W_VALUES * (_fillable(params, self.kinds) if self.kinds else 0)
        return score

    def intent(self, tool_name: str) -> float:
        """W_INTENT if the query asks and the tool reads, -W_INTENT if it asks and the tool acts, else 0."""
        return W_INTENT * name_verb(tool_name) if self.asks else 0.0


@lru_cache(maxsize=8192)
def name_verb(name: str) -> int:
    """+1 if the first verb in the tool's name reads, -1 if it acts, 0 if it has none of either."""
    for word in split_name(name).split():
        if word in READ_VERBS:
            return 1
        if word in WRITE_VERBS:
            return -1
    return 0


def cosine(score: float) -> float:
    """Neo4j's vector score is (1 + cos) / 2."""
    return 2.0 * score - 1.0


@lru_cache(maxsize=8192)
def name_words(name: str) -> frozenset[str]:
    """snake_case / camelCase / kebab-case name -> lower-case words (once per name: tools recur)."""
    return frozenset(split_name(name).split())


def prepare(name: str, spec: str | None) -> None:
    """Fill the per-tool caches of the rescoring for one tool (its name words and verb, its spec's
    parameters, description words and place levels), so that no request pays for them the first time
    it meets the tool (Pipeline.warm_seed_cache)."""
    name_words(name)
    name_verb(name)
    if spec:
        _levels_of(parameter_tuple(spec))


def query_words(query: str) -> set[str]:
    """The query's words, their singulars and adjacent pairs joined ("uber eats" -> "ubereats")."""
    words = _WORDS.findall(query.lower().replace("'", ""))
    return set(words) | {w[:-1] for w in words if w.endswith("s")} | {a + b for a, b in zip(words, words[1:])}


def word_matches(said: set[str], words: list[set[str]] | list[frozenset[str]]) -> list[float]:
    """Per word set: the idf-weighted share of its words in `said`; idf over these sets only. Each set's
    weights are summed in the set's own order (the same floats whatever the set of `said`)."""
    df = Counter(chain.from_iterable(words))
    n = len(words) + 1
    idf = {w: math.log(n / c) for w, c in df.items()}  # once per word, summed per set in the set's order
    out = []
    for ws in words:
        total = sum(map(idf.__getitem__, ws))
        out.append(sum([idf[w] for w in ws if w in said]) / total if total else 0.0)
    return out


def rescored_note(candidates: int) -> str:
    """What the offline rescoring did, for `stages`."""
    return (
        f"top {min(candidates, SEED_POOL)} rescored "
        "(location level, supplied values, name and description words, intent)"
    )


class Row(Protocol):
    """What the rescoring reads of a row (rescored rows are copies with the new score: `with_score`)."""

    @property
    def name(self) -> str: ...
    @property
    def score(self) -> float | None: ...
    @property
    def spec(self) -> str | dict | None: ...
    def with_score(self, score: float) -> Self: ...


T = TypeVar("T", bound=Row)


def rescore(query: str, rows: list[T]) -> list[tuple[float, T]]:
    """(new score, row) for the first SEED_POOL rows, best first; ties keep search order."""
    signals = QuerySignals(query)
    head = rows[:SEED_POOL]
    said = query_words(query)
    lexical = word_matches(said, [name_words(r.name) for r in head])
    described = word_matches(said, [description_words(r.spec) for r in head])
    scored = [
        (
            cosine(r.score or 0.0)
            + signals.bonus(parameter_tuple(r.spec))
            + W_NAME * lexical[i]
            + W_DESCRIPTION * described[i]
            + signals.intent(r.name),
            i,
            r,
        )
        for i, r in enumerate(head)
    ]
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [(s, r) for s, _, r in scored]


def rescored(query: str, rows: list[T]) -> list[T]:
    """The offline seed rescoring applied: the first SEED_POOL rows in their new order with their new
    score (rounded to 6 places), the rest after."""
    head, tail = rows[:SEED_POOL], rows[SEED_POOL:]
    return [r.with_score(round(s, 6)) for s, r in rescore(query, head)] + tail


def _parameter_edge(dep: dict, seed: str) -> set[str]:
    """The parameters of `seed` through whose PARAMETER_* edge `dep` was reached directly (else empty)."""
    via = dep.get("via") or {}
    if via.get("from") != seed or not str(via.get("type", "")).startswith("PARAMETER_"):
        return set()
    return {p.strip() for p in (via.get("parameter_name") or "").split(",") if p.strip()}


def supplied_last(seed: str, spec: str | dict | None, deps: list[dict], query: str) -> list[dict]:
    """A seed's dependencies with those reached through a parameter the query supplies moved to the end."""
    edges = {d["name"]: _parameter_edge(d, seed) for d in deps}
    if not any(edges.values()):
        return deps
    given = supplied_parameters(query, parameters(spec))
    if not given:
        return deps
    late: set[str] = set()
    for d in deps:  # depth-first order: a tool's `via.from` comes before it
        if edges[d["name"]] & given or (d.get("via") or {}).get("from") in late:
            late.add(d["name"])
    return [d for d in deps if d["name"] not in late] + [d for d in deps if d["name"] in late]


def by_confidence(deps: list[dict], follow: float, sure: float) -> tuple[list[dict], list[dict]]:
    """A seed's dependencies split by how sure their edges are: (sure, doubtful). A dependency reached through
    an inferred edge below `follow` is not followed (nor what is reached through it); below `sure` it is
    doubtful (listed after the next seed, so it never pushes that seed out of K). Catalog edges are sure."""
    dropped: set[str] = set()
    doubtful: set[str] = set()
    for d in deps:  # depth-first order: a tool's `via.from` comes before it
        via = d.get("via") or {}
        c = via.get("confidence")
        confidence = float(c) if via.get("inferred") and c is not None else 1.0
        if via.get("from") in dropped or confidence < follow:
            dropped.add(d["name"])
        elif via.get("from") in doubtful or confidence < sure:
            doubtful.add(d["name"])
    kept = [d for d in deps if d["name"] not in dropped]
    return [d for d in kept if d["name"] not in doubtful], [d for d in kept if d["name"] in doubtful]
