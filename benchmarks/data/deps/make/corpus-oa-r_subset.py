"""corpus-oa-r: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset). Chosen (providers, licences) and cut by tag (StackOne: by path) before their operations were
studied: the tags were picked from each spec's tag list and operation counts only; reserved whole as the
twenty-first session's fresh set.
(Passed over unread: Polar's SDK repository holds no spec; Flagsmith's and Gravitee's MCP repositories and Meitner's
SDK have no licence file; AgentMail's Speakeasy repository has no snapshot here and its Fern SDK holds no spec;
Bolt's spec has 31 operations; Cribl's control-plane spec does not load with the YAML SafeLoader.)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-r/):
  novu.json            github.com/novuhq/novu-ts                         6025377fa7e17412b128bb8241825c633e390630
                       sources/openapi.sdk.json (Novu API, OpenAPI 3.0.0, the spec its TypeScript SDK is built from)
  latitudesh.yaml      github.com/latitudesh/latitudesh-mcp              9a3d3854178f2ea6897c4c8b048be7c1bf727aa2
                       .speakeasy/out.openapi.yaml (Latitude.sh API, OpenAPI 3.0.1, the spec its MCP server is
                       generated from)
  unkey.yaml           github.com/unkeyed/sdks                           5dc741754b47a50612a5bb5b312b2228a22721c0
                       .speakeasy/logs/changes/new.openapi.yaml (Unkey API v2, OpenAPI 3.1.0, the newest spec its
                       SDKs were generated from)
  conductorone.yaml    github.com/ConductorOne/conductorone-sdk-typescript d973abf22fdbf0f244c645ef96eb6beb4a16d70a
                       .speakeasy/out.openapi.yaml (ConductorOne API, OpenAPI 3.1.0, the spec its TypeScript SDK is
                       generated from)
  stackone.yaml        github.com/StackOneHQ/stackone-client-csharp      b7a02f940fceecc5c4b347618339a81cf36270df
                       .speakeasy/out.openapi.yaml (StackOne unified API, OpenAPI 3.1.0, the spec its C# client is
                       generated from)

    python corpus-oa-r_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_paths, cut_by_tags  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-r")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Latitude.sh: projects, servers, SSH keys, user data, regions, plans, operating systems; not API keys, billing,
    # block / filesystem / object storage, elastic IPs, events, firewalls, IP addresses, Kubernetes clusters,
    # private networks, roles, tags, team members, teams, traffic, user profile, VPN sessions, virtual machines
    # and their backups and restores
    "latitudesh": {"Projects", "Servers", "SSH Keys", "User data", "Regions", "Plans", "Operating Systems"},
    # Unkey: keys, APIs, identities, permissions and roles, rate limits, verification analytics, projects, apps,
    # environments; not deployments, deploy, gateway policies, portal sessions, liveness
    "unkey": {
        "keys",
        "apis",
        "identities",
        "permissions",
        "ratelimit",
        "analytics",
        "projects",
        "apps",
        "environments",
    },
    # ConductorOne: apps, app entitlements and their owners, app owners, app resource types and resources, users,
    # roles, policies; not app users, app entitlement automations, bindings and history, access conflicts,
    # attributes, automations, connectors, directories, request catalogs, tasks, webhooks, system logs, settings
    "conductorone": {
        "App",
        "App Entitlement",
        "App Entitlement Owner",
        "App Owner",
        "App Resource Type",
        "App Resource",
        "User",
        "Role",
        "Policy",
    },
}
# Novu whole (56 operations).
SPECS = {"novu": "novu.json", "latitudesh": "latitudesh.yaml", "unkey": "unkey.yaml", "conductorone": "conductorone.yaml"}
# StackOne: the ATS category (tags such as Users and Documents are shared by every category): applications with
# their offers, notes, scorecards, interviews and documents, candidates, jobs, application and interview stages,
# interviews, offers, departments, locations, users, job postings, rejected reasons; not custom field definitions,
# lists, assessments, background checks, document categories, nor the other categories
ATS = r"/unified/ats/(applications|candidates|jobs|application_stages|interview_stages|interviews|offers|departments"
ATS += r"|locations|users|job_postings|rejected_reasons)(/.*)?"


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-r")
    cut_by_paths("stackone.yaml", [ATS], SRC, OUT, "stackone_ats", "corpus-oa-r")


if __name__ == "__main__":
    main()
