"""corpus-oa-i: expand make/corpus-oa-i_gold.txt into gold/<key>.json with gold_openapi.py (same line format,
checks and dev/test split), naming each provider in the provenance.

    .venv/bin/python benchmarks/data/deps/make/corpus-oa-i_gold.py [key ...]
"""

import sys

import gold_openapi  # this directory (the script's own) is on sys.path

gold_openapi.PROVIDERS.update(
    {
        "appwrite": "Appwrite (appwrite/appwrite)",
        "openmeter": "OpenMeter (openmeterio/openmeter)",
        "libregraph": "Libre Graph API (owncloud/libre-graph-api)",
        "firefly_iii": "Firefly III (firefly-iii/api-docs)",
        "gotify": "Gotify (gotify/server)",
        "mailpit": "Mailpit (axllent/mailpit)",
    }
)

if __name__ == "__main__":
    gold_openapi.main("corpus-oa-i", only=tuple(sys.argv[1:]))
