"""corpus-oa-j: expand make/corpus-oa-j_gold.txt into gold/<key>.json with gold_openapi.py (same line format,
checks and dev/test split), naming each provider in the provenance.

    .venv/bin/python benchmarks/data/deps/make/corpus-oa-j_gold.py [key ...]
"""

import sys

import gold_openapi  # this directory (the script's own) is on sys.path

gold_openapi.PROVIDERS.update(
    {
        "slack": "Slack (slackapi/slack-api-specs)",
        "intercom": "Intercom (intercom/Intercom-OpenAPI)",
        "chargebee": "Chargebee (chargebee/openapi)",
        "woodpecker": "Woodpecker CI (woodpecker-ci/woodpecker)",
        "typesense": "Typesense (typesense/typesense-api-spec)",
        "docusign_admin": "DocuSign Admin API (docusign/OpenAPI-Specifications)",
    }
)

if __name__ == "__main__":
    gold_openapi.main("corpus-oa-j", only=tuple(sys.argv[1:]))
