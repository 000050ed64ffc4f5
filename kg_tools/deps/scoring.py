"""The learned scorer of producer -> consumer candidates (kg_tools/deps/producers.py makes the candidates).

Every candidate (a consumer's parameter, a producer that may provide its value) is described by features that
every spec or tool list has -- how the resource matched (output schema field, description, path template), the
producer's kind and HTTP method, whether it lists the collection the consumer's path addresses, how many steps it
needs first, how many other parameters of the catalog it would serve (a hub), whether the hand rules would keep
it, how many of the parameter's other candidates the rules score higher -- and gradient-boosted trees (log loss)
turn them into a probability, the edge's `confidence`. The weights
(`scorer.json` beside this file) are learned on the dev part of our corpus by `python -m benchmarks.train_scorer`
(benchmarks/data/deps: real OpenAPI specs and MCP servers with hand-written gold edges); nothing is downloaded.

Selection per parameter: the most probable candidates above the learned threshold, a second only when nearly
as probable; a parameter whose best candidate is below it is left without a provider (abstention, counted)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kg_tools.deps.resources import (
    ACROSS_TYPES,
    CALLER_WORDS,
    FIELD_WORDS,
    GET_VERBS,
    LIST_VERBS,
    name_words,
    one_operation,
    resource_key,
    singular,
    tool_part,
    words,
)

if TYPE_CHECKING:  # producers.py imports this module
    from kg_tools.deps.producers import Tool, Want
    from kg_tools.deps.resources import Offer

WEIGHTS_FILE = Path(__file__).with_name("scorer.json")
KINDS = ("search", "list", "get", "create", "auth", "change", "other")
INTERACTIONS = (
    "bias",
    "described",
    "kind_search",
    "kind_list",
    "kind_get",
    "hand",
    "kept_by_rules",
    "resource_in_name",
    "has_output_schema",
    "want_any_field",
    "log_candidates",
)


@dataclass
class Candidate:
    consumer: Tool
    want: Want
    producer: Tool
    offer: Offer | None  # None: matched by the path template alone
    hand: float = 0.0  # the rule score (0 when the rules had no match)
    kept_by_rules: bool = False  # the hand rules' narrowing kept it
    path_list: bool = False  # a GET of exactly the collection the consumer's path addresses
    path_create: bool = False  # a POST to that collection (returns the new instance)
    path_scoped: bool = False  # a GET of a collection of the same name under another parent
    adds_conflict: bool = False  # the consumer adds to that collection: its own list is not where the value is
    resource_in_name: bool = False  # the wanted resource's words are in the producer's name or path
    lookup: bool = False  # the producer itself needs an instance of the wanted resource
    scope: int = 0  # path_scoped inside a container's instance (2: /workspaces/{}/projects) or what it holds (1)
    qualifier_share: float = (
        -1.0
    )  # of the wanted resource's qualifier words (`login` flow), the producer's share; -1: none
    made: bool = False  # a create whose output offers the id of the very instance it makes (producers.offers_new)
    other_head: bool = False  # the name holds the resource, its head noun is another (producers.named_for_another)
    note: str = ""
    features: list[float] = field(default_factory=list)
    probability: float = 0.0


# features relative to the parameter's other candidates (`add_relative`; size-free, unlike `hub` and
# `log_candidates`: docs/dependencies.md, eighth session)
RELATIVE = ("hand_rank",)  # how many candidates of the parameter have a higher rule score (at most 3)

FEATURES = (
    "bias_schema_exact",
    "schema_other_field",
    "described",
    "nested",
    "foreign_key",
    "path_list",
    "path_create",
    "path_scoped",
    "adds_conflict",
    *(f"kind_{k}" for k in KINDS),
    "steps",
    "deprecated",
    "own_list",
    "want_in_path",
    "want_any_field",
    "want_rare",
    # log_candidates and hub depend on the catalog's size (docs/dependencies.md, seventh session): kept for the
    # shipped file; `train_scorer --drop hub log_candidates` fits trees that never split on them
    "log_candidates",
    "best_by_rules",
    "share_of_best",
    "kept_by_rules",
    "hand",
    "hub",
    "resource_in_name",
    "lookup",
    "has_output_schema",
    "container_scope",
    "want_nested",
    "qualifier_share",
    # the same evidence weighs differently in a tool list without HTTP operations (MCP, OpenAI tools)
    *(f"no_http_{name}" for name in INTERACTIONS),
    *RELATIVE,
)


def feature_vector(c: Candidate, *, candidates: int, best_hand: float, hub_share: float, own: bool) -> list[float]:
    o = c.offer
    exact = bool(o and o.source == "schema" and o.field == c.want.field and o.field != "*")
    p = c.producer
    steps = sum(1 for w in p.wants if w.required and w.parameter not in {x.parameter for x in c.consumer.wants})
    x = [
        float(exact),
        float(bool(o and o.source == "schema" and not exact)),
        float(bool(o and o.source == "description")),
        float(bool(o and not o.primary)),
        float(bool(o and o.reference)),
        float(c.path_list),
        float(c.path_create),
        float(c.path_scoped),
        float(c.adds_conflict),
        *(float(p.kind == k) for k in KINDS),
        float(min(steps, 3)),
        float(p.deprecated and not c.consumer.deprecated),
        float(own),
        float(c.want.in_path),
        float(c.want.field == "*"),
        float(c.want.rare),
        math.log1p(candidates),
        float(c.hand > 0 and c.hand >= best_hand),
        c.hand / best_hand if best_hand > 0 else 0.0,
        float(c.kept_by_rules),
        c.hand,
        hub_share,
        float(c.resource_in_name),
        float(c.lookup),
        float(p.output_schema is not None),
        float(c.scope),
        float(c.want.nested),
        c.qualifier_share,
    ]
    named = dict(zip(FEATURES, x))
    named["bias"] = 1.0
    no_http = float(not (c.consumer.http or {}).get("path"))
    return x + [no_http * named[name] for name in INTERACTIONS]


def add_relative(group: list[Candidate]) -> None:
    """Append the RELATIVE features to every candidate of one parameter (their other features already set)."""
    hand = FEATURES.index("hand")
    hands = [c.features[hand] for c in group]
    for c, h in zip(group, hands):
        c.features.append(float(min(sum(other > h for other in hands), 3)))


@dataclass(frozen=True)
class Scorer:
    trees: tuple[
        tuple[tuple[int, float, int, int, float], ...], ...
    ]  # per tree: (feature, threshold, left, right, value)
    intercept: float  # the prior's log-odds
    rate: float  # the learning rate (each tree's share)
    threshold: float  # the least probability that becomes an edge
    second: float  # a further candidate of a parameter needs this share of the best one's probability
    per_parameter: int  # at most this many providers per parameter
    hub_share: float  # a producer proposed for more than this share of a catalog's parameters is a hub ...
    hub_min: int  # ... when that is more than this many parameters: it keeps only its path-backed edges
    trained_on: str = ""
    root_extra: int = 0  # lists inside a container's instance (Candidate.scope 2) kept beyond per_parameter
    made: float = 0.0  # a parameter with no provider keeps its best create of the value (Candidate.made) at least this
    described_least: float = 0.0  # the least probability of a weakly described candidate (_weakly_described)
    listed: float = 0.0  # a parameter with no provider keeps its best list of the value (listed_for) at least this
    named_list: float = 0.0  # ... or its best list named for the value, however found (named_list_for), at least this

    def probability(self, x: list[float]) -> float:
        return self.probabilities([x])[0]

    def probabilities(self, rows: list[list[float]]) -> list[float]:
        """Gradient-boosted regression trees (log loss): the prior's log-odds plus each tree's leaf, squashed; all
        rows at once (numpy), the trees' leaves added in order as one row at a time would."""
        feature, threshold, left, right, value, depth = self._arrays
        out: list[float] = []
        at = np.arange(len(self.trees))
        for start in range(0, len(rows), 4096):  # bounded memory: (rows x trees) per step
            x = np.asarray(rows[start : start + 4096], dtype=float)
            node = np.zeros((len(x), len(self.trees)), dtype=np.int64)
            for _ in range(depth):  # an inner node: go left when the feature is at most the threshold
                f = feature[at, node]
                seen = np.take_along_axis(x, np.maximum(f, 0), axis=1)
                step = np.where(seen <= threshold[at, node], left[at, node], right[at, node])
                node = np.where(f >= 0, step, node)
            leaves = value[at, node]
            z = np.full(len(x), self.intercept)
            for column in range(len(self.trees)):
                z += self.rate * leaves[:, column]
            out.extend(1.0 / (1.0 + math.exp(-v)) for v in np.clip(z, -40.0, 40.0).tolist())  # math.exp: as one row
        return out

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """The trees as (trees x nodes) arrays (feature -1 at a leaf, padding leaves), and the deepest path."""
        width = max((len(tree) for tree in self.trees), default=1)
        shape = (len(self.trees), width)
        feature, left, right = (np.full(shape, -1, dtype=np.int64) for _ in range(3))
        threshold, value = np.zeros(shape), np.zeros(shape)
        for i, tree in enumerate(self.trees):
            for j, (f, th, a, b, v) in enumerate(tree):
                inner = a >= 0
                feature[i, j], threshold[i, j], left[i, j], right[i, j], value[i, j] = (
                    (f, th, a, b, v) if inner else (-1, 0.0, -1, -1, v)
                )
        return feature, threshold, left, right, value, max((_depth(tree, 0) for tree in self.trees), default=0)

    @classmethod
    def from_dict(cls, data: dict) -> Scorer:
        names = list(data["features"])
        unknown = [name for name in names if name not in FEATURES]
        if unknown:
            raise ValueError(f"{WEIGHTS_FILE.name}: features {unknown} are not this code's {list(FEATURES)}")
        # trees fitted before a feature was added split only on the features they name: by name, not position
        at = [FEATURES.index(name) for name in names]

        def column(f: float) -> int:
            return at[int(f)] if int(f) >= 0 else int(f)  # a leaf's feature is negative

        return cls(
            tuple(
                tuple((column(n[0]), float(n[1]), int(n[2]), int(n[3]), float(n[4])) for n in t) for t in data["trees"]
            ),
            float(data["intercept"]),
            float(data["rate"]),
            float(data["threshold"]),
            float(data["second"]),
            int(data["per_parameter"]),
            float(data["hub_share"]),
            int(data["hub_min"]),
            str(data.get("trained_on") or ""),
            int(data.get("root_extra") or 0),
            float(data.get("made") or 0.0),
            float(data.get("described_least") or 0.0),
            float(data.get("listed") or 0.0),
            float(data.get("named_list") or 0.0),
        )

    def as_dict(self) -> dict:
        return {
            "features": list(FEATURES),
            "intercept": round(self.intercept, 6),
            "rate": self.rate,
            "threshold": self.threshold,
            "second": self.second,
            "per_parameter": self.per_parameter,
            "hub_share": self.hub_share,
            "hub_min": self.hub_min,
            "root_extra": self.root_extra,
            "made": self.made,
            "described_least": self.described_least,
            "listed": self.listed,
            "named_list": self.named_list,
            "trained_on": self.trained_on,
            "trees": [[[f, round(t, 6), a, b, round(v, 6)] for f, t, a, b, v in tree] for tree in self.trees],
        }


def set_probabilities(groups: list[list[Candidate]], scorer: Scorer) -> None:
    """Every candidate's probability, all of them in one pass of the trees."""
    candidates = [c for group in groups for c in group]
    for c, p in zip(candidates, scorer.probabilities([c.features for c in candidates])):
        c.probability = 0.0 if c.other_head else p  # never accepted, but it stays in its group


def _depth(tree: tuple[tuple[int, float, int, int, float], ...], node: int) -> int:
    """Inner nodes on the longest path from `node` down."""
    _, _, left, right, _ = tree[node]
    return 0 if left < 0 else 1 + max(_depth(tree, left), _depth(tree, right))


@cache
def default_scorer() -> Scorer:
    return Scorer.from_dict(json.loads(WEIGHTS_FILE.read_text(encoding="utf-8")))


def _providers(ranked: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """A parameter's providers, of its candidates best first (the best one above the threshold)."""
    least = max(scorer.threshold, ranked[0].probability * scorer.second)
    kept = without_qualified_twins([c for c in ranked[: scorer.per_parameter] if c.probability >= least])
    # a list inside a container's instance (the workspace's projects) is the one a request walks through (above the
    # threshold, whatever the best one's share: a lower hub share puts the team's list before it)
    inside = [c for c in ranked[scorer.per_parameter :] if c.scope == 2 and c.probability >= scorer.threshold]
    inside = inside[: scorer.root_extra]
    across = [c for c in _across_beyond_cap(ranked[scorer.per_parameter :], least) if all(c is not i for i in inside)]
    chosen = kept + inside + across[:1]
    return without_head_only(without_sibling_qualifiers(chosen + _listing_beyond_share(ranked, chosen, scorer)[:1]))


def _named_only(c: Candidate) -> bool:
    """Found by the producer's name alone: no offer, no path template."""
    return c.offer is None and not (c.path_list or c.path_create or c.path_scoped)


def without_qualified_twins(kept: list[Candidate]) -> list[Candidate]:
    """The kept candidates less a reader found by its name alone that ties with another such reader whose name is
    its own less some words (`show_dns_domains` beside `show_domains`, `findAssignableUsers` beside `findUsers`):
    nothing but the name tells the two apart, the trees see the same features, and the extra words name a subset,
    a scope or another thing (DNS domains, assignable users, a subscription's charges), so the reader of the bare
    resource is the provider (twenty-first session, "qualified siblings and field words")."""
    named = [c for c in kept if _named_only(c)]
    said = {id(c): name_words(c.producer.name) for c in named}
    twins = {id(c) for c in named if any(o.probability == c.probability and said[id(o)] < said[id(c)] for o in named)}
    return [c for c in kept if id(c) not in twins]  # by identity: candidates compare by value, tools and all


# words that qualify no reader's resource: prepositions and version segments (`api/v1`)
LINK_WORDS = frozenset({"a", "an", "and", "api", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"})


def _canonical(word: str) -> str:
    return resource_key([word]) or singular(word)


def _said(tool: Tool) -> set[str]:
    """The words a tool's name and path literals say, canonical (`repos` -> repository)."""
    path = (tool.http or {}).get("path") or ""
    said = words(tool_part(tool.name)) + [w for s in path.split("/") if s and "{" not in s for w in words(s)]
    return {_canonical(w) for w in said if not w.isdigit() and not re.fullmatch(r"v\d+", w)} - LINK_WORDS


def _own(tool: Tool) -> set[str]:
    """The words of the resource a tool acts on: its path's last literal segment (`environmentVariable`), else its
    name's last word (`open_nodes`); no scope of another resource (`environment` of an application's variable)."""
    literal = [s for s in ((tool.http or {}).get("path") or "").split("/") if s and "{" not in s]
    return {_canonical(w) for w in (words(literal[-1]) if literal else words(tool_part(tool.name))[-1:])}


def _qualifier_words(c: Candidate) -> set[str]:
    """What the producer's name and path say beside a reader's verbs, the wanted resource, its fields and the
    caller (`project` of `listProjectEnvironments` for an environment)."""
    wanted = {_canonical(w) for resource in c.want.resources[:1] for w in words(resource)}
    return _said(c.producer) - READING_WORDS - SINGULAR_READING - wanted - FIELD_WORDS - CALLER_WORDS


def without_sibling_qualifiers(kept: list[Candidate]) -> list[Candidate]:
    """The kept candidates less a producer whose qualifier of the wanted resource is one the consumer does not say,
    when another kept producer's qualifier is all the consumer's and holds a word the first lacks: one head noun under
    sibling scopes (`listOrganizationEnvironments` beside `listProjectEnvironments` for `getProjectEnvironment`;
    `getUserRoles` beside `getAllTeamRoles` for a team's role). The consumer names its scope (its words less those of
    the resource it acts on, `_own`); the sibling scope's instances are others. Only removes, never the last (the
    one whose qualifier matches stays; twenty-second session, "one noun under sibling qualifiers")."""
    if len(kept) < 2:
        return kept
    c0 = kept[0]
    consumer = _said(c0.consumer) - _own(c0.consumer) | {_canonical(w) for w in words(c0.want.parameter)}
    quals = {id(c): _qualifier_words(c) for c in kept}
    matching = [c for c in kept if quals[id(c)] and quals[id(c)] <= consumer]
    siblings = {id(c) for c in kept if quals[id(c)] - consumer and any(quals[id(m)] - quals[id(c)] for m in matching)}
    return [c for c in kept if id(c) not in siblings]


def _compound_text(c: Candidate, head: str) -> str:
    """Where the consumer names the wanted resource in full: the path segment before the parameter's `{name}`, else
    the parameter's name, or for a bare field (`id`, `ids`) the path's last literal ending in the head
    (`/recurring_invoices/bulk`)."""
    segments = [s for s in ((c.consumer.http or {}).get("path") or "").split("/") if s]
    name = c.want.parameter.split(".")[-1].replace("[]", "")
    if f"{{{name}}}" in segments:
        before = [s for s in segments[: segments.index(f"{{{name}}}")] if "{" not in s]
        return before[-1] if before else ""
    if not all(_canonical(w) in FIELD_WORDS for w in words(name)):
        return name
    literals = [s for s in segments if "{" not in s and words(s) and _canonical(words(s)[-1]) == head]
    return literals[-1] if literals else ""


def _compound_qualifier(c: Candidate) -> tuple[set[str], str] | None:
    """The qualifier words and head of a wanted resource the consumer names as a compound whose head alone is the
    want's resource (`recurring_invoices/{id}`: recurring, invoice), else None."""
    resource = words(c.want.resources[0]) if c.want.resources else []
    if not resource:
        return None
    head = _canonical(resource[-1])
    said = [w for w in (_canonical(w) for w in words(_compound_text(c, head))) if w not in FIELD_WORDS]
    qualifier = set(said[:-1]) - LINK_WORDS - READING_WORDS - {head}
    return (qualifier, head) if len(said) >= 2 and said[-1] == head and qualifier else None


def without_head_only(kept: list[Candidate]) -> list[Candidate]:
    """The kept candidates less a producer that names only the head of a compound wanted resource when another kept
    producer names it all: `getInvoices` beside `getRecurringInvoices` for `PUT /recurring_invoices/{id}`, whose
    resource key is the head alone (`invoice`), so neither producer has a qualifier left for
    `without_sibling_qualifiers`. Only removes, never the last (twenty-third session, "a compound want and its
    head's list")."""
    found = _compound_qualifier(kept[0]) if len(kept) >= 2 else None
    if found is None:
        return kept
    qualifier, head = found
    said = {id(c): _said(c.producer) for c in kept}
    if not any(qualifier <= said[id(c)] and head in said[id(c)] for c in kept):
        return kept
    return [c for c in kept if not (head in said[id(c)] and not qualifier & said[id(c)])]


def _listing_beyond_share(ranked: list[Candidate], kept: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """A reader whose output lists nothing but the wanted resource's identifiers (`getExperimentNames`:
    `{experiments: [{id, name}]}`; Offer.listed) is kept above the threshold whatever the best one's share or the
    cap: the full listing scores higher, and the short one is another way to the same value (eighteenth session).
    Only one named after the resource (a list of profiles is no list of users), and not for a call that adds to the
    collection listed."""
    return [
        c
        for c in ranked
        if all(c is not k for k in kept)
        and c.offer is not None
        and c.offer.listed
        and c.offer.resource in c.want.resources[:1]
        and c.resource_in_name
        and not c.adds_conflict
        and c.probability >= scorer.threshold
    ]


def _across_beyond_cap(rest: list[Candidate], least: float) -> list[Candidate]:
    """A search across several types (ACROSS_TYPES) that clears the share of the best is kept beyond the cap: the
    cap chooses among a parameter's own readers (`search_deals`, `list_deals`), which rank it after them
    (_specific_first); it is another way to the value, the one a caller looking across types takes."""
    return [c for c in rest if c.offer is not None and c.offer.path == ACROSS_TYPES and c.probability >= least]


def _nested(c: Candidate) -> bool:
    return bool(c.offer and not c.offer.primary)


def _direct_first(ranked: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """In a tool list without HTTP operations, an output schema whose items ARE the wanted resource (`items[].id` of
    a list of projects) goes before one that only holds it inside another (`nodes[].project.id` of a document
    search) once it clears the threshold: the trees, fitted mostly on specs, score such nested references high
    (tenth session, "MCP servers")."""
    if not ranked or (ranked[0].consumer.http or {}).get("path"):
        return ranked
    if not any(
        c.offer and c.offer.source == "schema" and not _nested(c) and c.probability >= scorer.threshold for c in ranked
    ):
        return ranked
    return [c for c in ranked if not _nested(c)] + [c for c in ranked if _nested(c)]


def _specific_first(ranked: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """A search across several types (an offer at ACROSS_TYPES: `item_search(item_types)`) goes right after the
    candidates that clear the threshold and name the wanted resource (`search_deals`, `list_deals`): one of its types
    among others, it is a further way to the value, and one tool serving many of a consumer's parameters would take
    the place of each parameter's own provider (one edge per pair of tools)."""
    named = [i for i, c in enumerate(ranked) if c.resource_in_name and c.probability >= scorer.threshold]
    if not named:
        return ranked
    cut = named[-1] + 1
    across = [
        c for c in ranked[:cut] if c.offer is not None and c.offer.path == ACROSS_TYPES and not c.resource_in_name
    ]
    if not across:
        return ranked
    moved = {id(c) for c in across}  # by identity: candidates compare by value, tools and all
    return [c for c in ranked[:cut] if id(c) not in moved] + across + ranked[cut:]


READING_WORDS = LIST_VERBS | GET_VERBS | {"all"}  # a reader's verbs: no qualifier of what it reads
SINGULAR_READING = frozenset(singular(w) for w in READING_WORDS)


def _qualifiers(c: Candidate) -> int:
    """Words of the producer's name other than a reader's verb and the wanted resource's words: `embeddable` in
    `list_embeddable_dashboards`, `port security` in `port_security_list` for a device."""
    wanted = {singular(w) for resource in c.want.resources[:1] for w in words(resource)}
    return sum(1 for w in words(c.producer.name) if w not in READING_WORDS and singular(w) not in wanted)


def _tie_key(c: Candidate) -> tuple[float, int, int, str]:
    """Most probable first; of equally probable ones (the trees see the same features), the producer that needs
    fewer required parameters, then the one whose name qualifies the wanted resource less: the plain listing
    (`list_invoices`, `GetUsers`) before a qualified one (`list_recurring_invoices`, `GetPublicUsers`); the name
    last, for a deterministic order (nineteenth session, "ties between candidates")."""
    required = sum(1 for w in c.producer.wants if w.required)
    return (-c.probability, required, _qualifiers(c), c.producer.name)


def ranked(group: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """One parameter's candidates in the order the selection takes them (most probable first, _tie_key)."""
    return _specific_first(_direct_first(sorted(group, key=_tie_key), scorer), scorer)


def made_for(order: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """For a parameter no candidate serves above the threshold: its best create that returns the new instance's own
    id (`createThread` -> `id` for `deleteThread(thread_id)`), at least `scorer.made` probable. When nothing lists or
    gets a thing, the tool that makes it is where its id comes from; the trees rank creates low because most of the
    corpus gold leaves them out (docs/dependencies.md, eighteenth session)."""
    best = next((c for c in order if c.made), None)
    return [best] if best is not None and scorer.made and best.probability >= scorer.made else []


def listed_for(order: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """For a parameter no candidate serves above the threshold: its best candidate when that is a list named for the
    wanted resource that says it returns it (`list_documents` "Lists documents ..." for `doc_id`, no output schema),
    at least `scorer.listed` probable; for a top-level parameter spelled as an id (`doc_id`, `userid`, not `id` or
    `from`) and when no other candidate holds the value inside something else (a server's info with its channels:
    then the list may be a subset). The trees rank such offers low, as most of them are a second provider beside a
    schema's, but alone they are the parameter's provider (twenty-third session, "recall at held precision")."""
    best = order[0] if order else None
    if best is None or not scorer.listed or best.probability < scorer.listed or best.offer is None:
        return []
    described = best.offer.source == "description" and best.offer.primary
    named = best.producer.kind == "list" and best.resource_in_name
    return [best] if described and named and _spelled_as_id(best.want) and not _held_inside(order[1:]) else []


def named_list_for(order: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """For a parameter no candidate serves above the threshold (nor listed_for, nor made_for): its best candidate
    when that is a list named for the wanted resource (`ReadAuthorizationModels` for `authorization_model_id`,
    `GetItems` for `itemId`), however found (output schema, description, name), for the resource's `id` / `key`, the
    parameter top-level, at least `scorer.named_list` probable. Of the candidates just below the threshold the trees
    cannot tell right from wrong (one in five is right); this shape, the best of its parameter with nothing kept, is
    right five times in six on the dev halves (twenty-fourth session, "the band below the threshold")."""
    best = order[0] if order else None
    if best is None or not scorer.named_list or best.probability < scorer.named_list:
        return []
    named = best.producer.kind == "list" and best.resource_in_name
    twin = one_operation(best.producer.name, best.consumer.name)  # `userList` for `user_list`: found by name alone
    return [best] if named and not twin and best.want.field in CARRIED_FIELDS and not best.want.nested else []


def _spelled_as_id(want: Want) -> bool:
    """A top-level parameter named as an instance's id (`doc_id`, `userid`), not a bare `id` or another word."""
    name = want.parameter.lower()
    return want.field in CARRIED_FIELDS and not want.nested and name.endswith(ID_ENDINGS) and name not in ID_ENDINGS


def _held_inside(others: list[Candidate]) -> bool:
    """Another candidate offers the value nested in another resource (not what that tool is about)."""
    return any(c.offer is not None and not c.offer.primary for c in others)


# the endings of a parameter spelled as an id (listed_for)
ID_ENDINGS = ("id", "ids", "key", "keys", "uuid")


# the fields every instance of a resource carries: a tool that returns the resource returns them
CARRIED_FIELDS = ("id", "key")


def _weakly_described(c: Candidate, scorer: Scorer) -> bool:
    """Found only by what a tool's name or description says it returns, for a want of any field but the resource's
    `id` or `key` (a name, path, url, number, slug, email ... or the resource itself): the description names the
    resource, not that field, so such a candidate needs `scorer.described_least` (nineteenth session,
    "description-found edges on unseen servers"; chosen on every non-id field, numbers and slugs included)."""
    return (
        c.offer is not None
        and c.offer.source == "description"
        and c.want.field not in CARRIED_FIELDS
        and c.probability < scorer.described_least
    )


def _kept_below(order: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """What a parameter no candidate serves above the threshold keeps: a described list of it, else a create of it,
    else a list named for it (listed_for, made_for, named_list_for), else nothing."""
    return (
        listed_for(order, scorer)
        or made_for(order, scorer)
        or named_list_for(order, scorer)
        or nested_only_for(order, scorer)
    )


# nested_only_for: a path parameter with at most NESTED_FEW candidates keeps those at least NESTED_FLOOR probable
NESTED_FEW = 3
NESTED_FLOOR = 0.02


def nested_only_for(order: list[Candidate], scorer: Scorer) -> list[Candidate]:
    """For a path parameter no other rule serves (the resource the operation addresses) with at most NESTED_FEW
    candidates: those that carry the value as an object nested in another resource's output under the resource's own
    name or title (`roles[].permissions[].id` for `permission_id`, `seasons[].id` for `seasonId`), not as a
    `<resource>_id` reference field, at least NESTED_FLOOR probable. Such an id has no list of its own; the gold takes
    the outputs that hold it. Of the nested-offer candidates below the threshold one in seven is right; this shape
    adds 6 right pairs and 1 wrong on the dev halves, 8 right on the test halves (twenty-seventh session, "foreign
    keys nested in other resources' lists")."""
    if not order or len(order) > NESTED_FEW or not order[0].want.in_path:
        return []
    kept = [
        c
        for c in order
        if c.offer is not None and not c.offer.primary and not c.offer.reference and c.probability >= NESTED_FLOOR
    ]
    return kept[: scorer.per_parameter]


def select(groups: list[list[Candidate]], scorer: Scorer) -> tuple[list[Candidate], dict[str, int]]:
    """The accepted candidates of every parameter (each group: one parameter's candidates, probabilities set),
    and how many parameters were left without a provider, by reason."""
    abstained = {"no_candidate": 0, "below_threshold": 0, "hub": 0}
    chosen: list[list[Candidate]] = []
    for group in groups:
        every = ranked(group, scorer)
        order = [c for c in every if not _weakly_described(c, scorer)]
        if not order or order[0].probability < scorer.threshold:
            if made := _kept_below(order, scorer):
                chosen.append(made)
                continue
            abstained["below_threshold" if every else "no_candidate"] += 1
            continue
        chosen.append(_providers(order, scorer))
    # hubs: a producer chosen for a large share of the catalog's parameters keeps only its path-backed edges
    served: dict[str, int] = {}
    for kept in chosen:
        for c in kept:
            served[c.producer.name] = served.get(c.producer.name, 0) + 1
    limit = max(scorer.hub_min, scorer.hub_share * len(groups))
    hubs = {name for name, n in served.items() if n > limit}
    out = []
    for kept in chosen:
        left = [c for c in kept if c.producer.name not in hubs or c.path_list or c.path_create or c.path_scoped]
        if not left:
            abstained["hub"] += 1
        out += left
    return out, abstained
