"""A merge plan (dry run): candidates -> classify -> components -> auto-correct -> canonical -> checks."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field

from kg_tools.graph import Graph
from kg_tools.llm import LLMClient
from kg_tools.merge.autocorrect import LLMValidator, NoCorrection, OfflineValidator, make_validator
from kg_tools.merge.candidates import candidate_pairs, mergeable_tools
from kg_tools.merge.canonical import Canonical, canonical_spec, llm_canonical, offline_canonical
from kg_tools.merge.classify import LLMPairClassifier, OfflineClassifier, PairDecision
from kg_tools.merge.cluster import check_integrity, components
from kg_tools.merge.signature import ToolSignature

DEFAULT_THETA = 0.82
DEFAULT_TOP_K = 30


@dataclass
class MemberLink:
    name: str
    score: float  # best cosine of an accepted pair joining it to its cluster
    method: str
    reason: str


@dataclass
class ClusterPlan:
    canonical: str
    members: list[MemberLink]
    description: str
    parameters: list[dict]
    spec: dict
    validator: str
    writer: str

    @property
    def names(self) -> list[str]:
        return [self.canonical] + [m.name for m in self.members]


@dataclass
class MergePlan:
    theta: float
    top_k: int
    catalog: str | None
    classifier: str
    validator: str
    writer: str
    tools_before: int
    candidates: int
    decisions: list[PairDecision]
    clusters: list[ClusterPlan]
    notes: list[str] = field(default_factory=list)
    timing_s: dict[str, float] = field(default_factory=dict)

    @property
    def phi(self) -> dict[str, str]:
        return {m.name: c.canonical for c in self.clusters for m in c.members}

    @property
    def tools_after(self) -> int:
        return self.tools_before - len(self.phi)

    @property
    def accepted(self) -> list[PairDecision]:
        return [d for d in self.decisions if d.same]

    @property
    def run_id(self) -> str:
        """Deterministic: the same plan has the same id (applying it twice changes nothing)."""
        content = {
            "theta": self.theta,
            "top_k": self.top_k,
            "catalog": self.catalog,
            "clusters": [
                [c.canonical, [m.name for m in c.members], c.description, c.parameters] for c in self.clusters
            ],
        }
        digest = hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        return f"merge-{digest[:12]}"

    def summary(self) -> dict:
        return {
            "run": self.run_id,
            "theta": self.theta,
            "top_k": self.top_k,
            "catalog": self.catalog,
            "classifier": self.classifier,
            "validator": self.validator,
            "writer": self.writer,
            "tools_before": self.tools_before,
            "tools_after": self.tools_after,
            "candidates": self.candidates,
            "accepted_pairs": len(self.accepted),
            "clusters": len(self.clusters),
            "merged": len(self.phi),
            "timing_s": self.timing_s,
        }

    def to_dict(self, explain: bool = False) -> dict:
        out = self.summary() | {
            "notes": self.notes,
            "clusters_detail": [
                {
                    "canonical": c.canonical,
                    "members": [asdict(m) for m in c.members],
                    "description": c.description,
                    "parameters": c.parameters,
                    "validator": c.validator,
                    "writer": c.writer,
                }
                for c in self.clusters
            ],
        }
        if explain:
            out["pairs"] = [asdict(d) for d in self.decisions]
        return out


def build_plan(
    graph: Graph,
    *,
    theta: float = DEFAULT_THETA,
    top_k: int = DEFAULT_TOP_K,
    catalog: str | None = None,
    llm: LLMClient | None = None,
    auto_correct: bool = True,
) -> MergePlan:
    """Dry run. With `llm` the pair classifier, cluster validator and canonical writer ask the model
    (each falls back to its offline path on a failed/invalid answer); without, everything is offline.
    `auto_correct=False`: clusters are not audited (autocorrect.NoCorrection)."""
    timing: dict[str, float] = {}
    t0 = time.perf_counter()
    specs = mergeable_tools(graph, catalog)
    timing["read_tools"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    pairs = candidate_pairs(graph, sorted(specs), theta=theta, top_k=top_k, catalog=catalog)
    timing["candidates"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    tools = {n: ToolSignature.from_spec(s) for n, s in specs.items()}
    offline = OfflineClassifier()
    llm_classifier = LLMPairClassifier(llm, offline) if llm else None
    classifier = llm_classifier or offline
    decisions = [classifier.classify(tools[p.a], tools[p.b], p.cosine) for p in pairs]
    timing["classify"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    notes: list[str] = [] if llm else ["no LLM configured: offline classifier, validator and canonical writer used"]
    if llm_classifier and llm_classifier.fallbacks:
        notes.append(f"pair classifier: {llm_classifier.fallbacks} LLM answer(s) unusable, offline rule used for those")
    validator = make_validator(llm, auto_correct)
    clusters, validated_by = _validated_clusters(decisions, tools, validator, notes)
    phi = check_integrity(clusters, set(specs))
    timing["cluster_autocorrect"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    plans = _cluster_plans(clusters, specs, decisions, validated_by, llm, notes)
    timing["canonical"] = time.perf_counter() - t0
    assert all(phi[m.name] == p.canonical for p in plans for m in p.members)
    return MergePlan(
        theta,
        top_k,
        catalog,
        classifier.method,
        validator.method,
        "llm" if llm else "offline-union",
        len(specs),
        len(pairs),
        decisions,
        plans,
        notes,
        {k: round(v, 3) for k, v in timing.items()},
    )


def _validated_clusters(
    decisions: list[PairDecision],
    tools: dict[str, ToolSignature],
    validator: LLMValidator | OfflineValidator | NoCorrection,
    notes: list[str],
) -> tuple[list[list[str]], dict[str, str]]:
    """The connected components of the accepted pairs as the validator corrects them (representative first),
    and by each cluster's representative which validator verdict made it; the validator's notes go to `notes`."""
    clusters: list[list[str]] = []
    validated_by: dict[str, str] = {}
    for comp in components([(d.a, d.b) for d in decisions if d.same]):
        correction = validator.validate(comp, tools)
        notes.extend(correction.notes)
        for c in correction.clusters:
            clusters.append(c)
            validated_by[c[0]] = f"{correction.method}: {correction.verdict}"
    return clusters, validated_by


def _cluster_plans(
    clusters: list[list[str]],
    specs: dict,
    decisions: list[PairDecision],
    validated_by: dict[str, str],
    llm: LLMClient | None,
    notes: list[str],
) -> list[ClusterPlan]:
    """Each cluster's plan with its canonical tool, written by the LLM (its fallback notes go to `notes`) or offline."""
    accepted = [d for d in decisions if d.same]
    plans = []
    for cluster in clusters:
        if llm:
            canonical, note = llm_canonical(llm, cluster, specs)
            if note:
                notes.append(note)
        else:
            canonical = offline_canonical(cluster, specs)
        plans.append(_cluster_plan(cluster, canonical, specs, accepted, validated_by[cluster[0]]))
    return plans


def _cluster_plan(
    cluster: list[str], canonical: Canonical, specs: dict, accepted: list[PairDecision], validated_by: str
) -> ClusterPlan:
    inside = set(cluster)
    members = []
    for name in cluster[1:]:
        links = [d for d in accepted if name in (d.a, d.b) and {d.a, d.b} <= inside]
        best = max(links, key=lambda d: (d.a == cluster[0] or d.b == cluster[0], d.cosine), default=None)
        members.append(
            MemberLink(
                name,
                round(best.cosine, 4) if best else 0.0,
                best.method if best else "cluster",
                best.reason if best else "joined through its cluster",
            )
        )
    spec = canonical_spec(specs[cluster[0]], canonical, cluster[1:])
    return ClusterPlan(
        cluster[0], members, canonical.description, canonical.parameters, spec, validated_by, canonical.method
    )
