"""corpus-oa-w: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset). Chosen (providers, licences) and cut by tag (by path for STACKIT's IaaS API, whose operations
have no tags) before their operations were studied; all five are the twenty-sixth session's fresh set. (Passed over:
DNSimple's dnsimple-developer (no LICENSE in the repository; tags and counts only seen); Project Nessie's openapi.yaml
(paths generated at build time from Java annotations: none in the file); Comet Opik and Owncast (repositories over
500 MB, not fetched).)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-w/):
  powerdns.yaml     github.com/PowerDNS/pdns                          20096dc7c96883e6f92ed91ce8fa6e911f50bca0
                    docs/http-api/openapi/authoritative-api-openapi.yaml (PowerDNS Authoritative HTTP API,
                    OpenAPI 3.1.0; GPL-2.0, COPYING)
  sftpgo.yaml       github.com/drakkan/sftpgo                         42f7a4d415dc7a97da08880edb82e5b0db5fcfc8
                    openapi/openapi.yaml (SFTPGo, OpenAPI 3.0.3; AGPL-3.0)
  keep.json         github.com/keephq/keep                            af93f550b6498089d5e93b6dd426fc2a49498464
                    docs/openapi.json (Keep API, OpenAPI 3.0.2, FastAPI; MIT outside ee/)
  convoy.yaml       github.com/frain-dev/convoy                       2b60cc652e1d4babc1857280d5911817960e83e7
                    docs/v3/openapi3.yaml (Convoy API Reference, OpenAPI 3.0.0; Elastic License 2.0)
  stackit_iaas.json github.com/stackitcloud/stackit-api-specifications b7d1b614138d667d378a5fd45e2a91539a7fb02e
                    services/iaas/v2/iaas.json (STACKIT IaaS API v2, OpenAPI 3.0.1, untagged; Apache-2.0, LICENSE.md)

    python corpus-oa-w_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_paths, cut_by_tags  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-w")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # PowerDNS: every tag (servers, zones, crypto keys, metadata, TSIG keys, autoprimaries, networks and views,
    # search, statistics, configuration); not the one untagged operation (the API root)
    "powerdns": {
        "servers",
        "zones",
        "zonecryptokey",
        "zonemetadata",
        "tsigkey",
        "autoprimary",
        "networks",
        "views",
        "search",
        "stats",
        "config",
    },
    # SFTPGo: users, groups, virtual folders, roles, API keys, the event manager (actions and rules), quota scans
    # and updates, active connections; not admins, the end-user APIs, public shares, tokens, maintenance, IP lists,
    # the defender, data retention, event searches, the health check
    "sftpgo": {"users", "groups", "folders", "roles", "API keys", "event manager", "quota", "connections"},
    # Keep: alerts, incidents, workflows and their executions (alerts and incidents alone are 32 operations by their
    # first tag: under 40); not providers, presets, rules, mappings, extractions, enrichment, topology, dashboards,
    # maintenance windows, deduplications, auth, settings and the rest
    "keep": {"alerts", "incidents", "workflows"},
    # Convoy: projects, endpoints, events, event deliveries and delivery attempts, sources, subscriptions; not event
    # types, filters, portal links, meta events, onboarding
    "convoy": {
        "Projects",
        "Endpoints",
        "Events",
        "Event Deliveries",
        "Delivery Attempts",
        "Sources",
        "Subscriptions",
    },
}
SPECS = {"powerdns": "powerdns.yaml", "sftpgo": "sftpgo.yaml", "keep": "keep.json", "convoy": "convoy.yaml"}
# STACKIT IaaS v2: servers (with their actions, nics, networks, public IPs, security groups, service accounts, volume
# attachments, console and log), networks and their nics, nics, volumes, public IPs; not key pairs, network areas,
# routing, images, snapshots, backups, affinity groups, security groups, machine types, quotas, requests
STACKIT = [
    rf"/v2/projects/\{{projectId\}}/regions/\{{region\}}/{resource}(/.*)?"
    for resource in ("servers", "networks", "nics", "volumes", "public-ips")
]


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-w")
    cut_by_paths("stackit_iaas.json", STACKIT, SRC, OUT, "stackit_iaas", "corpus-oa-w")


if __name__ == "__main__":
    main()
