"""corpus-oa-g: expand make/corpus-oa-g_gold.txt into gold/<key>.json with gold_openapi.py (same line format,
checks and dev/test split), naming each provider in the provenance.

    .venv/bin/python benchmarks/data/deps/make/corpus-oa-g_gold.py
"""

import sys

import gold_openapi  # this directory (the script's own) is on sys.path

gold_openapi.PROVIDERS.update(
    {
        "square": "Square (square/connect-api-specification)",
        "jira_platform": "Atlassian Jira Cloud platform (spec republished by salto-io/jira-swaggers)",
        "openai": "OpenAI (openai/openai-openapi)",
        "trippin_odata": "the OData TripPin service (spec from microsoft/OpenAPI.NET.OData)",
        "prowler": "Prowler (prowler-cloud/prowler)",
        "openproject": "OpenProject API v3 (spec vendored by dattrink/openproject-typescript-sdk)",
        "shlink": "Shlink (shlinkio/shlink)",
    }
)

if __name__ == "__main__":
    gold_openapi.main("corpus-oa-g", only=tuple(sys.argv[1:]))
