"""Post-search rerankers: the offline seed rescoring as a stage (`rerank-offline`), a
sentence-transformers cross-encoder over the top m (ToolScope) and an LLM listwise reranker whose
structured answer is an enum of the candidate names (GRTF Figure 10)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache

from kg_tools.catalog import ToolSpec, split_name, tool_document
from kg_tools.embeddings import import_sentence_transformers
from kg_tools.errors import ConfigurationError
from kg_tools.llm import enum_model
from kg_tools.retrieval import ordering
from kg_tools.retrieval.context import Stage
from kg_tools.retrieval.stages.llm_call import LLMFallback, ask, candidate_lines
from kg_tools.retrieval.stages.search import rescored_candidates


class OfflineRerank(Stage):
    """`rerank-offline`: the default seed rescoring (kg_tools/retrieval/ordering.py) of the first
    SEED_POOL search candidates, for requests that take the staged path (post-search stages such as
    `dedupe`). On the default one-round-trip path OrderAndTruncate applies the same rescoring to the
    expansion rows; both give the same seeds."""

    name = "rerank-offline"

    def run(self, ctx):
        candidates = ctx.candidates or []
        if len(candidates) < 2:
            ctx.note(self.name, "fewer than 2 candidates: nothing to rerank")
            return
        ctx.candidates = rescored_candidates(ctx.request.query, candidates)
        ctx.note(
            self.name,
            ordering.rescored_note(len(candidates)),
        )


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


class CrossEncoderRerank(Stage):
    """Rescore the top m candidates with a cross-encoder (query, tool document); the rest keep their order."""

    name = "rerank-cross-encoder"

    def run(self, ctx):
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
        model = load_cross_encoder(model_name)
        scores = model.predict(
            [(ctx.request.query, candidate_document(c)) for c in head], batch_size=64, show_progress_bar=False
        )
        rescored = [replace(c, score=float(s)) for c, s in zip(head, scores)]
        order = sorted(range(len(rescored)), key=lambda i: (-rescored[i].score, i))
        ctx.candidates = [rescored[i] for i in order] + tail
        ctx.note(self.name, f"{model_name}: top {len(head)} rescored")


class LLMRerank(Stage):
    """Listwise LLM rerank of the top m; on failure the search order stays and `stages` says why."""

    name = "rerank-llm"

    def run(self, ctx):
        candidates = ctx.candidates or []
        head = candidates[: self.env.settings.llm_rerank_top_m]
        if len(head) < 2:
            ctx.note(self.name, "fewer than 2 candidates: nothing to rerank")
            return
        names = [c.name for c in head]
        Ranking = enum_model("ToolRanking", "tools", names)
        try:
            answer = ask(
                self.env,
                ctx,
                "rerank_listwise",
                Ranking,
                query=ctx.request.query,
                k=str(ctx.request.k),
                candidates=candidate_lines(head),
            )
        except LLMFallback as exc:
            ctx.note(self.name, f"{exc}; search order kept", fallback=True)
            return
        ranked: list[str] = list(dict.fromkeys(answer.model_dump()["tools"]))  # the enum model's one field
        if not ranked:
            ctx.note(self.name, "LLM returned an empty ranking; search order kept", fallback=True)
            return
        by_name = {c.name: c for c in head}
        order = ranked + [n for n in names if n not in set(ranked)]
        ctx.candidates = [by_name[n] for n in order] + candidates[len(head) :]
        ctx.note(self.name, f"{len(ranked)} of {len(head)} ranked by the LLM, the rest in search order")
