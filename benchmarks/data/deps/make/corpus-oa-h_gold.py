"""corpus-oa-h: expand make/corpus-oa-h_gold.txt into gold/<key>.json with gold_openapi.py (same line format,
checks and dev/test split), naming each provider in the provenance.

    .venv/bin/python benchmarks/data/deps/make/corpus-oa-h_gold.py [key ...]
"""

import sys

import gold_openapi  # this directory (the script's own) is on sys.path

gold_openapi.PROVIDERS.update(
    {
        "svix": "Svix (svix/svix-webhooks)",
        "weaviate": "Weaviate (weaviate/weaviate)",
        "temporal": "Temporal (temporalio/api)",
        "langfuse": "Langfuse (langfuse/langfuse)",
        "memos": "Memos (usememos/memos)",
        "openfga": "OpenFGA (openfga/api)",
        "flipt": "Flipt v1 (flipt-io/flipt)",
    }
)

if __name__ == "__main__":
    gold_openapi.main("corpus-oa-h", only=tuple(sys.argv[1:]))
