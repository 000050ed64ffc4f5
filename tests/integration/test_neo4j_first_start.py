"""`kg-tools neo4j start` on a home that has the jars but was never installed (jars copied or shared, as a
second checkout does): the first start sets the initial password, so the password file logs in."""

from __future__ import annotations

import pytest
from neo4j import GraphDatabase

from kg_tools import PROJECT_ROOT
from kg_tools.neo4j_server import LocalNeo4j
from kg_tools.processes import free_port

pytestmark = pytest.mark.integration


def test_first_start_without_install_sets_the_password(tmp_path):
    lib = PROJECT_ROOT / ".neo4j" / "lib"
    if not any(lib.glob("neo4j-server-5.26.*.jar")):
        pytest.skip("no Neo4j jars in .neo4j/lib (kg-tools neo4j install)")
    home = tmp_path / "neo4j"
    home.mkdir()
    (home / "password").write_text("first-start-pw\n")
    server = LocalNeo4j(home=home, bolt_port=free_port(), http_port=free_port(), lib_dir=lib, heap="256m")
    server.start(log=lambda _: None)
    try:
        with GraphDatabase.driver(server.bolt_uri, auth=("neo4j", "first-start-pw")) as driver:
            assert driver.execute_query("RETURN 1 AS one").records[0]["one"] == 1
    finally:
        server.stop(log=lambda _: None)
