"""The live dependency expansion (kg_tools/retrieval/expansion.py over cypher/expand_paths.cypher's
reachable subgraph) against the reference Cypher that enumerates every simple path
(cypher/expand_paths_enumerated.cypher), on random graphs with merges, for every option; and on a
dense catalog, where enumerating paths exhausted Neo4j's transaction memory (issue #8: the fuzzer's
`deps infer --apply` with min_confidence 0 connected every tool to every other one, and
`GET /v1/tools/{name}/dependencies` and retrieval with K > 32 timed out or failed)."""

from __future__ import annotations

import json
import random
import time

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.ingest import load_catalog
from kg_tools.retrieval import queries
from kg_tools.retrieval.expansion import complete

pytestmark = pytest.mark.integration

TYPES = [
    "TOOL_DIRECTLY_DEPENDS_ON",
    "TOOL_INDIRECTLY_DEPENDS_ON",
    "PARAMETER_DIRECTLY_DEPENDS_ON",
    "PARAMETER_INDIRECTLY_DEPENDS_ON",
]
OPTIONS = [
    {},
    {"prefer_direct": True},
    {"edge_types": ["TOOL_DIRECTLY_DEPENDS_ON", "PARAMETER_INDIRECTLY_DEPENDS_ON"]},
    {"drop_parameter_patterns": ["(?i).*date.*", "city"]},
    {
        "prefer_direct": True,
        "edge_types": [
            "PARAMETER_DIRECTLY_DEPENDS_ON",
            "PARAMETER_INDIRECTLY_DEPENDS_ON",
            "TOOL_INDIRECTLY_DEPENDS_ON",
        ],
        "drop_parameter_patterns": ["email"],
    },
]


def random_graph(graph, rng: random.Random, tools: int, edges: int, merges: int) -> list[str]:
    names = [f"t{i:02d}" for i in range(tools)]
    rows = []
    for _ in range(edges):
        a, b = rng.sample(names, 2)
        rows.append(
            {
                "a": a,
                "b": b,
                "type": rng.choice(TYPES),
                "ord": rng.randrange(4),  # shared ords: ties
                "p": rng.choice([None, "travel_date", "city", "email", "amount"]),
                "reason": f"{a}->{b}",
            }
        )
    graph.write("MATCH (n) DETACH DELETE n")
    graph.write("UNWIND $names AS n CREATE (:Tool {name: n, func_type: 'regular', spec: '{}'})", names=names)
    for t in TYPES:  # relationship types cannot be parameters
        graph.write(
            f"UNWIND $rows AS r MATCH (a:Tool {{name: r.a}}), (b:Tool {{name: r.b}}) "
            f"CREATE (a)-[:{t} {{ord: r.ord, parameter_name: r.p, reason: r.reason}}]->(b)",
            rows=[r for r in rows if r["type"] == t],
        )
    members = rng.sample(names, 2 * merges)
    graph.write(
        "UNWIND $pairs AS p MATCH (m:Tool {name: p[0]}), (c:Tool {name: p[1]}) CREATE (m)-[:MERGED_INTO]->(c)",
        pairs=[members[i : i + 2] for i in range(0, len(members), 2)],
    )
    return names


@pytest.mark.parametrize("seed", range(6))
def test_the_live_expansion_equals_the_enumerated_paths(empty_graph, seed):
    rng = random.Random(seed)
    names = random_graph(empty_graph, rng, tools=12, edges=30 + 5 * seed, merges=seed % 3)
    seeds = [{"name": n, "score": 1.0} for n in names]
    compared = 0
    for depth in range(1, 6):
        for options in OPTIONS:
            for d_limit in (3, 100):
                params = queries.expand_params(d_limit=d_limit, **options)
                live = complete(
                    empty_graph.read_plain(*queries.expand(depth, seeds, params, closure=False)),
                    depth,
                    params,
                    empty_graph.read_plain,
                )
                reference = empty_graph.read_plain(*queries.expand_enumerated(depth, seeds, params))
                for row in reference:
                    row.pop("reach")
                assert live == reference, (seed, depth, options, d_limit)
                compared += sum(len(r["deps"]) for r in live)
    assert compared > 1000  # real expansions were compared, not empty lists


def test_a_dense_catalog_is_expanded_in_bounded_time(empty_graph, embedder, settings):
    """24 tools, each depending on all 23 others: about 6 million simple paths of 5 edges per seed."""

    names = [f"dense_tool_{i:02d}" for i in range(24)]
    catalog = [
        {
            "name": n,
            "description": f"Dense test tool number {i} for the expansion.",
            "func_type": "regular",
            "depends_on": [
                {"name": m, "dependence_type": TYPES[(i + j) % 4], "reason": "all of them"}
                for j, m in enumerate(names)
                if m != n
            ],
        }
        for i, n in enumerate(names)
    ]
    load_catalog(empty_graph, embedder, json.loads(json.dumps(catalog)), "dense", log=lambda *_: None)
    with TestClient(create_app(settings, graph=empty_graph, embedder=embedder)) as client:
        for name in names[:3]:
            t0 = time.perf_counter()
            r = client.get(f"/v1/tools/{name}/dependencies")
            assert r.status_code == 200, r.text
            # no path explosion (that takes minutes)
            assert len(r.json()["dependencies"]) == 23 and time.perf_counter() - t0 < 20.0
        for body in (
            {"query": "dense test tool", "K": 40},
            {"query": "dense test tool", "prefer_direct": True},
            {"query": "dense test tool", "k": 5, "K": 128, "rerank": "none", "mode": "hybrid"},
        ):
            t0 = time.perf_counter()
            r = client.post("/v1/retrieve", json=body)
            assert r.status_code == 200, r.text
            assert len(r.json()["tools"]) == min(body["K"] if "K" in body else 10, 24)
            assert time.perf_counter() - t0 < 20.0, body
