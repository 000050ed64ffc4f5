"""Build the combined catalogs of the real-catalog dev set from the raw files (run from the repo root):

    PYTHONPATH=. python benchmarks/data/real/make/build_catalogs.py          # every catalog
    PYTHONPATH=. python benchmarks/data/real/make/build_catalogs.py steps    # catalog_steps.json only

- catalog_mcp.json: every MCP server's tools/list (mcp/*.json) in our JSON catalog format, named
  `<server>__<tool>`, translated as `load`'s MCP import does (loaders.document.mcp_entries, which keeps
  `title`, `output_schema` (outputSchema) and `annotations`).
- catalog_all.json: catalog_mcp.json plus every OpenAPI spec (openapi/*) as `kg-tools load openapi` makes
  it today (loaders.openapi), names unchanged (no OpenAPI operation name collides with another).
- catalog_xl.json: catalog_all.json plus the servers marked `"set": "xl"` in servers.json (more servers, several
  of which overlap the others: web search, page fetch, local files, email).
- catalog_steps.json: the tools of catalog_all.json as that file holds them, plus the servers of servers_steps.json (`"set": "steps"`: documents,
  spreadsheets, notes, tasks, a shell, weather, finance, translation ...), for the multi-step requests of
  queries_steps.txt; the xl servers are left out so that each step has one right tool (see ../README.md).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from kg_tools.loaders import openapi
from kg_tools.loaders.document import mcp_entries

HERE = Path(__file__).resolve().parent
REAL = HERE.parent
SPECS = ("spotify.yml", "resend.yaml", "discord.json", "petstore.yaml")


def mcp_tools(wanted: str) -> list[dict]:
    """The tools of the servers of one set (base, xl or steps), `<server>__<tool>`, servers by name."""
    sets = {}
    for servers_file in ("servers.json", "servers_steps.json"):
        sets |= {k: v.get("set", "base") for k, v in json.loads((HERE / servers_file).read_text()).items()}
    out = []
    for path in sorted((REAL / "mcp").glob("*.json")):
        record = json.loads(path.read_text())
        server = record["server"]
        if sets[server] != wanted:
            continue
        for raw, entry in zip(record["tools"], mcp_entries(record["tools"])):
            entry["name"] = f"{server}__{raw['name']}"
            entry["mcp_server"] = server
            out.append(entry)
    return out


def openapi_tools() -> list[dict]:
    out = []
    for spec in SPECS:
        for entry in openapi.load(REAL / "openapi" / spec).tools:
            entry["openapi_spec"] = Path(spec).stem
            out.append(entry)
    return out


def write(name: str, tools: list[dict]) -> None:
    names = [t["name"] for t in tools]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SystemExit(f"{name}: duplicate tool names {dupes}")
    lines = ",\n".join(json.dumps(t, ensure_ascii=False, separators=(",", ":")) for t in tools)
    (REAL / name).write_text("[\n" + lines + "\n]\n")  # one tool a line
    print(f"{name}: {len(tools)} tools")


if __name__ == "__main__":
    if sys.argv[1:] != ["steps"]:
        mcp, specs = mcp_tools("base"), openapi_tools()
        write("catalog_mcp.json", mcp)
        write("catalog_all.json", mcp + specs)
        write("catalog_xl.json", mcp + specs + mcp_tools("xl"))
    write("catalog_steps.json", json.loads((REAL / "catalog_all.json").read_text()) + mcp_tools("steps"))
