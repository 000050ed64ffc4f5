"""Dump the real `tools/list` of the MCP servers in a servers file (run by hand; the servers are
installed outside the repository). Writes <the servers file's folder>/../mcp/<server>.json with provenance
(benchmarks/data/deps and benchmarks/data/real both use it).

    .venv/bin/python benchmarks/data/deps/make/dump_mcp.py SERVERS.json /tmp/mcpsrv [SERVER ...]

SERVERS.json: {key: {package, registry, version, license, source, command: [... "{root}" ...], env}}.
"""
from __future__ import annotations

import datetime
import json
import os
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import PaginatedRequestParams



async def list_tools(command: list[str], env: dict) -> tuple[dict, list[dict]]:
    params = StdioServerParameters(command=command[0], args=command[1:], env={**os.environ, **env})
    with open(os.devnull, "w") as devnull:
        async with stdio_client(params, errlog=devnull) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                tools, cursor = [], None
                while True:
                    page = await session.list_tools(
                        params=PaginatedRequestParams(cursor=cursor) if cursor else None)
                    tools += [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in page.tools]
                    cursor = page.next_cursor
                    if not cursor:
                        info = init.server_info.model_dump(by_alias=True, exclude_none=True, mode="json")
                        return info, tools


def main(servers_file: Path, root: Path, only: list[str]) -> None:
    servers = json.loads(servers_file.read_text())
    out = servers_file.resolve().parent.parent / "mcp"  # make/servers*.json -> mcp/<server>.json
    out.mkdir(exist_ok=True)
    for key, spec in servers.items():
        if only and key not in only:
            continue
        command = [part.replace("{root}", str(root)) for part in spec["command"]]
        env = {k: v.replace("{root}", str(root)) for k, v in spec.get("env", {}).items()}  # key files under ROOT
        async def run():
            with anyio.fail_after(90):
                return await list_tools(command, env)

        try:
            info, tools = anyio.run(run)
        except BaseException as exc:  # noqa: BLE001 - report and go on with the next server
            print(f"{key}: FAILED {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        record = {
            "server": key,
            "provenance": {
                "package": spec["package"], "registry": spec["registry"], "version": spec["version"],
                "license": spec["license"], "source": spec.get("source"),
                "command": " ".join(spec["command"]).replace("{root}", "<install dir>"),
                "env": {k: "<dummy>" for k in spec.get("env", {})},
                "server_info": info,
                "dumped_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "method": "tools/list via the official mcp Python SDK client (stdio), all pages",
            },
            "tools": tools,
        }
        (out / f"{key}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        print(f"{key}: {len(tools)} tools")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
