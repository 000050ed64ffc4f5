"""corpus-oa-n: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset). Chosen (providers, licences) and cut by tag (FusionAuth, which has no tags: by path) before
their operations were studied; reserved whole as the seventeenth session's fresh set.
(Chatwoot's swagger/swagger.json and Immich's open-api spec were chosen first and dropped unstudied: their
repositories are over the snapshot size limit here; Linode's openapi.yaml is absent from its snapshot.)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-n/):
  growthbook.yaml      github.com/growthbook/growthbook               8f1db4456915a8e7b7faf23d5632ca7219d2f469
                       packages/back-end/generated/spec.yaml (GrowthBook REST API, OpenAPI 3.1.0; outside the
                       enterprise directories the repository is MIT)
  fusionauth.yaml      github.com/FusionAuth/fusionauth-openapi       f07c95a224194589262eb3b151625d65f9a6ebd8
                       openapi.yaml (FusionAuth API, OpenAPI 3.0.3)
  klaviyo.json         github.com/klaviyo/openapi                     f0a30ba41254904dc410d84ca497df68f8872276
                       openapi/stable.json (Klaviyo API, OpenAPI 3.0.2)
  prefect.json         github.com/PrefectHQ/prefect                   ce79dd3d6cfa2b7337265498210dbc4d25bcdc98
                       docs/v3/api-ref/rest-api/server/schema.json (Prefect server REST API, OpenAPI 3.1.0)
  paypal_*.json        github.com/paypal/paypal-rest-api-specifications  ec4d8f36a6ab0abcc3865e1072aaddc85ea14d5c
                       openapi/catalogs_products_v1.json, openapi/billing_subscriptions_v1.json,
                       openapi/invoicing_v2.json (PayPal REST APIs, OpenAPI 3.0.3), merged whole into one spec by
                       merge_specs (a component whose name another file already gives a different body is renamed
                       <file>_<name> in its own file)

    python corpus-oa-n_subset.py
"""

from __future__ import annotations

import json
from pathlib import Path

from subset_spec import cut_by_paths, cut_by_tags, write_spec  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-n")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # GrowthBook: features (v1), experiments, metrics, projects, environments, SDK connections, saved groups; not
    # the revisions, v2 features, bandits, fact tables, configs, constants, ramp schedules, dashboards, teams …
    "growthbook": {
        "features",
        "experiments",
        "metrics",
        "projects",
        "environments",
        "sdk-connections",
        "saved-groups",
    },
    # Klaviyo: lists, segments, coupons and their codes, templates; not profiles, events, metrics, campaigns,
    # flows, catalogs, custom objects, tags, forms, images, reporting, webhooks, client APIs
    "klaviyo": {"Lists", "Segments", "Coupons", "Templates"},
    # Prefect: flows, deployments, work pools (and their workers and queues), work queues; not flow and task runs,
    # states, logs, blocks, artifacts, variables, concurrency limits, events, automations, admin
    "prefect": {"Flows", "Deployments", "Work Pools", "Work Queues"},
}
SPECS = {"growthbook": "growthbook.yaml", "klaviyo": "klaviyo.json", "prefect": "prefect.json"}
# FusionAuth (no tags): applications (with their roles, scopes, OAuth configuration), groups and their members,
# tenants, entity types (with their permissions), entities and their grants; not users, logins, JWTs, keys,
# identity providers, e-mail templates, forms, lambdas, themes, webhooks, reports, system
FUSIONAUTH = r"/api/(application|group|tenant|entity)(/.*)?"
PAYPAL = ("catalogs_products_v1", "billing_subscriptions_v1", "invoicing_v2")


def _rename_refs(node, renames: dict[str, str]):
    if isinstance(node, dict):
        return {k: (renames.get(v, v) if k == "$ref" and isinstance(v, str) else _rename_refs(v, renames))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_rename_refs(v, renames) for v in node]
    return node


def merge_specs(docs: dict[str, dict]) -> dict:
    """One spec from several of one provider: paths side by side, components merged; a component whose name an
    earlier file gives a different body is renamed <file>_<name> (its file's references with it)."""
    out: dict = {}
    for name, doc in docs.items():
        comps = out.setdefault("components", {})
        renames = {}
        for kind, items in doc.get("components", {}).items():
            for n, body in items.items():
                if n in comps.get(kind, {}) and comps[kind][n] != body and kind != "securitySchemes":
                    renames[f"#/components/{kind}/{n}"] = f"#/components/{kind}/{name}_{n}"
        doc = _rename_refs(doc, renames)
        for kind, items in doc.get("components", {}).items():
            for n, body in items.items():
                new = renames.get(f"#/components/{kind}/{n}", f"#/components/{kind}/{n}").rsplit("/", 1)[1]
                comps.setdefault(kind, {}).setdefault(new, body)
        if "paths" not in out:
            out.update({k: v for k, v in doc.items() if k not in ("paths", "components", "tags")})
            out["paths"] = {}
            out["info"] = {"title": "PayPal REST APIs (Catalog Products, Subscriptions, Invoices)",
                           "version": "merged", "description": "Catalog Products v1, Subscriptions v1 and "
                           "Invoicing v2 of paypal/paypal-rest-api-specifications, merged (corpus-oa-n)."}
        out["paths"].update(doc["paths"])
        out.setdefault("tags", []).extend(doc.get("tags", []))
    return out


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-n")
    cut_by_paths("fusionauth.yaml", [FUSIONAUTH], SRC, OUT, "fusionauth", "corpus-oa-n")
    docs = {n: json.loads((SRC / f"paypal_{n}.json").read_text(encoding="utf-8")) for n in PAYPAL}
    write_spec(merge_specs(docs), OUT / "paypal.json")


if __name__ == "__main__":
    main()
