"""Expand the hand-written gold lines of a corpus task (<task>_gold.txt: corpus-oa-c, corpus-oa-d) into gold/<key>.json.

    .venv/bin/python benchmarks/data/deps/make/gold_openapi.py corpus-oa-d [key ...]   (also corpus-oa-c, -g … -y)

Line format as benchmarks/data/real/make/gold_edges.txt:
  consumers | parameter(s) | providers | PD/PI/TD/TI | reason      (`*` consumers = every tool having the parameter)
Every name and parameter is checked against the catalog as loaded by kg_tools' read_catalog.
Split by consumer: sorted consumer names, even positions dev, odd test.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT.parents[2]))
from benchmarks.eval.catalog_eval import read_catalog  # noqa: E402

TYPES = {"PD": "PARAMETER_DIRECTLY_DEPENDS_ON", "PI": "PARAMETER_INDIRECTLY_DEPENDS_ON",
         "TD": "TOOL_DIRECTLY_DEPENDS_ON", "TI": "TOOL_INDIRECTLY_DEPENDS_ON"}
PROVIDERS = {"listmonk": "listmonk (knadh/listmonk)", "qdrant": "Qdrant (qdrant/qdrant)",
             "ory_kratos": "Ory Kratos (ory/kratos)", "ory_hydra": "Ory Hydra (ory/hydra)",
             "discourse": "Discourse (discourse/discourse_api_docs)",
             "nextcloud_tables": "Nextcloud Tables (nextcloud/tables)", "coolify": "Coolify (coollabsio/coolify)",
             "outline": "Outline (outline/openapi)",
             "mastodon": "Mastodon (abraham/mastodon-openapi, generated from the Mastodon docs)",
             "gitea": "Gitea 1.22 (swagger from anbraten/gitea-js)",
             "hetzner_cloud": "Hetzner Cloud (MaximilianKoestler/hcloud-openapi)",
             "netbox": "NetBox 4.2 (schema vendored by netbox-community/go-netbox)",
             "airflow": "Apache Airflow stable REST API (schema vendored by apache/airflow-client-go)",
             "overseerr": "Overseerr (sct/overseerr)", "headscale": "Headscale (juanfont/headscale)",
             # corpus-oa-g
             "square": "Square (square/connect-api-specification)",
             "jira_platform": "Atlassian Jira Cloud platform (spec republished by salto-io/jira-swaggers)",
             "openai": "OpenAI (openai/openai-openapi)",
             "trippin_odata": "the OData TripPin service (spec from microsoft/OpenAPI.NET.OData)",
             "prowler": "Prowler (prowler-cloud/prowler)",
             "openproject": "OpenProject API v3 (spec vendored by dattrink/openproject-typescript-sdk)",
             "shlink": "Shlink (shlinkio/shlink)",
             # corpus-oa-h
             "svix": "Svix (svix/svix-webhooks)",
             "weaviate": "Weaviate (weaviate/weaviate)",
             "temporal": "Temporal (temporalio/api)",
             "langfuse": "Langfuse (langfuse/langfuse)",
             "memos": "Memos (usememos/memos)",
             "openfga": "OpenFGA (openfga/api)",
             "flipt": "Flipt v1 (flipt-io/flipt)",
             # corpus-oa-i
             "appwrite": "Appwrite (appwrite/appwrite)",
             "openmeter": "OpenMeter (openmeterio/openmeter)",
             "libregraph": "Libre Graph API (owncloud/libre-graph-api)",
             "firefly_iii": "Firefly III (firefly-iii/api-docs)",
             "gotify": "Gotify (gotify/server)",
             "mailpit": "Mailpit (axllent/mailpit)",
             # corpus-oa-j
             "slack": "Slack (slackapi/slack-api-specs)",
             "intercom": "Intercom (intercom/Intercom-OpenAPI)",
             "chargebee": "Chargebee (chargebee/openapi)",
             "woodpecker": "Woodpecker CI (woodpecker-ci/woodpecker)",
             "typesense": "Typesense (typesense/typesense-api-spec)",
             "docusign_admin": "DocuSign Admin API (docusign/OpenAPI-Specifications)",
             # corpus-oa-k
             "lob": "Lob (lob/lob-openapi)",
             "clerk": "Clerk Backend API (clerk/openapi-specs)",
             "dropbox_sign": "Dropbox Sign (hellosign/hellosign-openapi)",
             "apideck_hris": "Apideck HRIS (apideck-libraries/openapi-specs)",
             "figma": "Figma (figma/rest-api-spec)",
             # corpus-oa-l
             "solidus": "Solidus (solidusio/solidus)",
             "grocy": "grocy (grocy/grocy)",
             "karakeep": "Karakeep (karakeep-app/karakeep)",
             "netbird": "NetBird (netbirdio/netbird)",
             "changedetection": "changedetection.io (dgtlmoon/changedetection.io)",
             # corpus-oa-m
             "medusa_admin": "Medusa Admin API (medusajs/medusa)",
             "webex_messaging": "Webex Messaging (webex/webex-openapi-specs)",
             "workos": "WorkOS (workos/openapi-spec)",
             "artifacthub": "Artifact Hub (artifacthub/hub)",
             "inventree": "InvenTree (inventree/schema)",
             # corpus-oa-n
             "paypal": "PayPal REST APIs (paypal/paypal-rest-api-specifications)",
             "growthbook": "GrowthBook (growthbook/growthbook)",
             "fusionauth": "FusionAuth (FusionAuth/fusionauth-openapi)",
             "klaviyo": "Klaviyo (klaviyo/openapi)",
             "prefect": "Prefect (PrefectHQ/prefect)",
             # corpus-oa-o
             "recurly": "Recurly (recurly/recurly-client-python)",
             "traccar": "Traccar (traccar/traccar)",
             "brevo": "Brevo, formerly Sendinblue (sendinblue/APIv3-go-library)",
             "onesignal": "OneSignal (OneSignal/onesignal-go-api)",
             "easyappointments": "Easy!Appointments (alextselegidis/easyappointments)",
             # corpus-oa-p
             "kong_admin": "Kong Gateway Admin API (Kong/developer.konghq.com)",
             "casdoor": "Casdoor (casdoor/casdoor)",
             "dub": "Dub (dubinc/dub-ts)",
             "squadcast": "Squadcast (SquadcastHub/squadcast-sdk-go)",
             "unit_finance": "Unit (unit-finance/openapi-unit-sdk)",
             # corpus-oa-r
             "novu": "Novu (novuhq/novu-ts)",
             "latitudesh": "Latitude.sh (latitudesh/latitudesh-mcp)",
             "unkey": "Unkey (unkeyed/sdks)",
             "conductorone": "ConductorOne (ConductorOne/conductorone-sdk-typescript)",
             "stackone_ats": "StackOne (StackOneHQ/stackone-client-csharp)",
             # corpus-oa-q
             "equinix_metal": "Equinix Metal (equinix-labs/metal-go)",
             "misp": "MISP (MISP/MISP)",
             "frigate": "Frigate (blakeblackshear/frigate)",
             "unitycatalog": "Unity Catalog (unitycatalog/unitycatalog)",
             "gravitino": "Apache Gravitino (apache/gravitino)",
             # corpus-oa-s
             "apicurio": "Apicurio Registry (Apicurio/apicurio-registry)",
             "opsgenie": "Opsgenie (opsgenie/opsgenie-oas)",
             "photoprism": "PhotoPrism (photoprism/photoprism)",
             "incus": "Incus (lxc/incus)",
             "influxdb": "InfluxDB OSS (influxdata/openapi)",
             # corpus-oa-t
             "formance_ledger": "Formance Ledger (formancehq/ledger)",
             "flyte_admin": "Flyte Admin (flyteorg/flyteidl)",
             "docspell": "Docspell (eikek/docspell)",
             "gitness": "Harness Open Source, formerly Gitness (harness/harness)",
             "openzaak_catalogi": "Open Zaak's Catalogi API (open-zaak/open-zaak)",
             # corpus-oa-u
             "anythingllm": "AnythingLLM (Mintplex-Labs/anything-llm)",
             "stackstorm": "StackStorm (StackStorm/st2)",
             "nakadi": "Nakadi (zalando/nakadi)",
             "flowise": "Flowise (FlowiseAI/Flowise)",
             # corpus-oa-v
             "eclipse_ditto": "Eclipse Ditto (eclipse-ditto/ditto)", "dagu": "Dagu (dagu-org/dagu)",
             "revolt": "Revolt (revoltchat/api)", "zincsearch": "ZincSearch (zincsearch/zincsearch)",
             "wazuh": "Wazuh (wazuh/wazuh)",
             "lakekeeper": "Lakekeeper (lakekeeper/lakekeeper)",
             # corpus-oa-w
             "powerdns": "PowerDNS Authoritative (PowerDNS/pdns)",
             "sftpgo": "SFTPGo (drakkan/sftpgo)",
             "keep": "Keep (keephq/keep)",
             "convoy": "Convoy (frain-dev/convoy)",
             "stackit_iaas": "STACKIT IaaS (stackitcloud/stackit-api-specifications)",
             # corpus-oa-x
             "arize_phoenix": "Arize Phoenix (Arize-ai/phoenix)",
             "mender": "Mender (mendersoftware/mender-server)",
             "ionos_cloud": "IONOS Cloud (ionos-cloud/sdk-go)",
             "contabo": "Contabo (contabo/cntb)",
             "chirpstack": "ChirpStack (chirpstack/chirpstack-rest-api)",
             # corpus-oa-y
             "polaris": "Apache Polaris (apache/polaris)",
             "kubeflow_pipelines": "Kubeflow Pipelines (kubeflow/pipelines)",
             "configcat": "ConfigCat (configcat/configcat-publicapi-go-client)",
             "mediamtx": "MediaMTX (bluenviron/mediamtx)",
             "gotosocial": "GoToSocial (superseriousbusiness/gotosocial)"}


def gold_edge(consumer: str, provider: str, parameter: str, typ: str, reason: str) -> dict:
    """One edge of a gold file (`parameter` "-" for a tool-level edge)."""
    edge = {"source": consumer, "target": provider}
    if parameter != "-":
        edge["parameter_name"] = parameter
    return edge | {"type": TYPES[typ], "reason": reason}


def split_by_consumer(edges: list[dict], previous: Path | None = None) -> list[str]:
    """Sets each edge's split: sorted consumer names, even positions dev, odd test. Returns the consumers.
    With `previous` (the gold file being rewritten), a consumer already in it keeps its split, so halves that
    were studied stay dev and test stays test; only consumers new to the gold (e.g. the form-body parameters
    read since 2026-11-29) are split by the rule, among themselves."""
    kept = {}
    if previous is not None and previous.is_file():
        kept = {e["source"]: e["split"] for e in json.loads(previous.read_text(encoding="utf-8"))["edges"]}
    order = sorted({e["source"] for e in edges})
    new = [c for c in order if c not in kept]
    split = {c: kept[c] for c in order if c in kept} | {c: ("dev" if i % 2 == 0 else "test") for i, c in enumerate(new)}
    for e in edges:
        e["split"] = split[e["source"]]
    return order


def catalog_parameters(key: str, kind: str) -> dict[str, set[str]]:
    """tool -> its parameter names: an OpenAPI spec as kg_tools loads it, an MCP dump by its input schemas."""
    if kind == "mcp":
        catalog = json.loads((ROOT / "mcp" / f"{key}.json").read_text())
        return {t["name"]: set((t.get("inputSchema") or {}).get("properties", {})) for t in catalog["tools"]}
    src = read_catalog(ROOT / "openapi" / f"{key}.json", key)
    return {t["name"]: {p["name"] for p in t["parameters"]} for t in src.tools}


def spec_provenance(task: str, key: str, kind: str) -> str:
    return f"Written by hand for kg-tools from {PROVIDERS.get(key, key)}'s spec descriptions and schemas; {task}"


def main(task, provenance=spec_provenance, only=()):
    """`[key]` or `[key] mcp` opens a catalog's lines; `* !name …`: every tool having the parameter but those."""
    text = (Path(__file__).parent / f"{task}_gold.txt").read_text(encoding="utf-8")
    blocks, key = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            key = line[1:line.index("]")]
            blocks[key] = (line[line.index("]") + 1:].strip() or "openapi", [])
            continue
        blocks[key][1].append(line)
    for key, (kind, lines) in blocks.items():
        if only and key not in only:
            continue
        params = catalog_parameters(key, kind)
        edges, seen = [], set()
        for line in lines:
            cons, pars, provs, typ, reason = [x.strip() for x in line.split("|", 4)]
            pars = [p.strip() for p in pars.split(",")]
            provs = [p.strip() for p in provs.split(",")]
            for p in provs:
                assert p in params, (key, "provider", p)
            if cons.startswith("*"):
                excluded = {x[1:] for x in cons[1:].split()}
                assert excluded <= set(params), (key, "excluded", excluded - set(params))
                consumers = [n for n in params if set(pars) & params[n] and n not in excluded]
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
                        edges.append(gold_edge(c, prov, p, typ, reason))
        order = split_by_consumer(edges, ROOT / "gold" / f"{key}.json")
        out = {"provenance": provenance(task, key, kind), "catalog_file": f"{kind}/{key}.json", "edges": edges}
        (ROOT / "gold" / f"{key}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(key, len(edges), "edges,", len(order), "consumers of", len(params), "tools")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "corpus-oa-c", only=tuple(sys.argv[2:]))
