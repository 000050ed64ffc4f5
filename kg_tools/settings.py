"""The one settings object: environment variables (and `.env`), passed down explicitly."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from kg_tools import DATA_HOME, IN_CHECKOUT, PROJECT_ROOT
from kg_tools.errors import ConfigurationError


def _env(*names: str) -> AliasChoices:
    return AliasChoices(*names)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    # Neo4j connection. The password defaults to the one `kg-tools neo4j install` generated.
    # Unset: the local server's Bolt port (KG_TOOLS_BOLT_PORT).
    neo4j_uri: str | None = Field(None, validation_alias=_env("NEO4J_URI"))
    neo4j_user: str = Field("neo4j", validation_alias=_env("NEO4J_USER", "NEO4J_USERNAME"))
    neo4j_password: str | None = Field(None, validation_alias=_env("NEO4J_PASSWORD"))
    neo4j_database: str = Field("neo4j", validation_alias=_env("NEO4J_DATABASE"))
    # How long the graph gateway keeps retrying a transient Neo4j error (kg_tools/graph.py).
    neo4j_retry_seconds: float = Field(10.0, ge=0.0, validation_alias=_env("KG_TOOLS_NEO4J_RETRY_SECONDS"))
    # After Neo4j rejects the login, fail at once for this long instead of logging in again: Neo4j
    # locks a user out after a few failed logins, correctly configured clients too (kg_tools/graph.py).
    neo4j_auth_backoff_seconds: float = Field(
        30.0, ge=0.0, validation_alias=_env("KG_TOOLS_NEO4J_AUTH_BACKOFF_SECONDS")
    )

    # The local, Maven-assembled server (`kg-tools neo4j ...`).
    neo4j_home: Path = Field(DATA_HOME / ".neo4j", validation_alias=_env("KG_TOOLS_NEO4J_HOME"))
    neo4j_bolt_port: int = Field(7687, validation_alias=_env("KG_TOOLS_BOLT_PORT"))
    neo4j_http_port: int = Field(7474, validation_alias=_env("KG_TOOLS_HTTP_PORT"))
    neo4j_heap: str = Field("1g", validation_alias=_env("KG_TOOLS_NEO4J_HEAP"))
    neo4j_pagecache: str = Field("256m", validation_alias=_env("KG_TOOLS_NEO4J_PAGECACHE"))
    # Lucene's RAM buffer for index writes on the local server (None: Neo4j's 16 MB); "1g" for 100,000 tools.
    neo4j_index_buffer: str | None = Field(None, validation_alias=_env("KG_TOOLS_NEO4J_INDEX_BUFFER"))
    # Segments of the vector index Lucene lets pile up before merging them (None: Neo4j's 50); bounded loads
    # commit once per batch, and two 100,000-tool loads left 104 segments (docs/scale.md). Opt-in, unmeasured.
    neo4j_vector_merge_factor: int | None = Field(
        None, ge=2, le=1000, validation_alias=_env("KG_TOOLS_NEO4J_VECTOR_MERGE_FACTOR")
    )
    neo4j_start_timeout: float = Field(120.0, validation_alias=_env("KG_TOOLS_NEO4J_START_TIMEOUT"))

    # Data and models.
    datasets_dir: Path = Field(
        PROJECT_ROOT.parent / "shared" / "datasets" if IN_CHECKOUT else DATA_HOME / "datasets",
        validation_alias=_env("KG_TOOLS_DATASETS"),
    )
    embed_model: str | None = Field(None, validation_alias=_env("KG_TOOLS_EMBED_MODEL"))
    embed_batch_size: int = Field(64, validation_alias=_env("KG_TOOLS_EMBED_BATCH_SIZE"))
    # onnx: the install-time ONNX export of the model (torch, with a warning, when there is none).
    embed_backend: Literal["onnx", "torch"] = Field("onnx", validation_alias=_env("KG_TOOLS_EMBED_BACKEND"))
    models_dir: Path = Field(DATA_HOME / ".models", validation_alias=_env("KG_TOOLS_MODELS_DIR"))
    cross_encoder_model: str | None = Field(None, validation_alias=_env("KG_TOOLS_CROSS_ENCODER"))
    write_batch_size: int = Field(500, ge=1, validation_alias=_env("KG_TOOLS_WRITE_BATCH_SIZE"))
    # Vectors per transaction of a large load or a reindex (~13 KB of transaction memory each at 384
    # dimensions): Neo4j's vector index gains a Lucene segment per commit and a query searches every
    # segment, so 100,000 tools written 500 at a time left ~200 segments (5,000 at a time: ~20).
    vector_write_batch_size: int = Field(5000, ge=1, validation_alias=_env("KG_TOOLS_VECTOR_WRITE_BATCH_SIZE"))

    # REST API.
    api_key: str | None = Field(None, validation_alias=_env("KG_TOOLS_API_KEY"))
    api_host: str = Field("127.0.0.1", validation_alias=_env("KG_TOOLS_API_HOST"))
    api_port: int = Field(8000, validation_alias=_env("KG_TOOLS_API_PORT"))
    # Request body limits (413 above): every route, and POST /v1/catalogs/{name}/import (whole catalogs).
    api_max_body_bytes: int = Field(1024 * 1024, ge=1024, validation_alias=_env("KG_TOOLS_API_MAX_BODY_BYTES"))
    api_max_import_bytes: int = Field(20 * 1024 * 1024, ge=1024, validation_alias=_env("KG_TOOLS_API_MAX_IMPORT_BYTES"))
    # Which Host headers the API answers (421 otherwise; against DNS rebinding) and which other origins
    # may POST/PUT/DELETE (403 otherwise; the server's own origin always may). Comma-separated; unset
    # hosts: derived from the bind address (loopback names for 127.0.0.1, any for 0.0.0.0). docs/security.md
    api_allowed_hosts: Annotated[list[str] | None, NoDecode] = Field(
        None, validation_alias=_env("KG_TOOLS_API_ALLOWED_HOSTS")
    )
    api_allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, validation_alias=_env("KG_TOOLS_API_ALLOWED_ORIGINS")
    )
    # Retrieval and inferred (or observed) dependency edges: below `follow` an edge is not followed; below `sure`
    # the dependency is listed after the next seed instead of before it (chosen on dev: docs/dependencies.md).
    deps_follow_min_confidence: float = Field(
        0.0, ge=0.0, le=1.0, validation_alias=_env("KG_TOOLS_DEPS_FOLLOW_MIN_CONFIDENCE")
    )
    deps_sure_confidence: float = Field(0.5, ge=0.0, le=1.0, validation_alias=_env("KG_TOOLS_DEPS_SURE_CONFIDENCE"))
    # Inferred dependencies of HTTP seeds by what the request says (kg_tools/retrieval/needed.py): those it likely
    # does not need (an optional filter of a dependency, a second provider naming neither the value nor the request)
    # are listed last; a doubtful one whose parameter the query names is listed with the sure ones. false:
    # confidence alone (chosen on dev: docs/dependencies.md, "sixth session").
    deps_by_request: bool = Field(True, validation_alias=_env("KG_TOOLS_DEPS_BY_REQUEST"))
    # An inferred dependency of a (non-HTTP) seed whose cosine to the query is below this x the next candidate's, and
    # that fills only optional parameters, is listed last, after the fill (kg_tools/retrieval/relevance.py; 0: off;
    # chosen on dev: docs/dependencies.md, "fifteenth session: dependencies far from the query").
    deps_query_relevance: float = Field(0.5, ge=0.0, le=1.0, validation_alias=_env("KG_TOOLS_DEPS_QUERY_RELEVANCE"))
    # With deps_query_relevance on, at most this many inferred dependencies of a (non-HTTP) seed that are not :Core and
    # not on a chain of its required inputs are listed before the next seed, the later ones after it (order.py
    # `_after_next_seed`; 0: no limit; chosen on dev: docs/dependencies.md, "sixteenth session: one optional lookup
    # before the next seed").
    deps_before_next_seed: int = Field(1, ge=0, validation_alias=_env("KG_TOOLS_DEPS_BEFORE_NEXT_SEED"))
    # With deps_query_relevance on, an inferred dependency of a (non-HTTP) seed that is not :Core, required or not,
    # whose cosine to the query is below this x the next seed's, is listed after the next seed with what is reached
    # through it (order.py `_after_next_seed`; 0: off, the default: 0.3 gained the union row's dev halves one request
    # and lost ToolLinkOS's dev half 0.002; docs/dependencies.md, "seventeenth session: a far lookup after the next
    # seed").
    deps_far_after_next_seed: float = Field(
        0.0, ge=0.0, le=1.0, validation_alias=_env("KG_TOOLS_DEPS_FAR_AFTER_NEXT_SEED")
    )
    # POST /v1/deps/infer works through at most this many tools per request (422 above; the CLI has no limit).
    api_max_infer_tools: int = Field(1000, ge=1, validation_alias=_env("KG_TOOLS_API_MAX_INFER_TOOLS"))
    mcp_port: int = Field(8765, validation_alias=_env("KG_TOOLS_MCP_PORT"))  # `kg-tools mcp --transport http`
    # MCP over HTTP (`kg-tools mcp`, `kg-tools gateway`): open sessions in total and per client (a token's
    # profile; without tokens, the client address). Over a cap a new session is refused (503 / 429).
    mcp_max_sessions: int = Field(1000, ge=1, validation_alias=_env("KG_TOOLS_MCP_MAX_SESSIONS"))
    mcp_sessions_per_client: int = Field(50, ge=1, validation_alias=_env("KG_TOOLS_MCP_SESSIONS_PER_CLIENT"))
    # Processes of `kg-tools serve`. One process already overlaps requests (threadpool + one
    # micro-batching embedder thread); a second one lets Python work use the second core.
    api_workers: int = Field(1, ge=1, le=64, validation_alias=_env("KG_TOOLS_API_WORKERS"))
    # Intra-op threads of the query embedder in the API (0 = the backend's default, one per core).
    # One short text gains nothing from more threads, and on a busy 2-core machine two threads
    # spin against each other (measured: embedding p50 ~25 ms with 1 thread vs ~130 ms with 2).
    embed_threads: int = Field(1, ge=0, validation_alias=_env("KG_TOOLS_EMBED_THREADS", "KG_TOOLS_TORCH_THREADS"))
    # Intra-op threads for a query embedded while no other is (nothing waiting, no other model run):
    # a second onnx session whose threads split that one query (0 = one per core; 1 = no second
    # session). Measured on an idle 2-core machine: 8.6-8.7 ms on one thread, 5.4-5.6 ms on two.
    embed_solo_threads: int = Field(0, ge=0, le=64, validation_alias=_env("KG_TOOLS_EMBED_SOLO_THREADS"))
    # Micro-batching of query embeddings across in-flight requests: wait up to this long for more
    # queries (0 = batch only the queries already waiting), at most this many per model run.
    embed_batch_window_ms: float = Field(0.0, ge=0.0, le=50.0, validation_alias=_env("KG_TOOLS_EMBED_BATCH_WINDOW_MS"))
    embed_max_batch: int = Field(8, ge=1, le=256, validation_alias=_env("KG_TOOLS_EMBED_MAX_BATCH"))
    # Threads running the model over those batches (0 = one per core).
    embed_workers: int = Field(0, ge=0, le=64, validation_alias=_env("KG_TOOLS_EMBED_WORKERS"))
    # Seeds of the default retrieval remembered per process (kg_tools/retrieval/seed_cache.py): each entry is
    # one tool's row (spec, kind, members, dependencies) valid while the graph is unchanged. 0 = off.
    retrieval_cache_size: int = Field(4096, ge=0, le=1_000_000, validation_alias=_env("KG_TOOLS_RETRIEVAL_CACHE_SIZE"))

    # LLM (any OpenAI-compatible server). Unset base URL = offline paths.
    openai_base_url: str | None = Field(None, validation_alias=_env("OPENAI_BASE_URL"))
    openai_api_key: str | None = Field(None, validation_alias=_env("OPENAI_API_KEY"))
    llm_model: str = Field("gpt-4o", validation_alias=_env("KG_TOOLS_LLM_MODEL", "OPENAI_MODEL"))
    llm_timeout: float = Field(30.0, validation_alias=_env("KG_TOOLS_LLM_TIMEOUT"))
    llm_max_retries: int = Field(2, validation_alias=_env("KG_TOOLS_LLM_MAX_RETRIES"))
    llm_max_calls_per_request: int = Field(4, validation_alias=_env("KG_TOOLS_LLM_MAX_CALLS"))

    # Advanced retrieval stages (kg_tools/retrieval/stages/).
    rerank_top_m: int = Field(50, ge=1, le=200, validation_alias=_env("KG_TOOLS_RERANK_TOP_M"))
    llm_rerank_top_m: int = Field(20, ge=1, le=100, validation_alias=_env("KG_TOOLS_LLM_RERANK_TOP_M"))
    # ToolScope's Auto-Correction of merge clusters (kg_tools/merge/autocorrect.py); off: every connected
    # component of accepted pairs is merged as it is (the paper's ablation without it).
    merge_auto_correct: bool = Field(True, validation_alias=_env("KG_TOOLS_MERGE_AUTO_CORRECT"))
    dedupe_threshold: float = Field(0.98, ge=0.0, le=1.0, validation_alias=_env("KG_TOOLS_DEDUPE_THRESHOLD"))
    # The server-score stage: weight of the query's similarity to a tool's server in the tool's score.
    server_score_weight: float = Field(0.4, ge=0.0, le=1.0, validation_alias=_env("KG_TOOLS_SERVER_SCORE_WEIGHT"))
    # The gateway's observed dependencies (kg_tools/deps/observed.py): record flows between real calls, and
    # promote one to a dependency edge once seen in this many distinct sessions (at most 64 are counted).
    observe_calls: bool = Field(True, validation_alias=_env("KG_TOOLS_OBSERVE_CALLS"))
    observed_promote_after: int = Field(3, ge=1, le=64, validation_alias=_env("KG_TOOLS_OBSERVED_PROMOTE_AFTER"))

    @field_validator("api_allowed_hosts", "api_allowed_origins", mode="before")
    @classmethod
    def _comma_separated(cls, value):
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @model_validator(mode="after")
    def _default_uri(self) -> Settings:
        if not self.neo4j_uri:
            self.neo4j_uri = f"bolt://127.0.0.1:{self.neo4j_bolt_port}"
        return self

    @property
    def password_file(self) -> Path:
        return self.neo4j_home / "password"

    def resolved_password(self) -> str:
        """NEO4J_PASSWORD, else the password stored by `kg-tools neo4j install`."""
        if self.neo4j_password:
            return self.neo4j_password
        if self.password_file.exists():
            return self.password_file.read_text().strip()

        raise ConfigurationError(
            f"no Neo4j password: set NEO4J_PASSWORD or run `kg-tools neo4j install` (writes {self.password_file})"
        )

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_base_url)


def get_settings(**overrides) -> Settings:
    return Settings(**overrides)
