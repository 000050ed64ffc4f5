"""`kg-tools neo4j` sets a password that starts with a dash (a real local server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg_tools.neo4j_server import LocalNeo4j
from kg_tools.settings import Settings


@pytest.mark.integration
def test_a_password_starting_with_a_dash_is_set(tmp_path: Path):
    """token_urlsafe starts with "-" one time in 32; neo4j-admin took it for an option (a CI run failed so)."""
    project = LocalNeo4j.from_settings(Settings())
    if not project.jars_installed():
        pytest.skip("Neo4j jars not installed (scripts/setup)")
    server = LocalNeo4j(home=tmp_path, password="-Dash_first_0123", lib_dir=project.lib)
    server.write_conf()
    server._ensure_password(log=lambda _msg: None)
    assert (tmp_path / "data" / "dbms" / "auth.ini").exists()
