"""Build ../gold/<key>.json from gold_<task>.txt (hand-written edges for the MCP dumps of a corpus task,
corpus-mcp-b or corpus-mcp-c). Checks every tool and parameter name against ../mcp/<key>.json.

    .venv/bin/python benchmarks/data/deps/make/build_gold_mcp.py corpus-mcp-b
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
DEPS = HERE.parent
TYPES = {"PD": "PARAMETER_DIRECTLY_DEPENDS_ON", "PI": "PARAMETER_INDIRECTLY_DEPENDS_ON",
         "TD": "TOOL_DIRECTLY_DEPENDS_ON", "TI": "TOOL_INDIRECTLY_DEPENDS_ON"}


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def main(task: str) -> None:
    sections: dict[str, list[tuple[int, str]]] = {}
    key = None
    for number, line in enumerate((HERE / f"gold_{task}.txt").read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            key = line[1:line.index("]")]
            sections[key] = []
            continue
        sections[key].append((number, line))
    errors = []
    for key, lines in sections.items():
        catalog = json.loads((DEPS / "mcp" / f"{key}.json").read_text())
        params = {t["name"]: set(t.get("inputSchema", {}).get("properties", {})) for t in catalog["tools"]}
        edges, seen = [], set()
        for number, line in lines:
            cons, par, prov, typ, reason = [part.strip() for part in line.split("|", 4)]
            providers = split_list(prov)
            names = split_list(par) if par != "-" else []
            for p in providers:
                if p not in params:
                    errors.append(f"{key}:{number}: unknown provider {p}")
            if cons == "*":
                consumers = [t for t in params if t not in providers and params[t] & set(names)]
            else:
                consumers = split_list(cons)
            for c in consumers:
                if c not in params:
                    errors.append(f"{key}:{number}: unknown consumer {c}")
                    continue
                if names:
                    have = [n for n in names if n in params[c]]
                    if not have:
                        errors.append(f"{key}:{number}: {c} has none of {names}")
                    for n in have:
                        for p in providers:
                            k = (c, p, n)
                            if p == c or k in seen:
                                continue
                            seen.add(k)
                            edges.append({"source": c, "target": p, "parameter_name": n, "type": TYPES[typ],
                                          "reason": reason, "source_line": number})
                else:
                    for p in providers:
                        edges.append({"source": c, "target": p, "type": TYPES[typ], "reason": reason,
                                      "source_line": number})
        order = sorted({e["source"] for e in edges})
        split = {c: ("dev" if i % 2 == 0 else "test") for i, c in enumerate(order)}
        for e in edges:
            e["split"] = split[e["source"]]
            e["source_line"] = e.pop("source_line")
        record = {"provenance": f"Written by hand for kg-tools from the MCP server's tools/list (tool descriptions and "
                                f"input schemas, {catalog['provenance']['package']}@{catalog['provenance']['version']}); "
                                f"{task}; source lines in make/gold_{task}.txt",
                  "catalog_file": f"mcp/{key}.json", "edges": edges}
        out = DEPS / "gold" / f"{key}.json"
        out.write_text("{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in record.items() if k != "edges")
                       + ', "edges": [\n' + ",\n".join(json.dumps(e, ensure_ascii=False) for e in edges) + "\n]}\n")
        print(f"{key}: {len(edges)} edges, {len(order)} consumers")
    if errors:
        print("\n".join(errors), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "corpus-mcp-b")
