"""gold_edges.txt (hand-written) -> gold_edges/<name>.json per catalog, gold_edges/mcp_<server>.json per MCP
server (raw names, against mcp/<server>.json), gold_edges/all.json (for catalog_all.json) and
gold_edges/all_xl.json (all.json + the extra servers' edges, for catalog_xl.json), in the format `kg-tools eval deps --catalog-file FILE --gold FILE` reads:
{"provenance", "catalog_file", "edges": [{source, target, parameter_name, type, reason, split}]}.
Run from the repo root:  PYTHONPATH=. python benchmarks/data/real/make/build_gold_edges.py

Checks every name and parameter against the catalog file as today's loaders read it. Split 60/40 by consumer
(all edges of a consumer tool in one half): within each catalog, consumers in order of first appearance,
0-2 of every five -> dev, 3-4 -> test.
"""
from __future__ import annotations

import json
from pathlib import Path

from kg_tools.loaders import json_catalog, openapi

HERE = Path(__file__).parent
REAL = HERE.parent
TYPES = {"PD": "PARAMETER_DIRECTLY_DEPENDS_ON", "PI": "PARAMETER_INDIRECTLY_DEPENDS_ON",
         "TD": "TOOL_DIRECTLY_DEPENDS_ON", "TI": "TOOL_INDIRECTLY_DEPENDS_ON"}
PROVENANCE = ("Written by hand for kg-tools from the APIs' and MCP servers' documentation and schemas "
              "(benchmarks/data/real/make/gold_edges.txt); see benchmarks/data/real/README.md.")


def catalog_tools(file: str) -> dict[str, dict]:
    path = REAL / file
    source = openapi.load(path) if path.parent.name == "openapi" else json_catalog.load(path)
    return {t["name"]: t for t in source.tools}


def split_list(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def parse(text: str) -> dict[str, dict]:
    sections, current = {}, None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            name, file = line[1:].split("]")
            current = sections[name] = {"file": file.strip(), "edges": [], "tools": catalog_tools(file.strip())}
            continue
        consumers, params, providers, kind, reason = (p.strip() for p in line.split(" | "))
        tools = current["tools"]
        params = [] if params == "-" else split_list(params)
        if consumers == "*":
            consumers = [t for t, spec in tools.items() if any(p["name"] in params for p in spec["parameters"])]
        else:
            consumers = split_list(consumers)
        for consumer in consumers:
            if consumer not in tools:
                raise SystemExit(f"gold_edges.txt:{n}: {consumer!r} is not a tool of {current['file']}")
            have = [p for p in params if p in {q["name"] for q in tools[consumer]["parameters"]}]
            if params and not have:
                raise SystemExit(f"gold_edges.txt:{n}: {consumer} has none of the parameters {params}")
            if (kind in ("TD", "TI")) != (not params):
                raise SystemExit(f"gold_edges.txt:{n}: tool-level types have parameter '-', parameter types a name")
            for provider in split_list(providers):
                if provider not in tools:
                    raise SystemExit(f"gold_edges.txt:{n}: {provider!r} is not a tool of {current['file']}")
                if provider == consumer:
                    continue  # `*` rules never make a tool its own provider
                for param in have or [None]:
                    current["edges"].append({"source": consumer, "target": provider, "parameter_name": param,
                                             "type": TYPES[kind], "reason": reason, "line": n})
    return sections


def main() -> None:
    sections = parse((HERE / "gold_edges.txt").read_text())
    (REAL / "gold_edges").mkdir(exist_ok=True)
    everything, xl = [], []
    for name, section in sections.items():
        keys = [(e["source"], e["target"], e["parameter_name"]) for e in section["edges"]]
        dupes = {k for k in keys if keys.count(k) > 1}
        if dupes:
            raise SystemExit(f"[{name}] duplicate edges: {sorted(dupes, key=str)[:5]}")
        order = list(dict.fromkeys(e["source"] for e in section["edges"]))
        split = {s: "dev" if i % 5 < 3 else "test" for i, s in enumerate(order)}
        edges = [{**{k: v for k, v in e.items() if k != "line"}, "split": split[e["source"]],
                  "source_line": e["line"]} for e in section["edges"]]
        if name != "xl":  # all.json is for catalog_all.json; the extra servers are in catalog_xl.json only
            everything += edges
        else:
            xl = edges
        write(REAL / "gold_edges" / f"{name}.json", section["file"], edges)
        if name in ("mcp", "xl"):  # also per server, against mcp/<server>.json (raw tool names, no prefix)
            for server in sorted({e["source"].split("__")[0] for e in edges}):
                own = [{**e, "source": e["source"].split("__", 1)[1], "target": e["target"].split("__", 1)[1]}
                       for e in edges if e["source"].split("__")[0] == e["target"].split("__")[0] == server]
                if own:
                    write(REAL / "gold_edges" / f"mcp_{server}.json", f"mcp/{server}.json", own)
    write(REAL / "gold_edges" / "all.json", "catalog_all.json", everything)
    write(REAL / "gold_edges" / "all_xl.json", "catalog_xl.json", everything + xl)


def write(path: Path, catalog_file: str, edges: list[dict]) -> None:
    lines = ",\n".join(json.dumps(e, ensure_ascii=False) for e in edges)
    head = json.dumps({"provenance": PROVENANCE, "catalog_file": catalog_file})[:-1]
    path.write_text(head + ', "edges": [\n' + lines + "\n]}\n")
    pairs = {(e["source"], e["target"]) for e in edges}
    dev = sum(e["split"] == "dev" for e in edges)
    print(f"{path.name}: {len(edges)} edges ({len(pairs)} tool pairs, {len({e['source'] for e in edges})} consumers; "
          f"dev {dev}, test {len(edges) - dev}) for {catalog_file}")


if __name__ == "__main__":
    main()
