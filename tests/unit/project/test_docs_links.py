"""The README stays short and every link in the README, the changelog and docs/ resolves (unit, no Neo4j)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg_tools import PROJECT_ROOT

DOCS = [PROJECT_ROOT / "README.md", PROJECT_ROOT / "CHANGELOG.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def _outside_code(text: str) -> str:
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, flags=re.M)}


def test_readme_is_short():
    assert len((PROJECT_ROOT / "README.md").read_text().splitlines()) <= 300


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(PROJECT_ROOT)))
def test_every_link_resolves(doc: Path):
    broken = []
    for match in LINK.finditer(_outside_code(doc.read_text())):
        target = match.group(1) or match.group(2)
        if re.match(r"^[a-z]+:", target):  # http(s), mailto: not checked offline
            continue
        file_part, _, anchor = target.partition("#")
        path = (doc.parent / file_part).resolve() if file_part else doc
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, f"{doc.name}: " + "; ".join(broken)


def test_every_guide_is_linked_from_the_readme():
    readme = (PROJECT_ROOT / "README.md").read_text()
    missing = [p.name for p in (PROJECT_ROOT / "docs").glob("*.md") if f"docs/{p.name}" not in readme]
    assert not missing, f"guides the README does not link: {missing}"
