"""No function of the product (kg_tools, api, loaders) is more complex than radon's rank C (cyclomatic
complexity 20 and below): issue 32's bound, kept by this test (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit

from kg_tools import PROJECT_ROOT

LIMIT = 20  # rank C is 11-20; D starts at 21


def test_no_function_is_ranked_worse_than_c():
    worse = []
    for top in ("kg_tools", "api", "loaders"):
        for path in sorted(Path(PROJECT_ROOT, top).rglob("*.py")):
            for block in cc_visit(path.read_text()):
                for item in [block, *getattr(block, "methods", [])]:
                    if item.complexity > LIMIT:
                        worse.append(f"{path.relative_to(PROJECT_ROOT)}:{item.lineno} {item.name} ({item.complexity})")
    assert worse == [], worse
