"""Traces and metrics with the standard libraries (docs/observability.md).

- **Metrics** (prometheus-client, core): request counts and latency by route, errors by code, upstream
  health and syncs of the gateway; served at `/metrics` by the REST API and the HTTP gateway. Several
  `serve --workers` share one `PROMETHEUS_MULTIPROC_DIR` (set by `serve`), so any worker answers for all.
- **Traces** (OpenTelemetry: the API is core, the SDK and the OTLP exporter the `otel` extra): spans for
  retrieve (under FastAPI's own request span), MCP search/get/call, syncs and upstream calls, with the
  retrieval stages as child spans. Exported only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (or a program
  installs its own TracerProvider, as the tests do with the in-memory exporter); otherwise the API's no-op
  tracer makes a span cost about a microsecond."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from typing import Any

from opentelemetry import trace
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

log = logging.getLogger("kg_tools.telemetry")


# -- metrics ------------------------------------------------------------------------------------------

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    "kg_tools_http_requests_total",
    "HTTP requests answered, by route template and status.",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "kg_tools_http_request_seconds",
    "HTTP request latency by route template.",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
)
ERRORS = Counter("kg_tools_errors_total", "Error answers by surface and error code.", ["surface", "code"])
MCP_CALLS = Counter(
    "kg_tools_mcp_calls_total", "MCP tool calls by face, tool and outcome.", ["face", "tool", "outcome"]
)
MCP_LATENCY = Histogram(
    "kg_tools_mcp_call_seconds", "MCP tool call latency by face and tool.", ["face", "tool"], buckets=LATENCY_BUCKETS
)
UPSTREAM_CALLS = Counter(
    "kg_tools_upstream_calls_total", "Gateway calls to upstream servers by server and outcome.", ["server", "outcome"]
)
UPSTREAM_UP = Gauge(
    "kg_tools_upstream_up",
    "1 while an upstream server is connected, 0 when it is down.",
    ["server"],
    multiprocess_mode="max",
)
SYNCS = Counter("kg_tools_gateway_syncs_total", "Gateway catalog syncs by server and outcome.", ["server", "outcome"])


def metrics_page() -> tuple[bytes, str]:
    """The Prometheus text exposition (body, content type): every worker's when several share a
    `PROMETHEUS_MULTIPROC_DIR`, else this process's."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST


class MetricsMiddleware:
    """ASGI middleware counting HTTP requests by method, route template and status. `route_of(scope)`
    names the template (never the raw path: labels stay bounded); else the matched route's own path,
    else `unmatched`. Add it innermost, where the router's `route` is seen."""

    def __init__(self, app, route_of: Callable[[dict], str | None] = lambda _: None):
        self.app, self.route_of = app, route_of

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        status = {"code": 500}

        async def observe(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        start = time.perf_counter()
        try:
            await self.app(scope, receive, observe)
        finally:
            route = self.route_of(scope) or getattr(scope.get("route"), "path", None) or "unmatched"
            HTTP_REQUESTS.labels(scope["method"], route, str(status["code"])).inc()
            HTTP_LATENCY.labels(scope["method"], route).observe(time.perf_counter() - start)


# -- traces -------------------------------------------------------------------------------------------


def setup_tracing(service: str) -> bool:
    """Export spans over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set and the `otel` extra is
    installed; True when it did. A provider already installed (a test's, a host program's) is kept."""
    if not os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        return False
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: PLC0415 - the otel extra
        from opentelemetry.sdk.resources import Resource  # noqa: PLC0415 - the otel extra
        from opentelemetry.sdk.trace import TracerProvider  # noqa: PLC0415 - the otel extra
        from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: PLC0415 - the otel extra
    except ImportError:
        log.warning("OTEL_EXPORTER_OTLP_ENDPOINT is set but the `otel` extra is not installed: no traces")
        return False
    if isinstance(trace.get_tracer_provider(), TracerProvider):
        return True
    provider = TracerProvider(resource=Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", service)}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    return True


def span(name: str, attributes: Mapping[str, Any] | None = None, context: Any = None):
    """A context manager: an OpenTelemetry span, a child of the current one (or of `context`). With no
    tracer provider installed, a child span would be the current one again (non-recording): nothing is
    made (15-40 us a span, 5 a retrieval)."""
    if context is None and isinstance(
        trace.get_tracer_provider(), (trace.ProxyTracerProvider, trace.NoOpTracerProvider)
    ):
        return nullcontext()
    clean = {k: v for k, v in (attributes or {}).items() if v is not None}
    return trace.get_tracer("kg_tools").start_as_current_span(name, context=context, attributes=clean)


@contextmanager
def mcp_call(face: str, tool: str, context: Any = None) -> Iterator[None]:
    """One MCP tool call of `face` (`mcp`, `gateway`): a span `<face> <tool>`, counted and timed; the
    outcome is `error` when it raises (MCP errors and isError results both leave by an exception)."""
    with span(f"{face} {tool}", {"mcp.tool": tool}, context=context), MCP_LATENCY.labels(face, tool).time():
        try:
            yield
        except BaseException:
            MCP_CALLS.labels(face, tool, "error").inc()
            raise
    MCP_CALLS.labels(face, tool, "ok").inc()
