"""Enriched tool documents (Toolshed / RPS): per tool an LLM-written expanded description, N
synthetic user questions and key topics, embedded and stored as
(:Question {text, kind, embedding, model, created, spec_hash, embedding_model})-[:ASKS_FOR]->(:Tool)
with provenance on the tool. Incremental: only tools without enrichment, whose spec changed, or
whose enrichment vectors came from another embedder. One failed tool is reported, not fatal."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field

from kg_tools.cypher import query
from kg_tools.embeddings import Embedder
from kg_tools.errors import LLMError
from kg_tools.graph import Graph
from kg_tools.llm import LLMClient, render_prompt
from kg_tools.schema import apply_schema

DEFAULT_QUESTIONS = 5
WRITE_BATCH = 25


class ToolEnrichment(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = Field(description="Expanded description of the tool.")
    questions: list[str] = Field(description="Realistic user requests this tool helps with.")
    topics: list[str] = Field(description="Key topics or keywords.")


@dataclass
class EnrichResult:
    todo: int = 0
    enriched: int = 0
    failed: list[str] = field(default_factory=list)
    vectors: int = 0
    llm_calls: int = 0
    tokens: int = 0
    llm_seconds: float = 0.0
    seconds: float = 0.0
    model: str = ""

    def as_dict(self) -> dict:
        return {
            "todo": self.todo,
            "enriched": self.enriched,
            "failed": len(self.failed),
            "vectors": self.vectors,
            "llm_calls": self.llm_calls,
            "tokens": self.tokens,
            "llm_seconds": round(self.llm_seconds, 2),
            "seconds": round(self.seconds, 2),
            "model": self.model,
            "seconds_per_tool": round(self.seconds / self.todo, 3) if self.todo else 0.0,
        }

    def summary(self) -> str:
        d = self.as_dict()
        return (
            f"enriched {d['enriched']}/{d['todo']} tools ({d['failed']} failed), {d['vectors']} vectors; "
            f"LLM {d['model']}: {d['llm_calls']} calls, {d['tokens']} tokens, {d['llm_seconds']}s in calls; "
            f"wall {d['seconds']}s ({d['seconds_per_tool']}s/tool)"
        )


def parameter_lines(spec_json: str | None) -> str:
    try:
        params = json.loads(spec_json or "{}").get("parameters") or []
    except ValueError:
        params = []
    lines = [
        f"- {p.get('name')} ({p.get('type', 'any')}): {p.get('description', '')}".rstrip(": ")
        for p in params
        if isinstance(p, dict)
    ]
    return "\n".join(lines) or "(none)"


def _clean(texts: list[str], limit: int) -> list[str]:
    out = list(dict.fromkeys(" ".join(str(t).split()) for t in texts))
    return [t for t in out if t][:limit]


def generate(llm: LLMClient, tool: dict, n_questions: int) -> ToolEnrichment:
    """One LLM call (one more on an invalid answer); raises LLMError."""
    prompt = render_prompt(
        "enrich_tool",
        tool_name=tool["name"],
        description=tool["description"] or "",
        parameters=parameter_lines(tool["spec"]),
        n=str(n_questions),
    )
    answer = llm.structured(prompt, ToolEnrichment)
    questions = _clean(answer.questions, n_questions)
    if not questions or not answer.description.strip():
        raise LLMError(f"LLM answer for {tool['name']} has no questions or no description")
    return ToolEnrichment(
        description=" ".join(answer.description.split()), questions=questions, topics=_clean(answer.topics, 10)
    )


def _row(tool: dict, enrichment: ToolEnrichment, model: str, embedding_model: str, created: str) -> dict:
    doc = enrichment.description + (f" Topics: {', '.join(enrichment.topics)}." if enrichment.topics else "")
    texts = [{"text": q, "kind": "question"} for q in enrichment.questions] + [{"text": doc, "kind": "description"}]
    return {
        "name": tool["name"],
        "catalog": tool["catalog"],
        "description": enrichment.description,
        "topics": enrichment.topics,
        "model": model,
        "created": created,
        "spec_hash": tool["spec_hash"],
        "embedding_model": embedding_model,
        "texts": texts,
    }


def _write(graph: Graph, embedder: Embedder, rows: list[dict]) -> int:
    texts = [item["text"] for row in rows for item in row["texts"]]
    vectors = iter(embedder.embed(texts))
    for row in rows:
        for item in row["texts"]:
            item["embedding"] = next(vectors).tolist()
    graph.write(query("enrich_write"), rows=rows)
    return len(texts)


def enrich_tools(
    graph: Graph,
    embedder: Embedder,
    llm: LLMClient,
    *,
    n_questions: int = DEFAULT_QUESTIONS,
    catalog: str | None = None,
    limit: int | None = None,
    force: bool = False,
    concurrency: int = 4,
    log: Callable[[str], None] = print,
) -> EnrichResult:
    t_start = time.perf_counter()
    apply_schema(graph, embedder.dimension, embedder.name)  # the question vector index (schema/enrichment.cypher)
    tools = graph.read(query("enrich_todo"), catalog=catalog, force=force, embedding_model=embedder.name)
    tools = tools[:limit] if limit else tools
    result = EnrichResult(todo=len(tools), model=llm.model)
    calls0, tokens0, seconds0 = llm.calls, llm.usage_tokens, llm.seconds
    created = datetime.now(UTC).isoformat()

    def work(tool):
        t0 = time.perf_counter()
        try:
            return tool, generate(llm, tool, n_questions), None, time.perf_counter() - t0
        except LLMError as exc:
            return tool, None, exc, time.perf_counter() - t0

    pending: list[dict] = []
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        for i, (tool, enrichment, error, seconds) in enumerate(pool.map(work, tools), start=1):
            if error is not None:
                result.failed.append(tool["name"])
                log(f"[{i}/{len(tools)}] {tool['name']}: FAILED ({seconds:.1f}s): {error}")
                continue
            pending.append(_row(tool, enrichment, llm.model, embedder.name, created))
            result.enriched += 1
            log(
                f"[{i}/{len(tools)}] {tool['name']}: {len(enrichment.questions)} questions, "
                f"{len(enrichment.topics)} topics ({seconds:.1f}s)"
            )
            if len(pending) >= WRITE_BATCH:
                result.vectors += _write(graph, embedder, pending)
                pending = []
    if pending:
        result.vectors += _write(graph, embedder, pending)
    result.llm_calls = llm.calls - calls0
    result.tokens = llm.usage_tokens - tokens0
    result.llm_seconds = llm.seconds - seconds0
    result.seconds = time.perf_counter() - t_start
    return result


def enrichment_counts(graph: Graph, catalog: str | None = None) -> dict:
    records = graph.read(query("enrichment_counts"), catalog=catalog)
    return records[0] if records else {"tools": 0, "enriched": 0, "vectors": 0}
