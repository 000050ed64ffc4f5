"""One root exception with narrow subclasses; the CLI and API map them to exit codes / HTTP codes."""


class KgToolsError(Exception):
    """Base class of every error kg-tools raises on purpose."""


class ConfigurationError(KgToolsError):
    """A setting is missing or invalid."""


class Neo4jServerError(KgToolsError):
    """The local Neo4j server could not be installed, started or stopped."""


class DatabaseUnavailableError(KgToolsError):
    """Neo4j cannot be reached."""


class OutcomeUnknownError(DatabaseUnavailableError):
    """The connection to Neo4j broke while a write was committing: it may or may not have committed."""


class WriteConflictError(KgToolsError):
    """A write kept conflicting with concurrent writers (deadlock, entity deleted meanwhile) after retries (HTTP 409)."""


class SchemaMismatchError(KgToolsError):
    """The graph's indexes disagree with the configured embedder."""


class CatalogError(KgToolsError):
    """A catalog failed validation; `problems` lists every offender."""

    def __init__(self, message: str, problems: list[str] | None = None):
        self.problems = list(problems or [])
        detail = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{message}\n{detail}" if detail else message)


class DocumentTooLargeError(CatalogError):
    """A document that would expand beyond a limit once read (YAML aliases, OpenAPI $refs) (HTTP 413)."""


class ToolConflictError(CatalogError):
    """A write that conflicts with the graph's current state or with its target: the PUT body names
    another tool than the path, or a dependency target vanished while the request ran (HTTP 409)."""


class DanglingReferenceError(ToolConflictError):
    """Well-formed tools that depend on a tool that does not exist, or on themselves (HTTP 409)."""


class InvalidTextError(KgToolsError):
    """Text that cannot be stored or embedded (a lone UTF-16 surrogate)."""


class ToolNotFoundError(KgToolsError):
    """A named tool does not exist."""

    def __init__(self, name: str, catalog: str | None = None):
        self.name, self.catalog = name, catalog
        super().__init__(f"tool not found: {name!r}" + (f" in catalog {catalog!r}" if catalog is not None else ""))


class LLMError(KgToolsError):
    """An LLM call failed or returned an invalid answer."""


class LLMInvalidAnswerError(LLMError):
    """The LLM answered, but not with JSON matching the requested schema."""


class UnknownStageError(KgToolsError):
    """A retrieval stage or reranker name that is not registered."""


class EvalError(KgToolsError):
    """An evaluation cannot run as asked (unknown method, no reranker configured ...)."""


class MergeIntegrityError(KgToolsError):
    """A merge plan violates an integrity rule (tool in two clusters, kept and merged, phi not total)."""


class MergeRunNotFoundError(KgToolsError):
    """No merge run with this id."""

    def __init__(self, run_id: str):
        self.run_id = run_id
        super().__init__(f"merge run not found: {run_id!r} (see `kg-tools merge list`)")


class StalePlanError(KgToolsError):
    """The graph changed since the merge plan was made (tools missing or already merged)."""


class AmbiguousToolError(ToolConflictError):
    """A bare tool name that several catalogs hold: name the catalog (HTTP 409; `catalogs` lists them)."""

    def __init__(self, name: str, catalogs: list[str]):
        self.name, self.catalogs = name, list(catalogs)
        super().__init__(
            f"tool name {name!r} is in {len(self.catalogs)} catalogs; name the catalog (`catalog`)",
            [f"catalog {c!r}" for c in self.catalogs],
        )


class GatewayCatalogError(KgToolsError):
    """A REST or CLI write to a catalog a gateway serves (HTTP 403): the gateway's sync owns it."""

    def __init__(self, catalog: str, gateways: list[str]):
        self.catalog, self.gateways = catalog, list(gateways)
        served = f"gateway(s) {', '.join(self.gateways)}"
        super().__init__(
            f"catalog {catalog!r} is served by {served}: its tools change only through the gateway's sync; "
            f"nothing written (remove the server from the gateway config(s) to delete it)"
        )


class NameCollisionError(ToolConflictError):
    """Tools of the loaded catalog already exist in another catalog (load with --takeover to move them)."""


class DependencyRunNotFoundError(KgToolsError):
    """No dependency inference run with this id."""

    def __init__(self, run_id: str):
        self.run_id = run_id
        super().__init__(f"dependency run not found: {run_id!r} (see `kg-tools deps list`)")


class CatalogNotFoundError(KgToolsError):
    """No tool belongs to this catalog."""

    def __init__(self, catalog: str):
        self.catalog = catalog
        super().__init__(f"catalog not found: no tools in catalog {catalog!r}")


class CatalogBusyError(KgToolsError):
    """Another load of the same catalog is writing a new version of it (HTTP 409)."""


class DatabaseMemoryError(KgToolsError):
    """Neo4j ran out of (transaction) memory: the message names the setting to raise (HTTP 503)."""


class InvalidArgumentsError(KgToolsError):
    """The arguments of an MCP tool call fail its checks: the model can correct them (an `isError` result)."""


class GatewayError(KgToolsError):
    """`kg-tools gateway` refused a request or could not forward it. `tool`, `server` and `rule` name what it
    was about (the JSON-RPC `data` when it is a protocol error: kg_tools/mcp_errors.py)."""

    def __init__(self, message: str, *, tool: str | None = None, server: str | None = None, rule: str | None = None):
        self.tool, self.server, self.rule = tool, server, rule
        super().__init__(message)

    @property
    def data(self) -> dict[str, str] | None:
        data = {k: v for k, v in (("tool", self.tool), ("server", self.server), ("rule", self.rule)) if v}
        return data or None


class UnauthorizedError(GatewayError):
    """An HTTP request without a profile's bearer token: nothing is searched or called."""


class UnknownToolError(GatewayError):
    """A name that is not a tool of a connected server."""


class UnknownServerError(GatewayError):
    """A server name that is not one of the gateway's upstreams."""


class PolicyDeniedError(GatewayError):
    """The caller's profile does not allow the tool; `rule` names the rule that decided."""


class UpstreamCallError(GatewayError):
    """An upstream server could not be reached, failed the call or did not answer in time (`timeout`)."""

    def __init__(self, server: str, message: str, *, code: int | None = None, timeout: bool = False):
        self.code, self.timeout = code, timeout
        super().__init__(f"upstream {server!r}: {message}", server=server)
