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

from pathlib import Path

from subset_spec import read_spec, subset, write_spec  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-e")
OUT = Path(__file__).resolve().parent.parent / "openapi"

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


def main():
    for key, (name, pats) in PATTERNS.items():
        doc = read_spec(SRC / name)
        if pats is not None:
            doc = subset(doc, pats, "corpus-oa-e")
        write_spec(doc, OUT / f"{key}.json")


if __name__ == "__main__":
    main()
