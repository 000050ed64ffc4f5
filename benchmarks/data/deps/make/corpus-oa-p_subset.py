"""corpus-oa-p: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset). Chosen (providers, licences) and cut by tag (Unit, whose operations all share one tag: by path)
before their operations were studied: the tags were picked from each spec's tag list and operation counts only;
reserved whole as the nineteenth session's fresh set.
(Windmill was chosen first and dropped unread: its repository is over the snapshot size limit here; Mollie's
openapi-specs repository has no snapshot here.)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-p/):
  kong.yaml            github.com/Kong/developer.konghq.com            bc1cd74260f0bddb06dcf004c9c34b53bb870c1a
                       api-specs/gateway/admin-oss/3.9/openapi.yaml (Kong Gateway Admin API, OSS 3.9, OpenAPI 3.0.0)
  casdoor.json         github.com/casdoor/casdoor                      e6b2338f8955455254ec2f48ef0a0390cbef9ec5
                       swagger/swagger.json (Casdoor RESTful API, Swagger 2.0), converted to casdoor_oas3.json
                       with `npx swagger2openapi@7.0.8 -p casdoor.json -o casdoor_oas3.json`
  dub.yaml             github.com/dubinc/dub-ts                        a58c2fd4f27b304acb8c37ba6789eb972f41a49d
                       .speakeasy/out.openapi.yaml (Dub API, OpenAPI 3.0.3, the spec its TypeScript SDK is built from)
  squadcast.yaml       github.com/SquadcastHub/squadcast-sdk-go        8e851de34e51d2737c52ef9f99d3fc565452d0d4
                       .speakeasy/out.openapi.yaml (Squadcast API, OpenAPI 3.1.0, the spec its Go SDK is built from)
  unit_bundled.json    github.com/unit-finance/openapi-unit-sdk        cdb3b91ea370a8e96fb91c17f568269fc985220a
                       openapi.json and the schemas/ files it references (Unit OpenAPI specifications, OpenAPI
                       3.0.2), bundled into one file with `npx @redocly/cli@1.34.3 bundle openapi.json -o
                       ../unit_bundled.json` in a `git archive` of openapi.json, schemas/ and .redocly.yaml

    python corpus-oa-p_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_paths, cut_by_tags  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-p")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Kong Admin: services, routes, consumers, plugins, upstreams and their targets, certificates and SNIs; not
    # CA certificates, keys and key sets, vaults, filter chains, information, debug, cache, clustering, config,
    # tags, schema validation
    "kong_admin": {"Services", "Routes", "Consumers", "Plugins", "Upstreams", "Targets", "Certificates", "SNIs"},
    # Casdoor: organizations, users, groups, roles, permissions, applications, certificates, providers; not
    # accounts, login, OIDC, tokens, sessions, MFA, verification, enforcers, models, adapters, resources, syncers,
    # webhooks, products, plans, pricings, subscriptions, payments, orders, transactions, forms, tickets, records,
    # invitations, system
    "casdoor": {
        "Organization API",
        "User API",
        "Group API",
        "Role API",
        "Permission API",
        "Application API",
        "Cert API",
        "Provider API",
    },
    # Squadcast: teams, users, squads, services, escalation policies, schedules with their rotations and
    # overrides, runbooks; not incidents, workflows, SLOs, status pages, global event rules, service rules and
    # overlays, extensions, webforms, analytics, exports
    "squadcast": {
        "Teams",
        "Users",
        "Squads",
        "Services",
        "Escalation Policies",
        "Schedule",
        "Rotation",
        "Overrides",
        "Runbooks",
    },
}
# Dub whole (54 operations).
SPECS = {"kong_admin": "kong.yaml", "casdoor": "casdoor_oas3.json", "squadcast": "squadcast.yaml", "dub": "dub.yaml"}
# Unit (every operation tagged `unit`): applications, customers, accounts, cards, counterparties, payments,
# recurring payments, transactions; not application forms, check payments and deposits, received, stop and cash
# payments, repayments, authorizations, statements, disputes, fees, rewards, tax forms, events, webhooks, users,
# locations, institutions, sandbox
UNIT = r"/(applications|customers|accounts|cards|counterparties|payments|recurring-payments|transactions)(/.*)?"


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-p")
    cut_by_paths("unit_bundled.json", [UNIT], SRC, OUT, "unit_finance", "corpus-oa-p")


if __name__ == "__main__":
    main()
