"""The Seal-Tools loader on the real files, loaded into the real Neo4j (skipped when the files are absent)."""

from __future__ import annotations

import pytest

from kg_tools.loaders import seal_tools
from kg_tools.tool_spec import validate_catalog


@pytest.mark.integration
def test_real_dataset(settings):
    directory = settings.datasets_dir / "seal-tools"
    if not directory.is_dir():
        pytest.skip(f"Seal-Tools not found at {directory}")
    source = seal_tools.load(directory)
    assert source.catalog == "seal-tools" and len(source.tools) == 4076 and len(source.instances) == 654
    validated = validate_catalog(source.tools)
    assert validated.report.tools == 4076 and validated.report.edges == 0
    names = {t["name"] for t in source.tools}
    assert all(set(q["gold"]) <= names and q["gold"] for q in source.instances)
    assert source.instances[0]["gold"] == ["getFilmDetails"]
