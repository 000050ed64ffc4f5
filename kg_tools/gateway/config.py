"""The gateway's config file: the `mcpServers` JSON MCP clients use, plus an optional "kg-tools" block.

    {"mcpServers": {
        "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/repo"]},
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ..."}}},
     "kg-tools": {"name": "team", "call_timeout": 60, "start_timeout": 30, "default_profile": "agent",
                  "profiles": {"agent": {"allow": ["*"], "deny": ["git__*"], "read_only": false,
                                         "allow_destructive": ["filesystem__write_file"],
                                         "token_env": "KG_TOOLS_AGENT_TOKEN"}}}}

A server key becomes the catalog name and the `<key>__` prefix of its tools, so it may hold only
letters, digits, `_`, `-`, `.` and no `__`. `name` is the gateway's name in the graph: it deletes only the
servers it owns (default: from the config file's path, `default_name`). Every problem is reported at once, naming the field.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kg_tools.errors import ConfigurationError

SERVER_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}$")
GATEWAY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
Glob = Annotated[str, Field(min_length=1, max_length=200)]


class UpstreamConfig(BaseModel):
    """One entry of `mcpServers`: a command (stdio) or a url (streamable HTTP), not both."""

    model_config = ConfigDict(extra="ignore")  # clients add their own keys (e.g. "disabled", "type")
    command: str | None = Field(None, min_length=1)
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] | None = None
    cwd: str | None = None
    url: str | None = Field(None, pattern=r"^https?://")
    headers: dict[str, str] = Field(default_factory=dict)
    disabled: bool = False
    trusted: bool = False  # its annotations count for a profile's read_only (otherwise hints only)
    accept_changes: bool = False  # changed or new tool definitions are pinned at once, not held for approval

    @model_validator(mode="after")
    def _one_transport(self):
        if bool(self.command) == bool(self.url):
            raise ValueError("give either command (stdio) or url (streamable HTTP)")
        return self

    def where(self) -> str:
        return self.url or " ".join([self.command or "", *self.args]).strip()


class Profile(BaseModel):
    """What one agent may find and call. Globs match `server__tool` names (fnmatch, case-sensitive)."""

    model_config = ConfigDict(extra="forbid")
    allow: list[Glob] = Field(default_factory=lambda: ["*"])
    deny: list[Glob] = Field(default_factory=list)
    read_only: bool = False
    read_only_tools: list[Glob] = Field(default_factory=list)  # read-only for `read_only`, whatever the server says
    allow_destructive: list[Glob] = Field(default_factory=list)
    token: str | None = Field(None, min_length=16)
    token_env: str | None = Field(None, min_length=1)

    def bearer_token(self, name: str) -> str | None:
        if self.token_env is None:
            return self.token
        value = os.environ.get(self.token_env)
        if not value or len(value) < 16:
            raise ConfigurationError(
                f"profile {name!r}: environment variable {self.token_env} must hold a token of at least 16 characters"
            )
        return value


class GatewayOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(
        None,
        pattern=GATEWAY_NAME.pattern,
        description="This gateway's name in the graph (what it owns); default: from the config file's path.",
    )
    call_timeout: float = Field(60.0, gt=0, le=3600)
    start_timeout: float = Field(30.0, gt=0, le=600)
    default_profile: str | None = None
    profiles: dict[str, Profile] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _known_default(self):
        if self.default_profile is not None and self.default_profile not in self.profiles:
            raise ValueError(f"default_profile {self.default_profile!r} is not one of the profiles")
        return self


class GatewayConfig(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    servers: dict[str, UpstreamConfig] = Field(alias="mcpServers")
    options: GatewayOptions = Field(default_factory=GatewayOptions, alias="kg-tools")

    @field_validator("servers")
    @classmethod
    def _keys(cls, servers: dict) -> dict:
        bad = [k for k in servers if not SERVER_KEY.match(k) or "__" in k]
        if bad:
            raise ValueError(
                f"server key(s) {', '.join(map(repr, bad))}: use 1-40 letters, digits, '_', '-', '.' "
                "(no '__'; the key prefixes every tool name)"
            )
        return servers

    @property
    def name(self) -> str:
        """The gateway's name: what it owns in the graph (kg_tools/gateway/sync.py: claim, forget)."""
        return self.options.name or "gateway"

    def enabled(self) -> dict[str, UpstreamConfig]:
        return {k: v for k, v in self.servers.items() if not v.disabled}


def load_config(path: str | Path) -> GatewayConfig:
    """Read and validate FILE; ConfigurationError names the file and every problem."""
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigurationError(f"gateway config {path}: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigurationError(f"gateway config {path}: not JSON ({exc})") from exc
    config = parse_config(document, str(path))
    if config.options.name is None:
        config.options.name = default_name(path)
    return config


def default_name(path: str | Path) -> str:
    """A gateway's name when its config gives none: the file's stem and a hash of its absolute path, so two
    config files (Claude Desktop's, Cursor's, a project's) are two gateways and one file is always the same."""

    resolved = Path(path).expanduser().resolve()
    stem = re.sub(r"[^A-Za-z0-9_.\-]", "_", resolved.stem).lstrip("_.-")[:40] or "gateway"
    return f"{stem}-{hashlib.sha256(str(resolved).encode()).hexdigest()[:8]}"


def parse_config(document, where: str = "gateway config") -> GatewayConfig:
    """Validate a config document: `mcpServers` (Claude, Cursor ...) or VS Code's `servers` (mcp.json)."""
    if isinstance(document, dict) and "mcpServers" not in document and isinstance(document.get("servers"), dict):
        document = {**document, "mcpServers": document["servers"]}  # VS Code's mcp.json
    elif isinstance(document, dict) and "mcpServers" in document and "servers" in document:
        raise ConfigurationError(f'{where}: give "mcpServers" or VS Code\'s "servers", not both')
    if not isinstance(document, dict) or not isinstance(document.get("mcpServers"), dict):
        raise ConfigurationError(
            f'{where}: expected an object with "mcpServers" (or VS Code\'s "servers"): {{name: server, ...}}'
        )
    try:
        config = GatewayConfig.model_validate(document)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(_label(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:10])
        raise ConfigurationError(f"{where}: {problems}") from exc
    if not config.enabled():
        raise ConfigurationError(f"{where}: mcpServers lists no enabled server")
    return config


def _label(part) -> str:
    return {"servers": "mcpServers", "options": "kg-tools"}.get(part, str(part))
