"""corpus-oa-q: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset). Chosen (providers, licences) and cut by tag before their operations were studied; all five are
the twentieth session's fresh set. (Looked at first and dropped unstudied: Telnyx's team-telnyx/openapi (no licence),
Rootly's terraform provider (no spec file), Marquez (37 operations, under 40), Apache Polaris' management spec (33
operations, untagged), Hyperswitch and CVAT (repositories over the 500 MB the `fetch` tool brings).)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-q/):
  metal.yaml         github.com/equinix-labs/metal-go          c497ae5e8a10e39ce251d7b446c7bdf983695af9
                     api/openapi.yaml (Equinix Metal API 1.0.0, OpenAPI 3.0.0; MIT)
  misp.yaml          github.com/MISP/MISP                      bb0909a37a7bd727d35f7a60ee9a6ff10bc99852
                     app/webroot/doc/openapi.yaml (MISP Automation API 2.4, OpenAPI 3.0.0; AGPL-3.0)
  frigate.yaml       github.com/blakeblackshear/frigate        e3fa70189324e5eb3b1dba756c153f6696f457de
                     docs/static/frigate-api.yaml (Frigate NVR API 0.1.0, OpenAPI 3.1.0; MIT)
  unitycatalog.yaml  github.com/unitycatalog/unitycatalog      c9ed6b142f851b4d32c56eed9e85e917f27d7b7a
                     api/all.yaml (Unity Catalog API 0.1, OpenAPI 3.0.0; Apache-2.0; kept whole)
  gravitino.yaml     github.com/apache/gravitino               f461aa31aa758e9b8f2743795a34fc31f8456a68
                     docs/open-api/openapi.yaml and the 30 files it references (Gravitino REST API 2.0.0-SNAPSHOT,
                     OpenAPI 3.0.3; Apache-2.0), bundled into one file with
                     `npx @redocly/cli@1.25.0 bundle openapi.yaml -o gravitino.yaml`

    python corpus-oa-q_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_tags  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-q")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Equinix Metal: projects, devices, SSH keys, IP addresses, VLANs, Metal gateways, metros, plans, operating
    # systems; not organizations, users, memberships, invitations, ports, VRFs, BGP, interconnections, capacity,
    # spot market, reservations, batches, events, invoices, payment methods, licences, auth, support
    "equinix_metal": {
        "Projects",
        "Devices",
        "SSHKeys",
        "IPAddresses",
        "VLANs",
        "MetalGateways",
        "Metros",
        "Plans",
        "OperatingSystems",
    },
    # MISP: events, attributes, objects, tags, sightings, sharing groups, organisations; not event reports, analyst
    # data, galaxies and clusters, users, servers, feeds, warning and notice lists, taxonomies, auth keys, logs,
    # user settings
    "misp": {"Events", "Attributes", "Objects", "Tags", "Sightings", "Sharing Groups", "Organisations"},
    # Frigate: tracked-object events, review items, exports; not auth, cameras and PTZ, media and previews,
    # recordings, classification, chat, notifications, motion search, the app's config and stats
    "frigate": {"Events", "Review", "Export"},
    # Gravitino: metalakes, catalogs, schemas, tables, filesets, topics, tags; not access control, policies,
    # statistics, partitions, views, functions, models, jobs, lineage, credentials, health
    "gravitino": {"metalake", "catalog", "schema", "table", "fileset", "topic", "tag"},
}
SPECS = {
    "equinix_metal": "metal.yaml",
    "misp": "misp.yaml",
    "frigate": "frigate.yaml",
    "unitycatalog": "unitycatalog.yaml",
    "gravitino": "gravitino.yaml",
}


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-q")


if __name__ == "__main__":
    main()
