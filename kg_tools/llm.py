"""The one LLM wrapper: any OpenAI-compatible server (OPENAI_BASE_URL), timeouts, retries with
backoff, structured output validated by pydantic, prompts loaded from kg_tools/prompts/<name>.md."""

from __future__ import annotations

import json
import threading
import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError, create_model

from kg_tools.errors import LLMError, LLMInvalidAnswerError
from kg_tools.settings import Settings

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.shared_params import ResponseFormatJSONSchema

PROMPTS_DIR = Path(__file__).parent / "prompts"
T = TypeVar("T", bound=BaseModel)


@cache
def load_prompt(name: str) -> str:
    path = PROMPTS_DIR / f"{name}.md"
    if not path.exists():
        raise LLMError(f"no prompt named {name!r} ({path})")
    return path.read_text()


def render_prompt(name: str, **variables: Any) -> str:
    text = load_prompt(name)
    for key, value in variables.items():
        text = text.replace(
            "{{" + key + "}}", value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        )
    return text


def enum_model(name: str, field: str, choices: list[str], many: bool = True) -> type[BaseModel]:
    """A response model whose field only admits the given names (JSON-schema enum), as in GRTF's Figure 10."""
    if not choices:
        raise ValueError("enum_model needs at least one choice")
    literal: Any = Literal[tuple(choices)]  # built at run time: typed as Any
    fields: dict[str, Any] = {field: (list[literal] if many else literal, ...)}
    return create_model(name, **fields)


class LLMClient:
    def __init__(self, settings: Settings):
        from openai import OpenAI  # noqa: PLC0415 - ~1 s to import: only when an LLM is configured

        if not settings.openai_base_url:
            raise LLMError("no LLM configured: set OPENAI_BASE_URL (and OPENAI_API_KEY, KG_TOOLS_LLM_MODEL)")
        self.model = settings.llm_model
        self.base_url = settings.openai_base_url
        # Transport retries (429/5xx/timeouts) with exponential backoff are the openai client's own.
        self.client = OpenAI(
            base_url=settings.openai_base_url,
            api_key=settings.openai_api_key or "not-needed",
            timeout=settings.llm_timeout,
            max_retries=settings.llm_max_retries,
        )
        self.calls = 0
        self.seconds = 0.0
        self.usage_tokens = 0
        self._lock = threading.Lock()  # `kg-tools enrich` calls from several threads

    def _count(self, seconds: float, tokens: int) -> None:
        with self._lock:
            self.calls += 1
            self.seconds += seconds
            self.usage_tokens += tokens

    def structured(self, prompt: str, schema: type[T], *, system: str | None = None, invalid_retries: int = 1) -> T:
        """Ask for JSON matching `schema`; invalid JSON or a schema violation is retried, then LLMError."""
        messages: list[ChatCompletionMessageParam] = [{"role": "system", "content": system}] if system else []
        messages.append({"role": "user", "content": prompt})
        response_format: ResponseFormatJSONSchema = {
            "type": "json_schema",
            "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": True},
        }
        last: Exception | None = None
        for attempt in range(invalid_retries + 1):
            t0 = time.perf_counter()
            try:
                completion = self.client.chat.completions.create(
                    model=self.model, messages=messages, response_format=response_format, temperature=0
                )
            except Exception as exc:  # openai.APIError, timeouts after the client's own retries
                self._count(time.perf_counter() - t0, 0)
                raise LLMError(f"LLM call to {self.base_url} failed: {exc}") from exc
            self._count(time.perf_counter() - t0, (completion.usage.total_tokens or 0) if completion.usage else 0)
            message = completion.choices[0].message
            if getattr(message, "refusal", None):
                raise LLMError(f"LLM refused: {message.refusal}")
            try:
                return schema.model_validate_json(message.content or "")
            except ValidationError as exc:
                last = exc
                if attempt < invalid_retries:
                    time.sleep(0.2 * (2**attempt))
        raise LLMInvalidAnswerError(f"LLM answer did not match {schema.__name__}: {last}")


def llm_from_settings(settings: Settings) -> LLMClient | None:
    """None when no LLM is configured: callers take their offline path and say so."""
    return LLMClient(settings) if settings.llm_configured else None
