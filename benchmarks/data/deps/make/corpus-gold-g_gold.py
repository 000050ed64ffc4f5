"""Build ../gold/<key>.json from corpus-gold-g_gold.txt (hand-written gold edges for DEV catalogs that were added
without gold by corpus-oa-a/b/c and corpus-mcp-a). Checks every tool and parameter name against the catalog as
loaded (OpenAPI: benchmarks.eval.catalog_eval.read_catalog; MCP: the dump's inputSchema properties).

    .venv/bin/python benchmarks/data/deps/make/corpus-gold-g_gold.py [key ...]

Section header: `[key] openapi|mcp`. Line format as benchmarks/data/real/make/gold_edges.txt:
  consumers | parameter(s) | providers | PD/PI/TD/TI | reason
consumers: comma-separated names, or `*` (every tool having one of the parameters) optionally followed by
`!name` exclusions (`* !createProject !headProject`). Split by consumer: sorted consumer names, even dev, odd test.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEPS = HERE.parent
sys.path.insert(0, str(DEPS.parents[2]))
from benchmarks.eval.catalog_eval import read_catalog  # noqa: E402

TYPES = {"PD": "PARAMETER_DIRECTLY_DEPENDS_ON", "PI": "PARAMETER_INDIRECTLY_DEPENDS_ON",
         "TD": "TOOL_DIRECTLY_DEPENDS_ON", "TI": "TOOL_INDIRECTLY_DEPENDS_ON"}
PROVIDERS = {"harbor": "Harbor (goharbor/harbor)", "vikunja": "Vikunja", "keycloak_admin": "Keycloak Admin REST API",
             "sentry": "Sentry", "linear": "Linear MCP server", "coolify": "Coolify (coollabsio/coolify)",
             "contentful": "Contentful (ivotoby/contentful-management-mcp-server)"}


def load_params(key: str, kind: str) -> dict[str, set[str]]:
    if kind == "mcp":
        catalog = json.loads((DEPS / "mcp" / f"{key}.json").read_text())
        return {t["name"]: set((t.get("inputSchema") or {}).get("properties", {})) for t in catalog["tools"]}
    src = read_catalog(str(DEPS / "openapi" / f"{key}.json"), key)
    return {t["name"]: {p["name"] for p in t["parameters"]} for t in src.tools}


def main(only: list[str]) -> None:
    sections, key = {}, None
    for line in (HERE / "corpus-gold-g_gold.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            key = line[1:line.index("]")]
            sections[key] = (line[line.index("]") + 1:].strip(), [])
            continue
        sections[key][1].append(line)
    for key, (kind, lines) in sections.items():
        if only and key not in only:
            continue
        params = load_params(key, kind)
        edges, seen = [], set()
        for line in lines:
            cons, pars, provs, typ, reason = [x.strip() for x in line.split("|", 4)]
            pars = [p.strip() for p in pars.split(",")]
            provs = [p.strip() for p in provs.split(",")]
            for p in provs:
                assert p in params, (key, "provider", p)
            if cons.startswith("*"):
                excl = {x.strip()[1:] for x in cons[1:].split() if x.strip()}
                for x in excl:
                    assert x in params, (key, "excluded", x)
                consumers = [n for n in params if set(pars) & params[n] and n not in excl]
            else:
                consumers = [c.strip() for c in cons.split(",")]
            for c in consumers:
                assert c in params, (key, "consumer", c)
                have = [p for p in pars if p in params[c]] if typ in ("PD", "PI") else ["-"]
                assert have, (key, c, pars, sorted(params[c]))
                for p in have:
                    for prov in provs:
                        if prov == c and cons.startswith("*"):
                            continue
                        k = (c, prov, p)
                        assert k not in seen, (key, k)
                        seen.add(k)
                        edge = {"source": c, "target": prov}
                        if p != "-":
                            edge["parameter_name"] = p
                        edges.append(edge | {"type": TYPES[typ], "reason": reason})
        order = sorted({e["source"] for e in edges})
        split = {c: ("dev" if i % 2 == 0 else "test") for i, c in enumerate(order)}
        for e in edges:
            e["split"] = split[e["source"]]
        what = "tool descriptions and input schemas" if kind == "mcp" else "spec descriptions and schemas"
        out = {"provenance": f"Written by hand for kg-tools from {PROVIDERS.get(key, key)}'s {what}; corpus-gold-g "
                             f"(source lines: make/corpus-gold-g_gold.txt)",
               "catalog_file": f"{kind}/{key}.json", "edges": edges}
        (DEPS / "gold" / f"{key}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(key, len(edges), "edges,", len(order), "consumers of", len(params), "tools")


if __name__ == "__main__":
    main(sys.argv[1:])
