"""The one way stages talk to the LLM: per-request call cap, one retry of an invalid answer, and
an `LLMFallback` carrying the reason whenever the stage must take its offline path."""

from __future__ import annotations

import time
from typing import TypeVar

from pydantic import BaseModel

from kg_tools.errors import LLMError, LLMInvalidAnswerError
from kg_tools.llm import LLMClient, llm_from_settings, render_prompt

T = TypeVar("T", bound=BaseModel)
NO_LLM = "offline: no LLM configured (OPENAI_BASE_URL unset)"


class LLMFallback(Exception):
    """The stage falls back to its offline path; str(self) is the reason shown in `stages`."""


def llm_client(env) -> LLMClient | None:
    """One client per pipeline (created lazily, None without OPENAI_BASE_URL)."""
    if "llm" not in env.components:
        env.components["llm"] = llm_from_settings(env.settings)
    return env.components["llm"]


def _short(exc: Exception | None, limit: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def ask(env, ctx, prompt_name: str, schema: type[T], **variables) -> T:
    """Render a prompt, ask for `schema`; raise LLMFallback(reason) on any failure or the cap.

    Each HTTP completion counts as one call against settings.llm_max_calls_per_request (transport
    retries with backoff inside the openai client do not); an invalid answer is asked again once
    if the cap allows."""
    client = llm_client(env)
    if client is None:
        raise LLMFallback(NO_LLM)
    cap = env.settings.llm_max_calls_per_request
    prompt = render_prompt(prompt_name, **variables)
    invalid: LLMError | None = None
    for attempt in range(2):
        if ctx.llm_calls >= cap:
            reason = f"LLM call cap reached ({cap} per request)"
            raise LLMFallback(f"{reason} after an invalid answer: {_short(invalid)}" if invalid else reason)
        ctx.llm_calls += 1
        t0 = time.perf_counter()
        try:
            return client.structured(prompt, schema, invalid_retries=0)
        except LLMInvalidAnswerError as exc:
            invalid = exc
            if attempt == 0:
                time.sleep(0.2)
        except LLMError as exc:  # transport failure, timeout, refusal: no second try
            raise LLMFallback(f"LLM failed: {_short(exc)}") from exc
        finally:
            ctx.timing_ms["llm"] = round(ctx.timing_ms.get("llm", 0.0) + (time.perf_counter() - t0) * 1000, 3)
    raise LLMFallback(f"invalid LLM answer: {_short(invalid)}")


def candidate_lines(candidates, limit: int | None = None, width: int = 300) -> str:
    """Candidates as prompt lines: `- name: description`."""
    lines = []
    for c in candidates[:limit]:
        desc = " ".join((c.description or "").split())
        lines.append(f"- {c.name}: {desc[:width]}")
    return "\n".join(lines)
