"""corpus-gold-g: expand make/corpus-gold-g_gold.txt (hand-written gold edges for DEV catalogs that were added without
gold by corpus-oa-a/b/c and corpus-mcp-a; `[key] openapi|mcp` sections, `* !name` exclusions) into gold/<key>.json
with gold_openapi.py (same line format, checks and dev/test split).

    .venv/bin/python benchmarks/data/deps/make/corpus-gold-g_gold.py [key ...]
"""
import sys

import gold_openapi  # this directory (the script's own) is on sys.path

gold_openapi.PROVIDERS.update({
    "harbor": "Harbor (goharbor/harbor)", "vikunja": "Vikunja", "keycloak_admin": "Keycloak Admin REST API",
    "sentry": "Sentry", "linear": "Linear MCP server", "coolify": "Coolify (coollabsio/coolify)",
    "contentful": "Contentful (ivotoby/contentful-management-mcp-server)"})


def provenance(task: str, key: str, kind: str) -> str:
    what = "tool descriptions and input schemas" if kind == "mcp" else "spec descriptions and schemas"
    return (f"Written by hand for kg-tools from {gold_openapi.PROVIDERS.get(key, key)}'s {what}; {task} "
            f"(source lines: make/{task}_gold.txt)")


if __name__ == "__main__":
    gold_openapi.main("corpus-gold-g", provenance, sys.argv[1:])
