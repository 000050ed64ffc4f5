"""corpus-oa-f: expand make/corpus-oa-f_gold.txt into gold/<key>.json with gold_openapi.py (same line format,
checks and dev/test split), naming each provider in the provenance.

    .venv/bin/python benchmarks/data/deps/make/corpus-oa-f_gold.py
"""
import gold_openapi  # this directory (the script's own) is on sys.path

gold_openapi.PROVIDERS.update({
    "nomad": "HashiCorp Nomad (hashicorp/nomad-openapi)", "netlify_api": "Netlify (netlify/open-api)",
    "lago": "Lago (getlago/lago-openapi)", "jellyfin": "Jellyfin 10.7 (spec vendored by jellyfin/jellyfin-sdk-typescript)",
    "peertube": "PeerTube 7.0 (spec vendored by RustLangLatam/peertube_api_sdk_go)"})

if __name__ == "__main__":
    gold_openapi.main("corpus-oa-f")
