"""`kg-tools deps infer`: propose typed dependency edges for a catalog, offline or with an LLM judge.

Per catalog: the tools and their hand-written edges (labelled examples) are read from the graph, the
offline model (kg_tools/deps/offline.py) scores every pair, and, when an LLM is configured and the method
allows it, the LLM judges each tool's top candidates. Pairs that already have an edge are never
proposed. Nothing is written here: `apply_run` in kg_tools/deps/store.py does that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, create_model

from kg_tools.deps.offline import Cues, Examples, ProposedEdge, ToolInfo, infer_offline, order_edges
from kg_tools.deps.producers import infer_producers
from kg_tools.errors import LLMError
from kg_tools.llm import LLMClient, render_prompt
from kg_tools.tool_spec import DEPENDENCY_TYPES, DependencyType

DEFAULT_MIN_CONFIDENCE = 0.2  # tuned on the dev half of ToolLinkOS (kg-tools eval deps --split dev)
LLM_CANDIDATES = 8  # candidates per tool the LLM judges
LLM_FAILURES_BEFORE_GIVING_UP = 3  # consecutive failed calls: the rest of the run is offline
Method = Literal["auto", "offline", "llm"]


@dataclass
class InferenceResult:
    catalog: str | None
    method: str  # what was used: offline | llm | llm+offline (some tools fell back)
    edges: list[ProposedEdge]
    notes: list[str] = field(default_factory=list)
    tools: int = 0
    labelled_edges: int = 0
    llm_calls: int = 0
    abstained: dict[str, int] = field(default_factory=dict)  # parameters left without a provider, by reason

    def summary(self) -> dict:
        by_type: dict[str, int] = {}
        for e in self.edges:
            by_type[e.type] = by_type.get(e.type, 0) + 1
        return {
            "catalog": self.catalog,
            "method": self.method,
            "tools": self.tools,
            "labelled_edges": self.labelled_edges,
            "proposed": len(self.edges),
            "by_type": by_type,
            "llm_calls": self.llm_calls,
            "abstained": self.abstained,
            "notes": self.notes,
        }


def structural_edges(
    tools: list[ToolInfo],
    *,
    sources: set[str] | None,
    min_confidence: float,
    progress: Callable[[int], None] | None = None,
    abstained: dict[str, int] | None = None,
    nested_wants: bool = True,
) -> list[ProposedEdge]:
    """Producer -> consumer proposals (kg_tools/deps/producers.py) as ProposedEdges, each source's in
    listing order: most confident first. `abstained` receives the parameters left without a provider."""
    proposals = infer_producers(
        tools,
        sources=sources,
        min_confidence=min_confidence,
        progress=progress,
        abstained=abstained,
        nested_wants=nested_wants,
    )
    by_source: dict[str, list[ProposedEdge]] = {}
    for e in proposals:
        by_source.setdefault(e.source, []).append(e)
    out = []
    for group in by_source.values():
        group.sort(key=lambda e: (-e.confidence, e.target))
        for i, e in enumerate(group):
            e.ord = i
        out += group
    return out


def infer_catalog(
    tools: list[ToolInfo],
    embedder,
    examples: Examples,
    *,
    existing: Set[tuple[str, str]] = frozenset(),
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    llm: LLMClient | None = None,
    sources: set[str] | None = None,
    catalog: str | None = None,
    progress: Callable[[int], None] | None = None,
    nested_wants: bool = True,
) -> InferenceResult:
    """Proposals for one catalog's tools (pairs in `existing` are skipped).

    Signals: producer -> consumer matching (OpenAPI links, output schemas, what descriptions say a tool
    returns, getter/setter and status names) for every catalog; with labelled edges in the catalog, the
    learned model (kg_tools/deps/offline.py) decides for the sources it has neighbours for and only the
    schema- and link-based producer edges are added beside it; with an LLM, the LLM judges each tool's
    candidates (producer candidates first)."""
    result = InferenceResult(catalog, "offline", [], tools=len(tools), labelled_edges=len(examples.edges))
    if len(tools) < 2:
        result.notes.append("fewer than two tools: nothing to infer")
        return result
    structural = [
        e
        for e in structural_edges(
            tools,
            sources=sources,
            min_confidence=min_confidence,
            progress=progress,
            abstained=result.abstained,
            nested_wants=nested_wants,
        )
        if (e.source, e.target) not in existing
    ]
    if any(result.abstained.values()):
        result.notes.append(abstention_note(result.abstained))
    if not examples.edges and llm is None:  # no labelled examples: nothing to learn from, no embeddings needed
        result.edges = structural
        return result
    cues = Cues(tools, embedder, examples)
    offline = [
        e
        for e in infer_offline(tools, embedder, examples, sources=sources, min_confidence=min_confidence, cues=cues)
        if (e.source, e.target) not in existing
    ]
    offline = combine(offline, structural, cues) if examples.edges else structural
    if llm is None:
        result.edges = offline
        return result
    judged = LLMJudge(llm, cues, min_confidence, producers=structural)
    result.edges = judge_tools(judged, tools, offline, sources=sources, existing=existing)
    result.llm_calls = judged.calls
    result.notes += judged.notes
    result.method = "llm" if not judged.fallbacks else f"llm+offline ({judged.fallbacks} tools offline)"
    return result


def abstention_note(abstained: dict[str, int]) -> str:
    """The note on the parameters left without a provider, by reason."""
    return (
        f"{sum(abstained.values())} parameter(s) that name an existing instance left without a provider: "
        + ", ".join(f"{n} {why.replace('_', ' ')}" for why, n in abstained.items() if n)
    )


def judge_tools(
    judged: LLMJudge,
    tools: list[ToolInfo],
    offline: list[ProposedEdge],
    *,
    sources: set[str] | None,
    existing: Set[tuple[str, str]],
) -> list[ProposedEdge]:
    """The LLM's edges of each source (pairs in `existing` skipped), a tool it did not answer for keeping its
    `offline` proposals."""
    by_source: dict[str, list[ProposedEdge]] = {}
    for e in offline:
        by_source.setdefault(e.source, []).append(e)
    edges: list[ProposedEdge] = []
    for tool in tools:
        if sources is not None and tool.name not in sources:
            continue
        answer = judged.judge(tool)
        if answer is None:  # fallback: the offline proposals of this tool
            edges += by_source.get(tool.name, [])
        else:
            edges += [e for e in answer if (e.source, e.target) not in existing]
    return edges


STRONG_STRUCTURAL = ("openapi-links", "output-schema")


def combine(learned: list[ProposedEdge], structural: list[ProposedEdge], cues: Cues) -> list[ProposedEdge]:
    """The learned/rule proposals, plus the producer edges backed by an output schema or an OpenAPI link
    (evidence the labelled examples cannot have seen), each source's list in order."""
    pairs = {(e.source, e.target) for e in learned}
    extra = [e for e in structural if e.method in STRONG_STRUCTURAL and (e.source, e.target) not in pairs]
    if not extra:
        return learned
    by_source: dict[str, list[ProposedEdge]] = {}
    for e in learned + extra:
        by_source.setdefault(e.source, []).append(e)
    out = []
    for group in by_source.values():
        out += order_edges(group, cues)
    return out


class JudgedDependency(BaseModel):
    name: str
    type: Literal[tuple(DEPENDENCY_TYPES)]  # type: ignore[valid-type]
    parameter_name: str | None = None
    reason: str = Field(max_length=400)
    confidence: float = Field(ge=0.0, le=1.0)


class DependencyAnswer(BaseModel):
    """The judge's answer; each call narrows `dependencies` to that tool's candidates."""

    dependencies: list[JudgedDependency]


class LLMJudge:
    """The LLM judges each tool's top offline candidates. Invalid answers are asked again once
    (LLMClient.structured), a transport failure is not; a failed tool keeps its offline proposals, and
    after LLM_FAILURES_BEFORE_GIVING_UP failures in a row every remaining tool does."""

    def __init__(self, llm: LLMClient, cues: Cues, min_confidence: float, producers: Sequence[ProposedEdge] = ()):
        self.llm, self.cues, self.min_confidence = llm, cues, min_confidence
        self.producers: dict[str, list[str]] = {}
        for e in producers:  # producer -> consumer candidates come first
            self.producers.setdefault(e.source, []).append(e.target)
        self.calls = self.fallbacks = self.failures_in_a_row = 0
        self.notes: list[str] = []

    def candidates(self, tool: ToolInfo) -> list[str]:
        knn, _, _ = self.cues.votes(tool.name)
        matrix, _ = self.cues.cue_matrix(tool.name, knn)
        score = (
            matrix[:, 0]
            + matrix[:, 3]
            + matrix[:, 4]
            + matrix[:, 5]
            + matrix[:, 6]
            + matrix[:, 7]
            + matrix[:, 11]
            - matrix[:, 9]
        )
        order = [int(j) for j in np.argsort(-score, kind="stable") if self.cues.tools[j].name != tool.name]
        names = list(dict.fromkeys(self.producers.get(tool.name, []) + [self.cues.tools[j].name for j in order]))
        return names[:LLM_CANDIDATES]

    def judge(self, tool: ToolInfo) -> list[ProposedEdge] | None:
        if self.failures_in_a_row >= LLM_FAILURES_BEFORE_GIVING_UP:
            self.fallbacks += 1
            return None
        names = self.candidates(tool)
        if not names:
            return []
        choice: Any = Literal[tuple(names)]  # the candidates' names only
        item = create_model("Dependency", __base__=JudgedDependency, name=(choice, ...))
        schema = create_model("DependencyAnswer", __base__=DependencyAnswer, dependencies=(list[item], ...))
        prompt = render_prompt("deps_judge", tool=tool_text(tool), candidates=candidate_text(self.cues, names))
        self.calls += 1
        try:
            answer = self.llm.structured(prompt, schema, invalid_retries=1)
        except LLMError as exc:
            self.failures_in_a_row += 1
            self.fallbacks += 1
            self.notes.append(f"{tool.name}: offline fallback ({' '.join(str(exc).split())[:160]})")
            return None
        self.failures_in_a_row = 0
        params = {p["name"] for p in tool.parameters}
        edges, seen = [], set()
        for d in answer.dependencies:
            if d.name in seen or d.confidence < self.min_confidence:
                continue
            seen.add(d.name)
            dtype = DependencyType(d.type)
            parameter = d.parameter_name if dtype.is_parameter and d.parameter_name in params else None
            if dtype.is_parameter and parameter is None:  # a parameter edge must name a real parameter
                dtype = (
                    DependencyType.TOOL_DIRECTLY_DEPENDS_ON
                    if dtype.is_direct
                    else DependencyType.TOOL_INDIRECTLY_DEPENDS_ON
                )
            edges.append(
                ProposedEdge(
                    tool.name,
                    d.name,
                    dtype.value,
                    d.confidence,
                    "llm",
                    " ".join(d.reason.split()) or "judged by the LLM",
                    parameter,
                )
            )
        return order_edges(edges, self.cues)


def tool_text(tool: ToolInfo) -> str:
    params = (
        "\n".join(
            f"  - {p['name']} ({p.get('type') or 'any'}{', required' if p.get('required') else ''}): "
            f"{p.get('description') or ''}"
            for p in tool.parameters
        )
        or "  (none)"
    )
    return f"name: {tool.name}\nkind: {tool.kind}\ndescription: {tool.description}\nparameters:\n{params}"


def candidate_text(cues: Cues, names: list[str]) -> str:
    lines = []
    for n in names:
        t = cues.by_name[n]
        params = ", ".join(p["name"] for p in t.parameters) or "none"
        lines.append(f"- {n} ({t.kind}): {' '.join(t.description.split())[:300]} [parameters: {params}]")
    return "\n".join(lines)
