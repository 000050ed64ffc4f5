"""corpus-oa-i: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-i/):
  appwrite_server.json      github.com/appwrite/appwrite        9dc11c17159c43f3d1808ad06bada695b0200854
                            app/config/specs/open-api3-latest-server.json (server SDK spec, OpenAPI 3.0.0; the last
                            commit before the specs left the repository)
  openmeter_openapi.yaml    github.com/openmeterio/openmeter    7e57a394a0283fb210a644685ad1d257f6d5c85c
                            api/openapi.yaml (OpenMeter API v1, OpenAPI 3.0.0, generated from TypeSpec)
  libregraph_v1.0.yaml      github.com/owncloud/libre-graph-api 2c0073c75f60f523d4ffcb01647cfaa034ed123b
                            api/openapi-spec/v1.0.yaml (Libre Graph, ownCloud Infinite Scale's MS-Graph-like API)
  firefly_v1.yaml           github.com/firefly-iii/api-docs     8356c933413e98cb40f3b4549a5260d4efb636bd
                            dist/firefly-iii-v6.6.2-v1.yaml (Firefly III API v1, OpenAPI 3.0.0)
  gotify_oa3.json           github.com/gotify/server            d543a8aad22fcbebf25e76d201b4317882b5e148
                            docs/spec.json (swagger 2.0, converted with
                            `npx swagger2openapi@7.0.8 -p gotify_spec.json -o gotify_oa3.json`; kept whole)
  mailpit_oa3.json          github.com/axllent/mailpit          408b30d59709e3f2ed69c7748d900a2208cfbf9b
                            server/ui/api/v1/swagger.json (swagger 2.0, converted with
                            `npx swagger2openapi@7.0.8 -p mailpit_swagger.json -o mailpit_oa3.json`; kept whole)

    python corpus-oa-i_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import read_spec, subset, tag_paths, write_spec  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-i")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Appwrite: databases (collections, attributes, indexes, documents), storage (buckets, files), teams
    # (memberships); not account, users, functions, sites, messaging, tablesDB (the new name of databases)
    "appwrite": {"databases", "storage", "teams"},
    # OpenMeter: customers, subjects, meters, the product catalog (features, plans, add-ons) and subscriptions; not
    # entitlements, billing (invoices, profiles), apps, notifications, portal, events
    "openmeter": {"Customers", "Subjects", "Meters", "Product Catalog", "Subscriptions"},
    # Libre Graph: drives, drive items and permissions, me, users, groups, tags, applications, role definitions;
    # not the education endpoints (schools, classes, education users)
    "libregraph": {
        "me.user",
        "me.changepassword",
        "activities",
        "me.drives",
        "drives.GetDrives",
        "drives",
        "drives.root",
        "driveItem",
        "drives.permissions",
        "groups",
        "group",
        "me.drive",
        "me.drive.root",
        "me.drive.root.children",
        "users",
        "user",
        "user.appRoleAssignment",
        "tags",
        "applications",
        "roleManagement",
    },
    # Firefly III: accounts, transactions, budgets (and their limits), bills, categories, piggy banks, tags,
    # attachments; not autocomplete, charts, insight, data, rules, currencies, links, webhooks, configuration
    "firefly_iii": {"accounts", "attachments", "bills", "budgets", "categories", "piggy_banks", "tags", "transactions"},
}
SPECS = {
    "appwrite": "appwrite_server.json",
    "openmeter": "openmeter_openapi.yaml",
    "libregraph": "libregraph_v1.0.yaml",
    "firefly_iii": "firefly_v1.yaml",
    "gotify": "gotify_oa3.json",
    "mailpit": "mailpit_oa3.json",
}


def main():
    for key, name in SPECS.items():
        doc = read_spec(SRC / name)
        if key in TAGS:
            doc = subset(doc, tag_paths(doc, TAGS[key].__contains__), "corpus-oa-i")
            doc["info"]["description"] = doc["info"]["description"].replace(
                "corpus-oa-i_build.py", "corpus-oa-i_subset.py"
            )
        write_spec(doc, OUT / f"{key}.json")


if __name__ == "__main__":
    main()
