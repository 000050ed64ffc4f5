"""Seeded draws of a few dev MCP servers (benchmarks/deps_groups.py)."""

from __future__ import annotations

import pytest

from benchmarks.deps_groups import SIZES, draw


def test_draws_are_seeded_and_under_the_tool_limit():
    sizes = {f"s{i}": 10 + 7 * i for i in range(30)}
    groups = draw(sizes, 12, 200, "seed")
    assert groups == draw(sizes, 12, 200, "seed") != draw(sizes, 12, 200, "other")
    assert len(groups) == 12
    for g in groups:
        assert SIZES[0] <= len(g) <= SIZES[1] and len(set(g)) == len(g)
        assert sum(sizes[s] for s in g) < 200


def test_a_limit_no_group_meets_is_an_error_not_a_hang():
    """Twenty-sixth session: `--max-tools 5` looped for ever; now a ValueError naming the limit."""
    sizes = {f"s{i}": 10 + 7 * i for i in range(30)}
    with pytest.raises(ValueError, match="--max-tools 5: 0 of 2 groups"):
        draw(sizes, 2, 5, "seed")
    with pytest.raises(ValueError, match="2 servers"):
        draw({"a": 1, "b": 1}, 1, 100, "seed")
    assert draw(sizes, 0, 5, "seed") == []
