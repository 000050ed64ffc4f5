"""What the gateway's search_tools and get_tool return (their MCP output schemas). call_tool has none: it
passes the upstream server's result through unchanged."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from kg_tools.mcp_server import DirectDependency


class GatewayHit(BaseModel):
    name: str = Field(description="Pass it to call_tool (server__tool).")
    server: str
    description: str | None
    input_schema: dict[str, Any]
    why: str = Field(
        description="A search match (with its score), or the tool it is needed by (and whether that was observed in real calls)."
    )
    spec: dict[str, Any] | None = Field(None, description="The full definition (only with detail: full).")


class ServerRank(BaseModel):
    name: str
    title: str | None
    version: str | None
    score: float | None = Field(description="Similarity of the query to the server (null: never synced).")
    tools: int = Field(description="Its tools the caller's profile may use.")
    state: str | None = Field(None, description="starting, ready or down (started again after a backoff).")
    available: bool | None = Field(None, description="False while the server is down: its tools are not offered.")
    error: str | None = Field(None, description="The server's last failure, if any.")


class GatewaySearch(BaseModel):
    tools: list[GatewayHit] = Field(description="In the order to consider them.")
    servers: list[ServerRank] | None = Field(None, description="Only with rank_servers: best first.")
    truncated: str | None = Field(None, description="Present when tools were left out to fit max_tokens.")


class GatewayTool(BaseModel):
    name: str
    server: str
    upstream_name: str = Field(description="The tool's name on its server.")
    title: str | None
    description: str | None
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: dict[str, Any] | None
    dependencies: list[DirectDependency] = Field(description="Direct dependencies the caller may use.")
    available: bool | None = Field(None, description="False while its server is down: a call fails naming it.")
