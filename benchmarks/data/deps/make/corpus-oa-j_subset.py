"""corpus-oa-j: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-j/):
  slack_oa3.json            github.com/slackapi/slack-api-specs          bc08db49625630e3585bf2f1322128ea04f2a7f3
                            web-api/slack_web_openapi_v2_without_examples.json (swagger 2.0, converted with
                            `npx swagger2openapi@7.0.8 -p slack_swagger.json -o slack_oa3.json`)
  intercom_2.14.yaml        github.com/intercom/Intercom-OpenAPI         8889625a7b931d8649e18726e7f872ff073520fc
                            descriptions/2.14/api.intercom.io.yaml (Intercom API 2.14, OpenAPI 3.0.1)
  chargebee_v1.json         github.com/chargebee/openapi                 c5273cae89b2ead4cedd3fa5daf37e45ebeedc45
                            spec/chargebee_api_v1_spec.json (Chargebee API v1, OpenAPI 3.1.0)
  woodpecker_oa3.json       github.com/woodpecker-ci/woodpecker          a4cb541b82dea1967d5b5577ff80a472b349afb2
                            cmd/server/openapi/docs.go (the swaggo template, swagger 2.0: the JSON between the
                            backquotes with {{.Title}}, {{.Version}}, {{.Host}}, {{.BasePath}} (/api), {{ marshal
                            .Schemes }} ([]) and {{escape .Description}} filled in; converted with
                            `npx swagger2openapi@7.0.8 -p woodpecker_swagger.json -o woodpecker_oa3.json`)
  typesense_openapi.yml     github.com/typesense/typesense-api-spec      9963d6cebcbe42702048e27ab3c0ea6b325eb952
                            openapi.yml (Typesense API, OpenAPI 3.0.3; kept whole)
  docusign_admin_oa3.json   github.com/docusign/OpenAPI-Specifications   3c20b6c8ed00c29c87d7418b5e97d3fad184d012
                            admin.rest.swagger-v2.1.json (DocuSign Admin API v2.1, swagger 2.0, converted with
                            `npx swagger2openapi@7.0.8 -p docusign_admin.json -o docusign_admin_oa3.json`)

    python corpus-oa-j_subset.py
"""

from __future__ import annotations

import re
from pathlib import Path

from subset_spec import read_spec, subset, tag_paths, write_spec  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-j")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Slack Web API: conversations, chat (and scheduled messages), users (and profiles), reactions, pins, user
    # groups (and their users), files, reminders; not admin.*, apps, calls, dnd, stars, views, workflows, oauth
    "slack": {
        "conversations",
        "chat",
        "chat.scheduledMessages",
        "users",
        "users.profile",
        "reactions",
        "pins",
        "usergroups",
        "usergroups.users",
        "files",
        "reminders",
    },
    # Intercom: contacts, companies, conversations, tickets (and ticket types), tags, notes, admins, teams,
    # segments, subscription types, data attributes; not articles, help center, news, AI content, calls, exports
    "intercom": {
        "Contacts",
        "Companies",
        "Conversations",
        "Tickets",
        "Ticket Types",
        "Tags",
        "Notes",
        "Admins",
        "Teams",
        "Segments",
        "Subscription Types",
        "Data Attributes",
    },
    # Woodpecker CI: repositories, pipelines (and logs), cron jobs, repository and organization secrets,
    # repository registries, orgs, agents; not users, forges, system, debugging, badges, queues
    "woodpecker": {
        "Repositories",
        "Pipelines",
        "Pipeline logs",
        "Repository cron jobs",
        "Repository secrets",
        "Repository registries",
        "Orgs",
        "Organization secrets",
        "Agents",
    },
    # DocuSign Admin: organizations' users (multi-product and eSignature user management, user import/export),
    # identity providers, reserved domains, data deletion; not Connect, account creation/cloning, settings export
    "docusign_admin": {
        "MultiProductUserManagement",
        "eSignUserManagement",
        "Users",
        "Organization",
        "IdentityProviders",
        "ReservedDomains",
        "UserImport",
        "UserExport",
        "SingleAccountUserImport",
        "DataDeletion",
    },
}
# Chargebee (no tags): customers, subscriptions, invoices, transactions, orders, plans, addons, coupons, coupon
# codes, comments, estimates; not hosted pages, portal sessions, payment intents, cards, addresses, events, taxes
CHARGEBEE = r"/(customers|subscriptions|invoices|transactions|orders|plans|addons|coupons|coupon_codes|comments|estimates)(/.*)?"
SPECS = {
    "slack": "slack_oa3.json",
    "intercom": "intercom_2.14.yaml",
    "chargebee": "chargebee_v1.json",
    "woodpecker": "woodpecker_oa3.json",
    "typesense": "typesense_openapi.yml",
    "docusign_admin": "docusign_admin_oa3.json",
}


def main():
    for key, name in SPECS.items():
        doc = read_spec(SRC / name)
        if key in TAGS:
            doc = subset(doc, tag_paths(doc, TAGS[key].__contains__), "corpus-oa-j")
        elif key == "chargebee":
            doc = subset(doc, [re.escape(p) for p in doc["paths"] if re.fullmatch(CHARGEBEE, p)], "corpus-oa-j")
        if "corpus-oa-j_build.py" in doc["info"].get("description", ""):
            doc["info"]["description"] = doc["info"]["description"].replace(
                "corpus-oa-j_build.py", "corpus-oa-j_subset.py"
            )
        write_spec(doc, OUT / f"{key}.json")


if __name__ == "__main__":
    main()
