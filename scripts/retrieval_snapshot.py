"""Record, or compare against a record, every ranked list the retrieval pipeline gives on ToolLinkOS:
the guard of a refactor that must not change a ranking (issue 22 item 4).

    python scripts/retrieval_snapshot.py record  SNAPSHOT.json [--limit 100]
    python scripts/retrieval_snapshot.py compare SNAPSHOT.json

For the first `--limit` queries of the dev half it runs the default request (as the API gets it),
every eval method that needs no LLM or cross-encoder (benchmarks.eval.runner.method_catalog) and the
pluggable stages on their offline paths, once with the seed cache and once without. Each response is
kept whole except timings: tool names in order, roles, scores (rounded to 6 places), via edges,
members, and the stage notes. `compare` exits 1 naming the first differing query of each request
kind. The graph must hold ToolLinkOS (`kg-tools eval toollinkos` loads it; NEO4J_URI names the server).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from benchmarks.eval import datasets
from benchmarks.eval.runner import GraphOptions, ensure_catalog, method_catalog
from kg_tools.embeddings import embedder_from_settings
from kg_tools.graph import Graph
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.settings import Settings

# requests beyond the eval methods: the staged path's stages on their offline paths, the live
# expansion, other search modes (K 10, no catalog: as the API gets them)
EXTRA = {
    "default": {},
    "default_catalog": {"catalog": "toollinkos"},
    "depth2_dlimit3": {"depth": 2, "d_limit": 3},
    "depth1_direct_tool_edges": {"depth": 1, "prefer_direct": True, "edge_types": ["TOOL_DIRECTLY_DEPENDS_ON"]},
    "k5_K20": {"k": 5, "K": 20},
    "hybrid_expand": {"mode": "hybrid"},
    "dedupe": {"stages": ["dedupe"]},
    "decompose_rrf": {"stages": ["decompose", "fusion-rrf"]},
    "steps_stage": {"stages": ["steps"]},
    "split_steps_k1": {"split_steps": True, "k": 1, "K": 5},
    "enriched": {"stages": ["enriched"]},
    "self_check": {"stages": ["self-check"]},
    "llm_unset": {"rerank": "llm"},
    "offline_stage_dedupe": {"stages": ["dedupe", "rerank-offline"]},
}


METHODS = {
    *("lexical", "vector", "hybrid", "rrf", "grtf", "grtf_paper", "grtf_steps", "grtf_no_rescore"),
    *("grtf_no_supplied_last", "grtf_direct", "grtf_tool_edges", "grtf_skip_supplied", "grtf_offline"),
}
WITHOUT_CACHE = ("default", "grtf", "grtf_paper", "depth2_dlimit3")  # also run with the seed cache off


def response_record(response) -> dict:
    return {
        "tools": [
            [
                t.name,
                t.kind,
                t.role,
                None if t.score is None else round(t.score, 6),
                [v.model_dump(by_alias=True) for v in t.via],
                t.members,
            ]
            for t in response.tools
        ],
        "stages": [[s.name, s.detail, s.fallback] for s in response.stages],
    }


def snapshot(limit: int) -> dict:
    settings = Settings()
    graph = Graph.connect(settings)
    embedder = embedder_from_settings(settings)
    data = datasets.toollinkos(settings.datasets_dir / "toollinkos").split("dev").limited(limit)
    ensure_catalog(graph, embedder, data, settings, print)
    embedder.embed([i.query for i in data.instances], query=True)
    requests: dict[str, dict] = {
        name: {"K": 30, "catalog": data.name, **m.request}
        for name, m in method_catalog(30, GraphOptions(), "none").items()
        if name in METHODS
    }
    requests.update(EXTRA)
    out: dict[str, list] = {}
    for cache_size in (4096, 0):
        pipeline = Pipeline(graph, embedder, settings.model_copy(update={"retrieval_cache_size": cache_size}))
        pipeline.warm_up()
        for name, fields in requests.items():
            if cache_size == 0 and name not in WITHOUT_CACHE:
                continue
            key = f"{name}/cache{cache_size}"
            out[key] = [
                response_record(pipeline.retrieve(RetrievalRequest(query=i.query, **fields))) for i in data.instances
            ]
            print(f"{key}: {digest(out[key])}", file=sys.stderr)
    graph.close()
    return out


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["record", "compare"])
    parser.add_argument("file", type=Path)
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    if args.action == "record":
        result = snapshot(args.limit)
        args.file.write_text(json.dumps({"limit": args.limit, "responses": result}, sort_keys=True))
        print(f"recorded {len(result)} request kinds x {args.limit} queries: {digest(result)}")
        return 0
    saved = json.loads(args.file.read_text())
    result = json.loads(json.dumps(snapshot(saved["limit"])))
    differing = 0
    for key, expected in saved["responses"].items():
        got = result.get(key)
        if got == expected:
            continue
        differing += 1
        if got is None:
            print(f"{key}: not run")
            continue
        n = next(i for i, (a, b) in enumerate(zip(expected, got)) if a != b)
        print(f"{key}: query {n} differs\n  expected {expected[n]}\n  got      {got[n]}")
    missing = sorted(set(result) - set(saved["responses"]))
    print(
        f"{len(saved['responses']) - differing} of {len(saved['responses'])} request kinds identical"
        f" ({digest(result)} vs {digest(saved['responses'])})" + (f"; not in the record: {missing}" if missing else "")
    )
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
