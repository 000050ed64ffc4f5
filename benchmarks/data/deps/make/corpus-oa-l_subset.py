"""corpus-oa-l: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset). Chosen (providers, licences) and cut by tag before their operations were studied.
(Wekan's public/api/wekan.yml was chosen first and dropped unstudied: Swagger 2.0 without a response schema.)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-l/):
  solidus.yml          github.com/solidusio/solidus                   1f5bf5c638f5fe9fbda4d480bdb7ebcfa39a9a5e
                       api/openapi/solidus-api.oas.yml (Solidus API, OpenAPI 3.0.3)
  grocy.json           github.com/grocy/grocy                         acd061e2cde09fc5bc4e34673021039b25ab7067
                       grocy.openapi.json (grocy REST API, OpenAPI 3.1.0)
  karakeep.json        github.com/karakeep-app/karakeep               7ca5ee236b96cd659096b1530c5be3fdcd8e4470
                       packages/open-api/karakeep-openapi-spec.json (Karakeep API, OpenAPI 3.0.0)
  netbird.yml          github.com/netbirdio/netbird                   ee253feddfd08a1b559d4014cbcf8d64cabed937
                       shared/management/http/api/openapi.yml (NetBird management API, OpenAPI 3.1.0; shared/ is
                       BSD-3-Clause, the repository's default licence)
  changedetection.yaml github.com/dgtlmoon/changedetection.io         fce24780e74199bf34c62a0d90188cc2fc12f061
                       docs/api-spec.yaml (changedetection.io API, OpenAPI 3.1.0; kept whole)

    python corpus-oa-l_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_tags  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-l")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Solidus: the catalogue and its stock (products, variants, option types and values, taxonomies, taxons,
    # classifications, stock locations, items and movements); not orders, checkout, payments, shipments,
    # returns, users, addresses, stores, zones, promotions
    "solidus": {
        "Products",
        "Variants",
        "Option types",
        "Option values",
        "Taxonomies",
        "Taxons",
        "Classifications",
        "Stock locations",
        "Stock items",
        "Stock movements",
    },
    # grocy: stock, recipes, chores, batteries, tasks; not the generic entity interactions (/objects/{entity},
    # whose entity enums the server fills in at run time: the file's references to them point nowhere), stock by
    # barcode, system, files, users, current user, calendar, print
    "grocy": {"Stock", "Recipes", "Chores", "Batteries", "Tasks"},
    # Karakeep: bookmarks, lists, tags, highlights, assets, feeds, users; not admin, backups
    "karakeep": {"Bookmarks", "Lists", "Tags", "Highlights", "Assets", "Feeds", "Users"},
    # NetBird: users and their tokens, peers, setup keys, groups, policies, routes, networks (with their resources
    # and routers), posture checks; not accounts, DNS, events, integrations, billing, MSP, services, proxies
    "netbird": {
        "Users",
        "Tokens",
        "Peers",
        "Setup Keys",
        "Groups",
        "Policies",
        "Routes",
        "Networks",
        "Posture Checks",
    },
}
SPECS = {
    "solidus": "solidus.yml",
    "grocy": "grocy.json",
    "karakeep": "karakeep.json",
    "netbird": "netbird.yml",
    "changedetection": "changedetection.yaml",
}


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-l")


if __name__ == "__main__":
    main()
