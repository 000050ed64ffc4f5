"""Pair classification: do two tools serve the same intent, unifiable with optional parameters?

Offline rule (deterministic, `OfflineClassifier`), for a candidate pair (a, b) with cosine c >= theta:
  1. same verb class: the first name word's class (get/fetch/retrieve -> get, calculate/compute ->
     calculate, ...), or both names without a known verb;
  2. same object: the remaining name words (generic words such as info/details/data dropped,
     plurals singularised, synonyms folded) are equal, or one contains the other and c >= 0.90;
  3. alignable signatures: every required parameter of each tool matches a distinct parameter of the
     other with a compatible JSON type and a shared content word in its name or description.
All three must hold. Known errors (see `kg-tools merge plan --explain`): paraphrased objects
(getFilmDetails vs getMovieReviews is rejected, correctly, but getWeatherForecast vs
getForecast is only accepted through the subset rule), verbs outside the classes, and tools whose
names agree but whose semantics differ only in the description (e.g. currency vs unit conversion
with the same verb + object words).

The LLM classifier (`LLMPairClassifier`) asks the configured model (prompt merge_pair.md) and falls
back to the offline rule on a failed or invalid answer, recording that in the method.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from kg_tools.errors import LLMError
from kg_tools.llm import LLMClient, render_prompt
from kg_tools.merge.signature import ToolSignature, signatures_align

SUBSET_MIN_COSINE = 0.90


@dataclass
class PairDecision:
    a: str
    b: str
    cosine: float
    same: bool
    reason: str
    method: str


class OfflineClassifier:
    method = "offline-rule"

    def classify(self, a: ToolSignature, b: ToolSignature, cosine: float) -> PairDecision:
        same, reason = self.rule(a, b, cosine)
        return PairDecision(a.name, b.name, cosine, same, reason, self.method)

    @staticmethod
    def rule(a: ToolSignature, b: ToolSignature, cosine: float) -> tuple[bool, str]:
        if a.verb != b.verb:
            return False, f"verbs differ ({a.verb or a.words[0]} vs {b.verb or b.words[0]})"
        if not a.object or not b.object:
            return False, "a name has no object words"
        if a.object == b.object:
            why = f"same verb class ({a.verb or 'none'}) and object ({' '.join(sorted(a.object))})"
        elif (a.object <= b.object or b.object <= a.object) and cosine >= SUBSET_MIN_COSINE:
            why = (
                f"same verb class ({a.verb or 'none'}), object {' '.join(sorted(a.object))} ~ "
                f"{' '.join(sorted(b.object))} (subset, cosine {cosine:.3f})"
            )
        else:
            return False, f"objects differ ({' '.join(sorted(a.object))} vs {' '.join(sorted(b.object))})"
        if not signatures_align(a, b):
            return False, why + "; but parameter signatures cannot be aligned"
        return True, why + "; signatures align"


class PairVerdict(BaseModel):
    same_intent: bool
    reason: str


def _tool_json(t: ToolSignature) -> dict:
    return {
        "name": t.name,
        "description": t.description,
        "parameters": [{"name": p.name, "type": p.type, "required": p.required} for p in t.params],
    }


class LLMPairClassifier:
    method = "llm"

    def __init__(self, llm: LLMClient, fallback: OfflineClassifier | None = None):
        self.llm = llm
        self.fallback = fallback or OfflineClassifier()
        self.fallbacks = 0

    def classify(self, a: ToolSignature, b: ToolSignature, cosine: float) -> PairDecision:
        prompt = render_prompt("merge_pair", a=_tool_json(a), b=_tool_json(b))
        try:
            verdict = self.llm.structured(prompt, PairVerdict)
        except LLMError as exc:
            self.fallbacks += 1
            decision = self.fallback.classify(a, b, cosine)
            decision.method = f"offline-rule (LLM failed: {str(exc)[:80]})"
            return decision
        return PairDecision(a.name, b.name, cosine, verdict.same_intent, verdict.reason, self.method)
