"""Auto-Correction: audit each cluster before it is merged.

Offline (`OfflineValidator`): walk the cluster representative-first; a tool joins the first
sub-cluster whose representative's parameter signature aligns with its own, else it starts a new
one. Sub-clusters of one tool are dropped (the tool stays unmerged).

LLM (`LLMValidator`, prompt merge_validate.md): the model answers {"merge": "MERGE_OK"} or
{"merge": "MERGE_BAD", "clusters": [[...], [...]]}; the clusters must partition the cluster's tools
exactly, otherwise the offline split is used and the fallback is recorded.

Off (`NoCorrection`, `auto_correct=False`; setting KG_TOOLS_MERGE_AUTO_CORRECT, CLI --no-auto-correct):
every connected component is merged as the pair classifier left it (ToolScope's ablation without
Auto-Correction); the integrity checks still run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from kg_tools.errors import LLMError
from kg_tools.llm import LLMClient, render_prompt
from kg_tools.merge.classify import _tool_json
from kg_tools.merge.cluster import order
from kg_tools.merge.signature import ToolSignature, signatures_align


@dataclass
class Correction:
    clusters: list[list[str]]  # each representative-first, >= 2 tools
    verdict: str  # MERGE_OK | MERGE_BAD
    method: str
    notes: list[str] = field(default_factory=list)


class OfflineValidator:
    method = "offline-signature-split"

    def validate(self, cluster: list[str], tools: dict[str, ToolSignature]) -> Correction:
        groups: list[list[str]] = []
        for name in order(cluster):
            for g in groups:
                if signatures_align(tools[g[0]], tools[name]):
                    g.append(name)
                    break
            else:
                groups.append([name])
        kept = [g for g in groups if len(g) > 1]
        if len(groups) == 1:
            return Correction(kept, "MERGE_OK", self.method)
        note = f"split {cluster[0]}'s cluster into {[g for g in groups]}: parameter signatures cannot be aligned"
        return Correction(kept, "MERGE_BAD", self.method, [note])


class NoCorrection:
    method = "none (auto-correction off)"

    def validate(self, cluster: list[str], tools: dict[str, ToolSignature]) -> Correction:
        return Correction([order(cluster)], "MERGE_OK", self.method)


def make_validator(llm: LLMClient | None, auto_correct: bool = True) -> OfflineValidator | LLMValidator | NoCorrection:
    """The cluster validator a plan uses: none when auto-correction is off, else the LLM's (offline fallback)."""
    if not auto_correct:
        return NoCorrection()
    return LLMValidator(llm) if llm else OfflineValidator()


class ClusterVerdict(BaseModel):
    merge: Literal["MERGE_OK", "MERGE_BAD"]
    clusters: list[list[str]] | None = None


class LLMValidator:
    method = "llm"

    def __init__(self, llm: LLMClient, fallback: OfflineValidator | None = None):
        self.llm = llm
        self.fallback = fallback or OfflineValidator()

    def validate(self, cluster: list[str], tools: dict[str, ToolSignature]) -> Correction:
        prompt = render_prompt("merge_validate", tools=[_tool_json(tools[n]) for n in cluster])
        try:
            verdict = self.llm.structured(prompt, ClusterVerdict)
            if verdict.merge == "MERGE_OK":
                return Correction([order(cluster)], "MERGE_OK", self.method)
            groups = self._partition(cluster, verdict.clusters)
        except (LLMError, ValueError) as exc:
            result = self.fallback.validate(cluster, tools)
            result.method = f"{self.fallback.method} (LLM validator failed: {str(exc)[:120]})"
            result.notes.append(result.method)
            return result
        kept = [order(g) for g in groups if len(g) > 1]
        return Correction(kept, "MERGE_BAD", self.method, [f"LLM split {cluster[0]}'s cluster into {groups}"])

    @staticmethod
    def _partition(cluster: list[str], groups: list[list[str]] | None) -> list[list[str]]:
        if not groups:
            raise ValueError("MERGE_BAD without clusters")
        flat = [n for g in groups for n in g]
        if sorted(flat) != sorted(cluster):
            raise ValueError(f"MERGE_BAD clusters {groups} do not partition {cluster}")
        return [list(g) for g in groups if g]
