"""The union's family gold (benchmarks/data/deps/union/family_gold.json): edges between two servers of one product
family, their names in the union, each scored in the half its consumer is scored in."""

from __future__ import annotations

from benchmarks.deps_gold import read_gold
from benchmarks.deps_union import FAMILY_GOLD, SEP, family_gold, servers, union, union_gold


def test_family_gold_joins_two_servers_of_one_family_under_every_naming():
    edges, meta = read_gold(FAMILY_GOLD)
    assert edges and meta["provenance"]
    for e in edges:
        source, target = e.source.split(SEP)[0], e.target.split(SEP)[0]
        assert source != target and source.split("_")[0] == target.split("_")[0]
    for names in ("prefixed", "plain"):
        _, renamed, _ = union(names)
        assert len(family_gold(renamed)) == len(edges)


def test_family_edges_count_in_their_consumers_half():
    _, renamed, _ = union("prefixed")
    added = {(e.source, e.target) for e in family_gold(renamed)}
    halves = {}
    for split in ("dev", "test"):
        without, scored = union_gold(renamed, split)
        with_families, _ = union_gold(renamed, split, families=True)
        halves[split] = {(e.source, e.target) for e in with_families} - {(e.source, e.target) for e in without}
        assert all(s in (scored or set()) for s, _ in halves[split])
    assert halves["dev"] | halves["test"] == added and not halves["dev"] & halves["test"]


def test_a_union_of_a_few_servers_keeps_the_family_gold_between_them_only():
    pool = {s: c for s, c in servers().items() if s in {"aws_ecs", "aws_eks", "github"}}
    _, renamed, _ = union("plain", pool)
    assert {s for s, _ in renamed} == set(pool)
    assert all({e.source, e.target} <= set(renamed.values()) for e in family_gold(renamed))
    gold, _ = union_gold(renamed, "all", families=True, pool=pool)
    assert gold and {e.source for e in gold} <= set(renamed.values())
