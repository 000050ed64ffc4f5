"""Offline dependency inference: which tools does a tool depend on, and through which parameter?

For every (source, candidate provider) pair of a catalog we compute a few cues:

- `knn`: patterns learned from labelled edges. The source's nearest labelled tools of the same kind
  (core/regular, by embedding) vote for their own dependency targets, weighted by similarity^3. A
  regular target is translated to the source's name prefix (`delta_view_flight_status ->
  delta_user_login` votes `united_user_login` for `united_view_flight_status`, when that tool exists);
- `prior`: how often labelled tools of the source's kind depend on the candidate;
- `similarity`: cosine of the two tool documents;
- `parameter_similarity`, `name_overlap`, `phrase`: the source's best parameter against the candidate:
  embedding of "parameter words: description" against the candidate's document, share of the
  parameter's name words in the candidate's name, the parameter's words as a phrase in the candidate's
  description ("returns a session token" serves `session_token`);
- `serves`: the candidate is named `<verb> [current|system|user] <parameter>` (`get_country_code`
  serves `country_code`, `get_system_timezone` serves `timezone`);
- `getter_setter`: `set_X` and `get_X` (each needs the other's state: TOOL_INDIRECTLY);
- `core_target`: the candidate is a core utility;
- `consumer`: the candidate takes the matched parameter itself (a consumer of the value, not its
  provider: `share_location_via_email` does not serve `location`);
- `provider_name`: the candidate's name starts with a providing verb (get, fetch, search, login ...);
- `status_gate`: the candidate reads the status of a service the source names
  (`get_location_service_status` for `get_current_location`): the service must be on.

With labelled edges (`Examples`), a gradient-boosted classifier fitted on the labelled sources' pairs
gives each pair its confidence (method `offline-learned`); a source without labelled neighbours of
its kind is scored by fixed rules over the name and parameter cues (method `offline-rules`). The edge
type is the one the voting neighbours used most for that target (else PARAMETER_DIRECTLY when a
parameter is served, TOOL_INDIRECTLY for a getter/setter pair, else TOOL_DIRECTLY); the listing order
(`ord`, which sets depth-first expansion order) follows the position the labelled catalog gives that
target (learned), then confidence.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from kg_tools.deps.docstrings import described_parameters
from kg_tools.loaders.json_schema import well_formed
from kg_tools.tool_spec import DependencyType, ToolSpec, split_name, tool_document

STOP_WORDS = {"get", "set", "the", "a", "an", "of", "to", "for", "and", "by", "in", "on", "id", "user", "status"}
VERBS = {
    "get",
    "fetch",
    "retrieve",
    "find",
    "search",
    "list",
    "lookup",
    "read",
    "check",
    "validate",
    "generate",
    "login",
    "create",
}
MODIFIERS = {"current", "system", "user", "my", "default", "device"}
NEIGHBOURS = 10
VOTE_POWER = 3.0
FEATURES = (
    "knn",
    "prior",
    "similarity",
    "parameter_similarity",
    "name_overlap",
    "phrase",
    "serves",
    "getter_setter",
    "core_target",
    "consumer",
    "provider_name",
    "status_gate",
)
DEFAULT_POSITION = 0.5


@dataclass
class ToolInfo:
    """What inference knows about one tool."""

    name: str
    kind: str  # core | regular
    description: str
    parameters: list[dict]
    spec: ToolSpec
    position: int | None = None  # its place in the catalog as loaded (a stored catalog is read by name)

    @classmethod
    def from_raw(cls, raw: dict) -> ToolInfo:
        """The tool of a catalog entry; its schemas without malformed keywords (what inference can read)."""
        schemas = {k: well_formed(raw[k]) for k in ("input_schema", "output_schema") if isinstance(raw.get(k), dict)}
        spec = ToolSpec.model_validate(raw | schemas)
        # a parameter described only in the docstring's "Args:" block: its line there (kg_tools/deps/docstrings.py)
        parameters = described_parameters(spec.description, [p.model_dump() for p in spec.parameters])
        return cls(spec.name, spec.func_type, spec.description, parameters, spec)

    @property
    def document(self) -> str:
        return tool_document(self.spec, max_words=None)  # inference reads every parameter description


@dataclass(frozen=True)
class LabelledEdge:
    source: str
    target: str
    type: str
    parameter_name: str | None = None


@dataclass
class ProposedEdge:
    source: str
    target: str
    type: str
    confidence: float
    method: str
    reason: str
    parameter_name: str | None = None
    ord: int = 0  # its place in its source's listing order
    rank: int = 0  # kg_tools/deps/producers.py: 0 = the best producer of its parameter

    def as_dict(self) -> dict:
        return {
            "source": self.source,
            "target": self.target,
            "type": self.type,
            "parameter_name": self.parameter_name,
            "confidence": round(self.confidence, 4),
            "method": self.method,
            "reason": self.reason,
            "ord": self.ord,
        }


@dataclass
class Examples:
    """Labelled edges to learn from (e.g. the dev half of ToolLinkOS, or hand-written edges in the graph)."""

    edges: list[LabelledEdge]
    sources: set[str] = field(default_factory=set)  # labelled tools (also those labelled with no edge)

    def __post_init__(self):
        self.sources |= {e.source for e in self.edges}


def words(name: str) -> list[str]:
    return split_name(name).split()


def parameter_words(name: str) -> list[str]:
    """A parameter's words; the `X-` of an HTTP header is dropped (X-Session-Token -> session token)."""
    w = words(name)
    return w[1:] if len(w) > 1 and w[0] == "x" else w


def parameter_text(p: dict) -> str:
    return f"{split_name(p['name'])}: {p.get('description') or ''}".strip()


def stems(ws) -> frozenset[str]:
    """Words without a plural s ('products' -> 'product')."""
    return frozenset(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in ws)


def served_object(name: str) -> frozenset[str] | None:
    """`get_system_timezone` -> {timezone}; None when the name does not start with a provider verb."""
    w = words(name)
    if len(w) < 2 or w[0] not in VERBS:
        return None
    rest = [x for x in w[1:] if x not in MODIFIERS]
    return stems(rest) if rest else None


def status_gate(name: str) -> frozenset[str] | None:
    """`get_location_service_status` -> {location}: the service whose status the tool reads."""
    w = words(name)
    if len(w) < 3 or w[0] != "get" or w[-1] != "status":
        return None
    rest = frozenset(w[1:-1]) - {"service", "mode", "services"} - MODIFIERS
    return rest or None


def getter_setter(a: str, b: str) -> bool:
    x, y = a.split("_", 1), b.split("_", 1)
    return len(x) == 2 and len(y) == 2 and x[1] == y[1] and {x[0], y[0]} == {"get", "set"}


def translate_target(neighbour: str, target: str, source: str, names: set[str], kinds: dict[str, str]) -> str | None:
    """A neighbour's target, seen from the source: core targets as they are; a regular target that
    shares a name prefix with the neighbour gets the source's prefix instead (None if no such tool)."""
    if kinds.get(target) == "core":
        return target
    a, b = target.split("_"), neighbour.split("_")
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    if common == 0:
        return target if target in names else None
    mapped = "_".join(source.split("_")[:common] + a[common:])
    return mapped if mapped in names else None


class Cues:
    """Embeddings and per-pair cue vectors for one catalog."""

    def __init__(self, tools: list[ToolInfo], embedder, examples: Examples | None):
        self.tools = tools
        self.by_name = {t.name: t for t in tools}
        self.index = {t.name: i for i, t in enumerate(tools)}
        self.kinds = {t.name: t.kind for t in tools}
        self.names = set(self.by_name)
        self._embed(embedder)
        self.descriptions = {t.name: _padded_words(t.description) for t in tools}
        self.served = {t.name: served_object(t.name) for t in tools}
        self.target_words = {t.name: set(words(t.name)) - STOP_WORDS for t in tools}
        self.takes = {t.name: {stems(parameter_words(p["name"])) for p in t.parameters} for t in tools}
        self.gates = {t.name: status_gate(t.name) for t in tools}
        self._learn(examples or Examples([]))

    def _embed(self, embedder) -> None:
        """The tool documents' and every parameter text's embeddings, and the documents' similarities."""
        self.docs = np.asarray(embedder.embed([t.document for t in self.tools]), dtype=np.float32)
        texts = sorted({parameter_text(p) for t in self.tools for p in t.parameters})
        vectors = np.asarray(embedder.embed(texts), dtype=np.float32) if texts else np.zeros((0, self.docs.shape[1]))
        self.param_vec = dict(zip(texts, vectors))
        self.similarity = self.docs @ self.docs.T

    def _learn(self, examples: Examples) -> None:
        """What the labelled edges say: each source's edges, the labelled tools of each kind, how often each
        target is depended on per kind, and the listing positions."""
        self.examples = examples
        self.out: dict[str, list[LabelledEdge]] = defaultdict(list)
        for e in self.examples.edges:
            self.out[e.source].append(e)
        self.labelled = {
            k: [s for s in sorted(self.examples.sources) if self.kinds.get(s) == k] for k in ("core", "regular")
        }
        self.prior = {k: Counter(e.target for s in self.labelled[k] for e in self.out[s]) for k in self.labelled}
        self.position = learned_positions(self.examples, self.kinds)

    def has_neighbours(self, source: str) -> bool:
        return any(s != source for s in self.labelled[self.kinds[source]])

    def votes(self, source: str) -> tuple[dict[str, float], dict[str, Counter], dict[str, Counter]]:
        """knn votes per target, the edge types and parameter names the voters used."""
        pool = [s for s in self.labelled[self.kinds[source]] if s != source and s in self.index]
        if not pool:
            return {}, {}, {}
        i = self.index[source]
        sims = np.array([self.similarity[i, self.index[n]] for n in pool])
        top = np.argsort(-sims, kind="stable")[:NEIGHBOURS]
        votes: Counter = Counter()
        types: dict[str, Counter] = defaultdict(Counter)
        params: dict[str, Counter] = defaultdict(Counter)
        total = 0.0
        for j in top:
            weight = max(float(sims[j]), 0.0) ** VOTE_POWER
            total += weight
            for e in self.out[pool[j]]:
                target = translate_target(pool[j], e.target, source, self.names, self.kinds)
                if target and target != source:
                    votes[target] += weight
                    types[target][e.type] += weight
                    if e.parameter_name:
                        params[target][e.parameter_name] += weight
        return ({t: v / total for t, v in votes.items()} if total else {}), types, params

    def cue_matrix(self, source: str, knn: dict[str, float]) -> tuple[np.ndarray, list[str | None]]:
        """The cue vectors (rows in `self.tools` order, FEATURES columns) of `source` against every tool,
        and for each the source parameter that matches it best (None without parameters)."""
        s, n = self.by_name[source], len(self.tools)
        x = self._tool_cues(source, knn)
        params: list[str | None] = [None] * n
        if s.parameters:
            stack = np.stack([self._parameter_cues(p) for p in s.parameters])  # (params, tools, 5)
            best = (stack[:, :, :4].sum(axis=2) - stack[:, :, 4]).argmax(axis=0)
            x[:, 3:7] = stack[best, np.arange(n), :4]
            x[:, 9] = stack[best, np.arange(n), 4]
            params = [s.parameters[b]["name"] for b in best]
        return x, params

    def _tool_cues(self, source: str, knn: dict[str, float]) -> np.ndarray:
        """The cue vectors with the columns that do not depend on a parameter set."""
        kind = self.by_name[source].kind
        x = np.zeros((len(self.tools), len(FEATURES)), dtype=np.float32)
        x[:, 0] = [knn.get(t.name, 0.0) for t in self.tools]
        labelled = self.labelled[kind]
        if labelled:
            x[:, 1] = [self.prior[kind][t.name] / len(labelled) for t in self.tools]
        x[:, 2] = self.similarity[self.index[source]]
        x[:, 7] = [1.0 if getter_setter(source, t.name) else 0.0 for t in self.tools]
        x[:, 8] = [1.0 if t.kind == "core" else 0.0 for t in self.tools]
        x[:, 10] = [1.0 if words(t.name)[:1] and words(t.name)[0] in VERBS else 0.0 for t in self.tools]
        own_words = set(words(source)) - STOP_WORDS - MODIFIERS
        x[:, 11] = [1.0 if (gate := self.gates[t.name]) and gate <= own_words else 0.0 for t in self.tools]
        return x

    def _parameter_cues(self, p: dict) -> np.ndarray:
        """One parameter of the source against every tool (rows): parameter_similarity, name_overlap, phrase,
        serves and consumer."""
        pw = parameter_words(p["name"])
        content = set(pw) - STOP_WORDS
        cues = np.zeros((len(self.tools), 5), dtype=np.float32)
        cues[:, 0] = self.docs @ self.param_vec[parameter_text(p)]
        if content:
            phrase = f" {' '.join(pw)} "
            cues[:, 1] = [len(content & self.target_words[t.name]) / len(content) for t in self.tools]
            cues[:, 2] = [1.0 if phrase in self.descriptions[t.name] else 0.0 for t in self.tools]
            own = stems(pw)
            cues[:, 3] = [1.0 if self.served[t.name] in (own, own - {"id"}) else 0.0 for t in self.tools]
        own = stems(content) or stems(pw)
        cues[:, 4] = [1.0 if any(own <= taken for taken in self.takes[t.name]) else 0.0 for t in self.tools]
        return cues


def _padded_words(text: str) -> str:
    """The lower-case words of a text, space-separated and space-padded (for phrase lookups)."""
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def learned_positions(examples: Examples, kinds: dict[str, str]) -> dict[str, float]:
    """Mean relative listing position (0 = first) of each core target, and of '<regular>' targets and
    of each edge type, in the labelled lists: inferred edges are listed in that order."""
    out: dict[str, list[LabelledEdge]] = defaultdict(list)
    for e in examples.edges:
        out[e.source].append(e)
    positions: dict[str, list[float]] = defaultdict(list)
    for edges in out.values():
        for i, e in enumerate(edges):
            r = i / max(len(edges) - 1, 1)
            positions[e.target if kinds.get(e.target) == "core" else "<regular>"].append(r)
            positions[e.type].append(r)
    return {k: float(np.mean(v)) for k, v in positions.items()}


# -- confidence -------------------------------------------------------------------------------


def rule_confidence(x: list[float]) -> float:
    """No labelled neighbours: fixed rules over the name and parameter cues (0 = no dependency)."""
    f = dict(zip(FEATURES, x))
    if f["getter_setter"]:
        return 0.9
    if f["status_gate"]:
        return 0.7
    if f["consumer"] or not f["provider_name"]:
        return 0.0
    if f["serves"]:
        return 0.85
    if f["phrase"] and f["parameter_similarity"] >= 0.35:
        return min(0.8, 0.5 + f["parameter_similarity"] / 2)
    if f["name_overlap"] >= 1.0 and f["parameter_similarity"] >= 0.45:
        return min(0.75, 0.3 + f["parameter_similarity"] / 2)
    return 0.0


def _one_thread():
    """OpenMP limited to one thread for the boosted trees. The fits are small (a catalog's candidate
    pairs): more threads only spin against each other and against whatever else runs. Measured on the
    shared 2-core machine (load ~5), `deps infer` over a 9-tool catalog: 0.14-0.27 s with one thread,
    1.4-27 s with the default (one per core), long enough for an API client to time out."""
    from threadpoolctl import threadpool_limits  # noqa: PLC0415 - with scikit-learn, only when a model is fitted

    return threadpool_limits(limits=1, user_api="openmp")


class LearnedModel:
    """Gradient-boosted trees over the cue vectors of the labelled sources' candidate pairs."""

    def __init__(self, rows: np.ndarray, labels: list[bool]):
        from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: PLC0415 - ~1 s to import: only when a model is fitted

        # Leaves of at least 20 pairs (sklearn's default) on a real catalog; fewer on a small one, so
        # a handful of labelled edges can still be learned.
        positives = int(np.sum(labels))
        self.model = HistGradientBoostingClassifier(
            max_iter=200,
            learning_rate=0.05,
            max_leaf_nodes=15,
            min_samples_leaf=max(2, min(20, positives // 5)),
            random_state=0,
        )
        with _one_thread():
            self.model.fit(np.asarray(rows), np.asarray(labels))

    def confidence(self, rows: np.ndarray) -> np.ndarray:
        if not len(rows):
            return np.zeros(0)
        with _one_thread():
            return self.model.predict_proba(rows)[:, 1]


# -- inference --------------------------------------------------------------------------------


def edge_type(types: Counter | None, param: str | None, x: list[float]) -> DependencyType:
    f = dict(zip(FEATURES, x))
    if types:
        return DependencyType(types.most_common(1)[0][0])
    if f["getter_setter"]:
        return DependencyType.TOOL_INDIRECTLY_DEPENDS_ON
    if param and (f["serves"] or f["phrase"] or f["name_overlap"] >= 1.0):
        return DependencyType.PARAMETER_DIRECTLY_DEPENDS_ON
    return DependencyType.TOOL_DIRECTLY_DEPENDS_ON


def reason_text(source: str, target: str, dtype: DependencyType, param: str | None, x: list[float], voters: int) -> str:
    f = dict(zip(FEATURES, x))
    if f["getter_setter"]:
        return f"{target} reads or changes the same setting as {source} (getter/setter pair)"
    if f["status_gate"] and not voters:
        return f"{source} works only while the service {target} reports is on"
    if dtype.is_parameter and param:
        if f["serves"]:
            return f"{target} provides {' '.join(parameter_words(param))}, which {source} takes as parameter {param!r}"
        return f"{target} can supply parameter {param!r} of {source} ({' '.join(parameter_words(param))})"
    if voters:
        return f"similar labelled tools depend on {target} (knn vote {f['knn']:.2f})"
    return f"{source} needs {target} first (description similarity {f['similarity']:.2f})"


def infer_offline(
    tools: list[ToolInfo],
    embedder,
    examples: Examples | None = None,
    *,
    sources: set[str] | None = None,
    min_confidence: float = 0.3,
    cues: Cues | None = None,
) -> list[ProposedEdge]:
    """Proposed edges for `sources` (default: every tool) towards any other tool of `tools`,
    confidence >= min_confidence, per source in listing order."""
    cues = cues or Cues(tools, embedder, examples)
    model = fit_model(cues)
    proposals: list[ProposedEdge] = []
    for s in tools:
        if sources is not None and s.name not in sources:
            continue
        learned = model is not None and cues.has_neighbours(s.name)
        edges = source_edges(s, tools, cues, model if learned else None, min_confidence)
        if not learned:  # rules: one provider per parameter, the most confident
            edges = one_per_parameter(edges)
        proposals += order_edges(edges, cues)
    return proposals


def source_edges(
    s: ToolInfo, tools: list[ToolInfo], cues: Cues, model: LearnedModel | None, min_confidence: float
) -> list[ProposedEdge]:
    """The edges of one source towards `tools` (the cues' tools), in their order: scored by the learned model
    when given, else by the rules."""
    knn, types, params = cues.votes(s.name)
    matrix, best_params = cues.cue_matrix(s.name, knn)
    scores = model.confidence(matrix) if model is not None else np.array([rule_confidence(list(x)) for x in matrix])
    edges = []
    for j in np.flatnonzero((scores >= min_confidence) & (scores > 0.0)):
        target, x, param, confidence = tools[j].name, list(map(float, matrix[j])), best_params[j], scores[j]
        if target == s.name:
            continue
        dtype = edge_type(types.get(target), param, x)
        if dtype.is_parameter and params.get(target):
            voted = params[target].most_common(1)[0][0]
            param = voted if voted in {p["name"] for p in s.parameters} else param
        edges.append(
            ProposedEdge(
                s.name,
                target,
                dtype.value,
                float(confidence),
                "offline-learned" if model is not None else "offline-rules",
                reason_text(s.name, target, dtype, param, x, len(types.get(target) or ())),
                param if dtype.is_parameter else None,
            )
        )
    return edges


def one_per_parameter(edges: list[ProposedEdge]) -> list[ProposedEdge]:
    """The edges without a parameter, and for each parameter the most confident edge (the first of equals)."""
    best: dict[str, ProposedEdge] = {}
    for e in edges:
        if e.parameter_name and (e.parameter_name not in best or e.confidence > best[e.parameter_name].confidence):
            best[e.parameter_name] = e
    return [e for e in edges if not e.parameter_name or best[e.parameter_name] is e]


def order_edges(edges: list[ProposedEdge], cues: Cues) -> list[ProposedEdge]:
    """Listing order: the position labelled lists give the target (or its type), then confidence."""

    def key(e: ProposedEdge):
        target_key = e.target if cues.kinds.get(e.target) == "core" else "<regular>"
        position = cues.position.get(target_key, cues.position.get(e.type, DEFAULT_POSITION))
        return (position, -e.confidence, e.target)

    ordered = sorted(edges, key=key)
    for i, e in enumerate(ordered):
        e.ord = i
    return ordered


def fit_model(cues: Cues) -> LearnedModel | None:
    """Fit on every labelled source's candidate pairs (leave-one-out knn votes); None without examples."""
    rows, labels = [], []
    for s in sorted(cues.examples.sources):
        if s not in cues.by_name:
            continue
        knn, _, _ = cues.votes(s)
        gold = {e.target for e in cues.out[s]}
        matrix, _ = cues.cue_matrix(s, knn)
        keep = [j for j, t in enumerate(cues.tools) if t.name != s]
        rows.append(matrix[keep])
        labels += [cues.tools[j].name in gold for j in keep]
    if len(set(labels)) < 2:
        return None
    return LearnedModel(np.concatenate(rows), labels)
