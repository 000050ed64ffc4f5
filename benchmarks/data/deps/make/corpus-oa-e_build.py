"""corpus-oa-e: build the four specs (whole or cut to coherent resources: whole paths, with every component they reference).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-e/):
  netbox.yaml        github.com/netbox-community/go-netbox  c020e4607ed69cbd141ea0ef8b14e82afc19df2b  api/openapi.yaml
                     (NetBox 4.2.2's own OpenAPI 3.0 schema, vendored by the Go client)
  airflow.yaml       github.com/apache/airflow-client-go    8ce0b39cfbb2b45d360ffb00e40897319d085d15  airflow/api/openapi.yaml
                     (Airflow stable REST API v1, as vendored by the Go client; kept whole)
  overseerr.yaml     github.com/sct/overseerr               46a9b244efd81e0e70a16a851252114bc2d3c2ca  overseerr-api.yml
  headscale_sw2.json github.com/juanfont/headscale          8efa5ad1fe362c4915c150766184d0eb907932bd
                     gen/openapiv2/headscale/v1/headscale.swagger.json (swagger 2.0, converted with
                     `npx swagger2openapi@7.0.8 -p headscale_sw2.json -o headscale.json`; kept whole)

    python corpus-oa-e_build.py
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

SRC = Path("/tmp/corpus-oa-e")
OUT = Path(__file__).resolve().parent.parent / "openapi"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")

NB = ["tenancy/tenants", "dcim/regions", "dcim/sites", "dcim/locations", "dcim/racks", "dcim/manufacturers",
      "dcim/device-types", "dcim/device-roles", "dcim/platforms", "dcim/devices", "dcim/interfaces",
      "ipam/vrfs", "ipam/prefixes", "ipam/ip-addresses", "ipam/vlans"]
PATTERNS = {
    "netbox": ("netbox.yaml", [rf"/api/{r}/(\{{id\}}/)?" for r in NB] + [r"/api/ipam/prefixes/\{id\}/available-ips/"]),
    "airflow": ("airflow.yaml", None),
    "overseerr": ("overseerr.yaml", [
        r"/status", r"/auth/(me|local|logout)", r"/user(/.*)?", r"/search(/keyword|/company)?", r"/discover/.*",
        r"/request(/.*)?", r"/movie/.*", r"/tv/.*", r"/person/.*", r"/media(/.*)?", r"/collection/\{collectionId\}",
        r"/service/.*", r"/settings/(radarr|sonarr)(/.*)?", r"/settings/jobs(/.*)?", r"/settings/cache(/.*)?",
        r"/settings/discover(/.*)?", r"/settings/plex/users", r"/issue(/.*)?", r"/issueComment/\{commentId\}", r"/keyword/\{keywordId\}",
        r"/studio/\{studioId\}", r"/network/\{networkId\}", r"/genres/(movie|tv)", r"/regions", r"/languages",
        r"/watchproviders/.*",
    ]),
    "headscale": ("headscale.json", None),
}


def refs(node, out):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/"):
            out.add(ref)
        for v in node.values():
            refs(v, out)
    elif isinstance(node, list):
        for v in node:
            refs(v, out)
    return out


def subset(doc, patterns):
    keep = {p: item for p, item in doc["paths"].items() if any(re.fullmatch(x, p) for x in patterns)}
    todo, seen = refs(keep, set()), set()
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, _, kind, name = ref.split("/", 3)
        todo |= refs(doc["components"][kind][name.replace("~1", "/").replace("~0", "~")], set()) - seen
    comps = {}
    for ref in sorted(seen):
        _, _, kind, name = ref.split("/", 3)
        name = name.replace("~1", "/").replace("~0", "~")
        comps.setdefault(kind, {})[name] = doc["components"][kind][name]
    if "securitySchemes" in doc.get("components", {}):
        comps["securitySchemes"] = doc["components"]["securitySchemes"]
    out = {k: v for k, v in doc.items() if k not in ("paths", "components")}
    out["info"] = dict(out.get("info", {}))
    n_ops = sum(1 for i in keep.values() for m in i if m in METHODS)
    out["info"]["description"] = (str(out["info"].get("description", "")) + "\n\nSubset for kg-tools' dependency "
                                  f"corpus (corpus-oa-e): {len(keep)} of {len(doc['paths'])} paths, {n_ops} "
                                  "operations kept (see benchmarks/data/deps/make/corpus-oa-e_build.py).").strip()
    out["paths"] = keep
    out["components"] = comps
    return out


def main():
    for key, (name, pats) in PATTERNS.items():
        text = (SRC / name).read_text(encoding="utf-8")
        doc = json.loads(text) if name.endswith(".json") else yaml.safe_load(text)
        if pats is not None:
            doc = subset(doc, pats)
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"
        assert len(text.encode()) <= 1_500_000, (key, len(text.encode()))
        (OUT / f"{key}.json").write_text(text, encoding="utf-8")
        print(key, sum(1 for i in doc["paths"].values() for m in i if m in METHODS), "ops", len(text), "bytes")


if __name__ == "__main__":
    main()
