"""corpus-oa-s: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset; the three Swagger 2.0 specs through the same cut, their definitions, parameters and responses
moved under `components` and back). Chosen (providers, licences) and cut by tag before their operations were studied;
all five are the twenty-second session's fresh set. (Passed over unread: Linode's linode-api-docs (openapi.yaml
absent from the snapshot the `fetch` tool brings), Chatwoot, Coder and authentik (repositories over 500 MB),
Rocket.Chat's Open API and Plaid's plaid-openapi (no LICENSE in the repository), mailcow (claimed first by another
helper). Wekan's public/api/wekan.yml (wekan/wekan f5cc8e37319469dd6a4752e160540213a2094aa4) was cut, then passed
over: generated, it has no board list or create and no request body for most writes.)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-s/):
  apicurio.json    github.com/Apicurio/apicurio-registry     b40e0173828702a4d9df141c97a32f984fc2eeeb
                   common/src/main/resources/META-INF/openapi.json (Apicurio Registry API v3, OpenAPI 3.0.3;
                   Apache-2.0)
  opsgenie.json    github.com/opsgenie/opsgenie-oas          71c55343d03076e5544c484ed32b37c3fbc54037
                   swagger.json (Opsgenie REST API 2.0.0, Swagger 2.0, the bundled file; Apache-2.0)
  photoprism.json  github.com/photoprism/photoprism          382ffa89927f9fa2aca6ab83481177e0d81dd405
                   internal/api/swagger.json (PhotoPrism API, Swagger 2.0; AGPL-3.0)
  incus.yaml       github.com/lxc/incus                      be7afc5df39f089bc21e4f1d2e955fc6be8fae34
                   doc/rest-api.yaml (Incus REST API, Swagger 2.0; Apache-2.0, COPYING)
  influxdb.yaml    github.com/influxdata/openapi             ad26a17809307a9b190d5ca0ef6d0a0f094993ff
                   contracts/oss.yml (InfluxDB OSS API 2.x, OpenAPI 3.0.0; MIT)

    python corpus-oa-s_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_tags  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-s")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Apicurio Registry: groups, artifacts, versions, branches, metadata, content, group and artifact rules, search;
    # not global rules, admin (import/export, role mappings, config), system, users, artifact types, KafkaSQL,
    # GitOps, contracts, well-known
    "apicurio": {
        "Groups",
        "Artifacts",
        "Versions",
        "Branches",
        "Metadata",
        "Content",
        "Group rules",
        "Artifact rules",
        "Search",
    },
    # Opsgenie: users, teams and their members, roles and routing rules, schedules, rotations, overrides, on-call,
    # escalations; not alerts, incidents, integrations, heartbeats, policies, maintenance, contacts, notification
    # rules, forwarding rules, custom user roles, the account
    "opsgenie": {
        "user",
        "team",
        "team-member",
        "team-role",
        "team-routing-rule",
        "schedule",
        "schedule-rotation",
        "schedule-override",
        "who-is-on-call",
        "escalation",
    },
    # PhotoPrism: photos, albums, labels, files, faces, markers, subjects, share links; not images and downloads,
    # the library index, authentication, users, services, config, settings, server, errors
    "photoprism": {"Photos", "Albums", "Labels", "Files", "Faces", "Markers", "Subjects", "Links"},
    # Incus: projects, profiles, images (and aliases), networks, network ACLs, operations; not instances, storage,
    # cluster, certificates, network zones, forwards, load balancers, peers, address sets, integrations, warnings,
    # metrics, the server
    "incus": {"projects", "profiles", "images", "networks", "network-acls", "operations"},
    # InfluxDB: organizations, buckets, users, labels, tasks, API tokens, DBRP mappings, data I/O (write, delete,
    # query; the tag the task list and create are filed under first); not dashboards and cells, telegrafs,
    # variables, templates, checks, notification rules and endpoints, scrapers, sources, secrets, setup, backup and
    # restore, replications, remote connections, debug, health
    "influxdb": {
        "Data I/O endpoints",
        "Organizations",
        "Buckets",
        "Users",
        "Labels",
        "Tasks",
        "Authorizations (API tokens)",
        "DBRPs",
    },
}
SPECS = {
    "apicurio": "apicurio.json",
    "opsgenie": "opsgenie.json",
    "photoprism": "photoprism.json",
    "incus": "incus.yaml",
    "influxdb": "influxdb.yaml",
}


def without_path_extensions(doc: dict) -> dict:
    """The spec without `x-` keys among its paths (Apicurio's x-codegen-contextRoot, a string, not a path item)."""
    return doc | {"paths": {p: item for p, item in doc["paths"].items() if not p.startswith("x-")}}


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-s", prepare=without_path_extensions)


if __name__ == "__main__":
    main()
