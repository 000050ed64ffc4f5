"""The post-search `rerank` stage: the request's `rerank` method over the search candidates -- the
offline seed rescoring (kg_tools/retrieval/ordering.py, the default), a sentence-transformers
cross-encoder over the top m (ToolScope), or a listwise LLM rerank whose structured answer is an enum
of the candidate names (GRTF Figure 10). The stage is noted and timed as `rerank-<method>`."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache

from kg_tools.embeddings import import_sentence_transformers
from kg_tools.errors import ConfigurationError
from kg_tools.llm import enum_model
from kg_tools.retrieval import ordering
from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext, Stage
from kg_tools.retrieval.request import RerankMode
from kg_tools.retrieval.stages.llm_call import LLMFallback, ask, candidate_lines
from kg_tools.tool_spec import ToolSpec, split_name, tool_document


class Rerank(Stage):
    """Reorders the candidates by the request's `rerank` method. The offline rescoring reads only the
    first SEED_POOL rows' name, score and spec, so it may also run on rows already expanded (the
    one-round-trip search): it is then noted with the seeds kept and timed with the ordering (`order`),
    as when it was part of it."""

    reads = frozenset({"request", "candidates"})
    writes = frozenset({"candidates"})

    def __init__(self, env: PipelineEnv, method: RerankMode):
        super().__init__(env)
        self.method = method
        self.name = f"rerank-{method}"
        self.on_expanded_rows = method == "offline"

    @property
    def timing_key(self) -> str:
        return "order" if self.expanded else self.name

    def run(self, ctx: RetrievalContext) -> None:
        if self.method == "offline":
            self._offline(ctx)
        elif self.method == "cross-encoder":
            self._cross_encoder(ctx)
        else:
            self._llm(ctx)

    def _offline(self, ctx: RetrievalContext) -> None:
        candidates = ctx.candidates or []
        if len(candidates) < 2:
            if not self.expanded:
                ctx.note(self.name, "fewer than 2 candidates: nothing to rerank")
            return
        ctx.candidates = ordering.rescored(ctx.request.query, candidates)
        note = ordering.rescored_note(len(candidates))
        ctx.note(self.name, f"{note}, {min(ctx.request.k, len(candidates))} kept" if self.expanded else note)

    def _cross_encoder(self, ctx: RetrievalContext) -> None:
        candidates = ctx.candidates or []
        model_name = self.env.settings.cross_encoder_model
        if not model_name:
            ctx.note(
                self.name,
                "skipped: no cross-encoder configured (set KG_TOOLS_CROSS_ENCODER); search order kept",
                fallback=True,
            )
            return
        m = self.env.settings.rerank_top_m
        head, tail = candidates[:m], candidates[m:]
        if not head:
            ctx.note(self.name, "no candidates")
            return
        ctx.candidates = cross_encoder_ranked(model_name, ctx.request.query, head) + tail
        ctx.note(self.name, f"{model_name}: top {len(head)} rescored")

    def _llm(self, ctx: RetrievalContext) -> None:
        candidates = ctx.candidates or []
        head = candidates[: self.env.settings.llm_rerank_top_m]
        if len(head) < 2:
            ctx.note(self.name, "fewer than 2 candidates: nothing to rerank")
            return
        try:
            ranked = self._llm_ranking(ctx, head)
        except LLMFallback as exc:
            ctx.note(self.name, f"{exc}; search order kept", fallback=True)
            return
        if not ranked:
            ctx.note(self.name, "LLM returned an empty ranking; search order kept", fallback=True)
            return
        ctx.candidates = named_first(head, ranked) + candidates[len(head) :]
        ctx.note(self.name, f"{len(ranked)} of {len(head)} ranked by the LLM, the rest in search order")

    def _llm_ranking(self, ctx: RetrievalContext, head: list[Candidate]) -> list[str]:
        """The names the LLM ranks, best first, each once (LLMFallback when it cannot answer)."""
        Ranking = enum_model("ToolRanking", "tools", [c.name for c in head])
        answer = ask(
            self.env,
            ctx,
            "rerank_listwise",
            Ranking,
            query=ctx.request.query,
            k=str(ctx.request.k),
            candidates=candidate_lines(head),
        )
        return list(dict.fromkeys(answer.model_dump()["tools"]))  # the enum model's one field


def named_first(head: list[Candidate], ranked: list[str]) -> list[Candidate]:
    """The candidates the ranking names, in its order, then the others in their order."""
    by_name = {c.name: c for c in head}
    named = set(ranked)
    return [by_name[n] for n in ranked] + [c for c in head if c.name not in named]


def cross_encoder_ranked(model_name: str, query: str, head: list[Candidate]) -> list[Candidate]:
    """`head` rescored by the cross-encoder (query, tool document), best first; ties keep their order."""
    scores = load_cross_encoder(model_name).predict(
        [(query, candidate_document(c)) for c in head], batch_size=64, show_progress_bar=False
    )
    rescored = [replace(c, score=float(s)) for c, s in zip(head, scores)]
    order = sorted(range(len(rescored)), key=lambda i: (-(rescored[i].score or 0.0), i))
    return [rescored[i] for i in order]


def candidate_document(candidate) -> str:
    """The text a reranker reads for a tool: name in words, description, parameters."""
    if candidate.spec:
        try:
            return tool_document(ToolSpec.model_validate(json.loads(candidate.spec)), max_words=None)
        except (ValueError, TypeError):
            pass
    return f"{split_name(candidate.name)}. {candidate.description}".strip()


@lru_cache(maxsize=2)
def load_cross_encoder(model: str):
    CrossEncoder = import_sentence_transformers(f"the cross-encoder {model!r} (KG_TOOLS_CROSS_ENCODER)").CrossEncoder
    try:
        return CrossEncoder(model, device="cpu")
    except Exception as exc:  # bad path / name not in the local cache (no downloads at run time)
        raise ConfigurationError(
            f"cannot load the cross-encoder {model!r} (KG_TOOLS_CROSS_ENCODER): {exc}. Give a local model "
            f"directory or a name already in the Hugging Face cache (downloads are off: HF_HUB_OFFLINE=1)."
        ) from exc
