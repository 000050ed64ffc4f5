"""A typed client for the kg-tools REST API, sync (`KgToolsClient`) and async (`AsyncKgToolsClient`).

    from kg_tools.client import KgToolsClient
    with KgToolsClient("http://127.0.0.1:8000", api_key=...) as kg:
        hits = kg.retrieve("send my location to john@example.com", K=5)
        tools = openai_tools(hits.tools)          # or mcp_tools(...), anthropic_tools(...)

Answers are the API's own response models (`RetrievalResponse`, `ToolDetail`, `CatalogList` ...).
Error answers (docs/rest-api.md) raise the `KgToolsError` class the server raised, with the HTTP
`status`, the `code` and the JSON `body` attached; a 503 (Neo4j down, not ready) and a refused
connection (`ApiUnavailableError`) are retried with backoff (`Retry-After` when the server sends one) before they raise.
Both clients share the request building and answer parsing below; only the I/O differs."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from kg_tools.api.schemas import CatalogList, ImportResult
from kg_tools.errors import (
    CatalogError,
    CatalogNotFoundError,
    ConfigurationError,
    DatabaseUnavailableError,
    DocumentTooLargeError,
    KgToolsError,
    LLMError,
    SchemaMismatchError,
    ToolConflictError,
    ToolNotFoundError,
    UnknownStageError,
    WriteConflictError,
)
from kg_tools.retrieval.request import RetrievalResponse, ToolHit
from kg_tools.tool_store import ToolDetail, ToolPage

Model = TypeVar("Model", bound=BaseModel)
# A catalog document: a file, its text or bytes, or its parsed JSON (an object or a list of tools).
Document = str | bytes | Path | Mapping[str, Any] | list[Any]

DEFAULT_URL = "http://127.0.0.1:8000"
RETRY_STATUSES = frozenset({503})
# The longest wait between two attempts, whatever Retry-After says.
MAX_BACKOFF_S = 30.0


class ApiError(KgToolsError):
    """An error answer of the API without a more specific class (`code` says which)."""


class ApiUnavailableError(ApiError):
    """The API refused the connection on every attempt (not started, wrong port)."""


class AuthenticationError(ApiError):
    """401 (no bearer token) or 403 (a wrong one): set `api_key` to the server's KG_TOOLS_API_KEY."""


class InvalidRequestError(ApiError):
    """The request itself is malformed (validation_error, invalid_json, payload_too_large, ...):
    `body["errors"]` lists the offending fields when there are some."""


def _error_for(status: int, body: dict[str, Any]) -> KgToolsError:
    """The exception an error answer stands for, with `status`, `code` and `body` attached."""
    code, detail = str(body.get("error") or f"http_{status}"), str(body.get("detail") or "")
    problems = [str(p) for p in body.get("problems") or []]
    exc: KgToolsError
    if code == "tool_not_found":
        exc = ToolNotFoundError(str(body.get("name") or detail.removeprefix("tool not found: ")))
    elif code == "catalog_not_found":
        exc = CatalogNotFoundError(detail.split("catalog ", 2)[-1].strip("'\""))
    elif code == "conflict":
        exc = ToolConflictError(detail, problems) if problems else WriteConflictError(detail)
    elif code in ("invalid_tool", "invalid_document"):
        exc = CatalogError(detail.split(": ", 1)[0] if problems else detail, problems)
    elif code == "document_too_large":
        exc = DocumentTooLargeError(detail)
    else:
        cls = _CLASSES.get(code) or _CLASSES_BY_STATUS.get(status, ApiError)
        exc = cls(detail or f"HTTP {status}")
    exc.status, exc.code, exc.body = status, code, body  # type: ignore[attr-defined]
    return exc


_CLASSES: dict[str, type[KgToolsError]] = {
    "database_unavailable": DatabaseUnavailableError,
    "database_out_of_memory": DatabaseUnavailableError,
    "not_ready": DatabaseUnavailableError,
    "misconfigured": ConfigurationError,
    "schema_mismatch": SchemaMismatchError,
    "unknown_stage": UnknownStageError,
    "llm_error": LLMError,
    "unauthorized": AuthenticationError,
    "forbidden": AuthenticationError,
}
_CLASSES_BY_STATUS: dict[int, type[KgToolsError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: AuthenticationError,
    404: ApiError,
    413: InvalidRequestError,
    422: InvalidRequestError,
    503: DatabaseUnavailableError,
}


@dataclass(frozen=True)
class _Call:
    """One API call, built once and sent by either client."""

    method: str
    path: str
    params: dict[str, Any] | None = None
    json: Any = None
    content: bytes | None = None
    content_type: str | None = None

    def request(self, api_key: str | None) -> dict[str, Any]:
        """httpx `request(...)` keyword arguments."""
        return {
            "method": self.method,
            "url": self.path,
            "params": self.params,
            "json": self.json,
            "content": self.content,
            "headers": self.headers(api_key),
        }

    def headers(self, api_key: str | None) -> dict[str, str]:
        headers = {"accept": "application/json"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        if self.content_type:
            headers["content-type"] = self.content_type
        return headers


def _parse(response: httpx.Response, model: type[Model] | None) -> Any:
    if response.status_code >= 400:
        try:
            body = response.json()
        except ValueError:
            body = {"detail": response.text[:500]}
        raise _error_for(response.status_code, body if isinstance(body, dict) else {"detail": str(body)})
    if model is None or response.status_code == 204:
        return None
    return model.model_validate(response.json())


def _delay(attempt: int, response: httpx.Response | None) -> float:
    """Retry-After when the server sent seconds, else 0.5 s doubling; never more than MAX_BACKOFF_S."""
    header = response.headers.get("retry-after") if response is not None else None
    if header and header.strip().isdigit():
        return min(float(header), MAX_BACKOFF_S)
    return min(0.5 * 2**attempt, MAX_BACKOFF_S)


def _unreachable(error: httpx.ConnectError, attempt: int, retries: int, base_url: object) -> None:
    """A refused connection is retried; at the last attempt it is an ApiUnavailableError."""
    if attempt == retries:
        raise ApiUnavailableError(f"kg-tools API not reachable at {base_url}: {error}") from error


def _is_answer(response: httpx.Response, attempt: int, retries: int) -> bool:
    """Whether `response` is the answer: not a 503, or the last attempt's."""
    return response.status_code not in RETRY_STATUSES or attempt == retries


def _document(document: Document, fmt: str | None) -> tuple[bytes | None, Any, str]:
    """(content, json, content type) of a catalog document given as a path, text, bytes or parsed JSON."""
    if isinstance(document, Mapping | list):
        return None, document if isinstance(document, list) else dict(document), "application/json"
    if isinstance(document, Path):
        raw = document.read_bytes()
        yaml = document.suffix.lower() in (".yml", ".yaml")
    else:
        raw = document.encode() if isinstance(document, str) else document
        yaml = fmt == "openapi" and not raw.lstrip().startswith((b"{", b"["))
    return raw, None, "application/yaml" if yaml else "application/json"


class _Calls:
    """The API's calls as `_Call`s and the model each answer is read as."""

    @staticmethod
    def retrieve(query: str, fields: dict[str, Any]) -> tuple[_Call, type[BaseModel]]:
        return _Call("POST", "/v1/retrieve", json={"query": query, **fields}), RetrievalResponse

    @staticmethod
    def get_tool(name: str) -> tuple[_Call, type[BaseModel]]:
        return _Call("GET", f"/v1/tools/{_segment(name)}"), ToolDetail

    @staticmethod
    def tools(offset: int, limit: int, kind: str | None) -> tuple[_Call, type[BaseModel]]:
        params: dict[str, Any] = {"offset": offset, "limit": limit}
        if kind:
            params["kind"] = kind
        return _Call("GET", "/v1/tools", params=params), ToolPage

    @staticmethod
    def catalogs() -> tuple[_Call, type[BaseModel]]:
        return _Call("GET", "/v1/catalogs"), CatalogList

    @staticmethod
    def load(catalog: str, document: Document, fmt: str | None, replace: bool) -> tuple[_Call, type[BaseModel]]:
        content, body, content_type = _document(document, fmt)
        params: dict[str, Any] = {"replace": "true"} if replace else {}
        if fmt:
            params["format"] = fmt
        path = f"/v1/catalogs/{_segment(catalog)}/import"
        return _Call("POST", path, params=params, json=body, content=content, content_type=content_type), ImportResult

    @staticmethod
    def delete_catalog(catalog: str) -> _Call:
        return _Call("DELETE", f"/v1/catalogs/{_segment(catalog)}")


def _segment(value: str) -> str:
    """A name as one path segment: every reserved character encoded ('/' too: docs/rest-api.md)."""
    if not value:
        raise ValueError("a tool or catalog name must not be empty")
    return quote(value, safe="")


class KgToolsClient:
    """Blocking client. `retries`: how many times a 503 or a refused connection is retried."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        retries: int = 3,
        transport: httpx.BaseTransport | None = None,
    ):
        self.api_key, self.retries = api_key, retries
        self._http = httpx.Client(base_url=base_url, timeout=timeout, transport=transport)

    def __enter__(self) -> KgToolsClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _send(self, call: _Call, model: type[Model] | None = None) -> Any:
        for attempt in range(self.retries + 1):
            response: httpx.Response | None = None
            try:
                response = self._http.request(**call.request(self.api_key))
            except httpx.ConnectError as e:
                _unreachable(e, attempt, self.retries, self._http.base_url)
            if response is not None and _is_answer(response, attempt, self.retries):
                return _parse(response, model)
            time.sleep(_delay(attempt, response))
        raise AssertionError("unreachable")

    def retrieve(self, query: str, **fields: Any) -> RetrievalResponse:
        """POST /v1/retrieve; `fields` are the request's other fields (k, K, depth, mode, rerank, catalog ...)."""
        return self._send(*_Calls.retrieve(query, fields))

    def get_tool(self, name: str) -> ToolDetail:
        return self._send(*_Calls.get_tool(name))

    def tools(self, offset: int = 0, limit: int = 50, kind: str | None = None) -> ToolPage:
        return self._send(*_Calls.tools(offset, limit, kind))

    def catalogs(self) -> CatalogList:
        return self._send(*_Calls.catalogs())

    def load(
        self,
        catalog: str,
        document: Document,
        *,
        format: str | None = None,  # noqa: A002 - the API's query parameter
        replace: bool = False,
    ) -> ImportResult:
        """Import a catalog document (OpenAPI, OpenAI tools, an MCP tool list, our JSON) as `catalog`."""
        return self._send(*_Calls.load(catalog, document, format, replace))

    def delete_catalog(self, catalog: str) -> None:
        self._send(_Calls.delete_catalog(catalog))


class AsyncKgToolsClient:
    """The same calls as `KgToolsClient`, awaited."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        retries: int = 3,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self.api_key, self.retries = api_key, retries
        self._http = httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport)

    async def __aenter__(self) -> AsyncKgToolsClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, call: _Call, model: type[Model] | None = None) -> Any:
        for attempt in range(self.retries + 1):
            response: httpx.Response | None = None
            try:
                response = await self._http.request(**call.request(self.api_key))
            except httpx.ConnectError as e:
                _unreachable(e, attempt, self.retries, self._http.base_url)
            if response is not None and _is_answer(response, attempt, self.retries):
                return _parse(response, model)
            await asyncio.sleep(_delay(attempt, response))
        raise AssertionError("unreachable")

    async def retrieve(self, query: str, **fields: Any) -> RetrievalResponse:
        return await self._send(*_Calls.retrieve(query, fields))

    async def get_tool(self, name: str) -> ToolDetail:
        return await self._send(*_Calls.get_tool(name))

    async def tools(self, offset: int = 0, limit: int = 50, kind: str | None = None) -> ToolPage:
        return await self._send(*_Calls.tools(offset, limit, kind))

    async def catalogs(self) -> CatalogList:
        return await self._send(*_Calls.catalogs())

    async def load(
        self,
        catalog: str,
        document: Document,
        *,
        format: str | None = None,  # noqa: A002 - the API's query parameter
        replace: bool = False,
    ) -> ImportResult:
        return await self._send(*_Calls.load(catalog, document, format, replace))

    async def delete_catalog(self, catalog: str) -> None:
        await self._send(_Calls.delete_catalog(catalog))


# -- the retrieved tools in the shapes agent APIs take ------------------------------------------------


def _function(hit: ToolHit) -> dict[str, Any]:
    return hit.function.get("function") or {"name": hit.name, "description": "", "parameters": {"type": "object"}}


def openai_tools(hits: Iterable[ToolHit]) -> list[dict[str, Any]]:
    """Chat Completions `tools`: [{"type": "function", "function": {name, description, parameters}}]."""
    return [{"type": "function", "function": _function(h)} for h in hits]


def responses_tools(hits: Iterable[ToolHit]) -> list[dict[str, Any]]:
    """OpenAI Responses API function tools (flat): [{"type": "function", name, description, parameters}]."""
    return [{"type": "function", **_function(h)} for h in hits]


def mcp_tools(hits: Iterable[ToolHit]) -> list[dict[str, Any]]:
    """MCP tool definitions: [{name, description, inputSchema}]."""
    out = []
    for h in hits:
        f = _function(h)
        out.append({"name": f["name"], "description": f.get("description", ""), "inputSchema": f["parameters"]})
    return out


def anthropic_tools(hits: Iterable[ToolHit]) -> list[dict[str, Any]]:
    """Claude Messages API tools: [{name, description, input_schema}]."""
    out = []
    for h in hits:
        f = _function(h)
        out.append({"name": f["name"], "description": f.get("description", ""), "input_schema": f["parameters"]})
    return out
