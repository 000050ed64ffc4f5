"""neo4j.conf as `kg-tools neo4j start` writes it: the optional Lucene index buffer (no server needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg_tools.errors import Neo4jServerError
from kg_tools.neo4j_server import LocalNeo4j, index_buffer_mb
from kg_tools.settings import Settings

SETTING = "internal.dbms.index.lucene.standard_ram_buffer_size"


def test_index_buffer_is_written_only_when_set(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("KG_TOOLS_NEO4J_INDEX_BUFFER", raising=False)
    server = LocalNeo4j.from_settings(Settings(neo4j_home=tmp_path))
    server.write_conf()
    assert SETTING not in (tmp_path / "conf" / "neo4j.conf").read_text()

    monkeypatch.setenv("KG_TOOLS_NEO4J_INDEX_BUFFER", "1g")
    server = LocalNeo4j.from_settings(Settings(neo4j_home=tmp_path))
    server.write_conf()
    lines = (tmp_path / "conf" / "neo4j.conf").read_text().splitlines()
    assert f"{SETTING}=1024" in lines
    assert "server.memory.pagecache.size=256m" in lines  # the rest unchanged


def test_vector_merge_factor_is_written_only_when_set(tmp_path: Path, monkeypatch):
    setting = "internal.dbms.index.vector.standard_merge_factor"
    monkeypatch.delenv("KG_TOOLS_NEO4J_VECTOR_MERGE_FACTOR", raising=False)
    LocalNeo4j.from_settings(Settings(neo4j_home=tmp_path)).write_conf()
    assert setting not in (tmp_path / "conf" / "neo4j.conf").read_text()
    monkeypatch.setenv("KG_TOOLS_NEO4J_VECTOR_MERGE_FACTOR", "4")
    LocalNeo4j.from_settings(Settings(neo4j_home=tmp_path)).write_conf()
    assert f"{setting}=4" in (tmp_path / "conf" / "neo4j.conf").read_text().splitlines()


def test_index_buffer_sizes():
    assert index_buffer_mb("512m") == 512 and index_buffer_mb("2G") == 2048
    for bad in ("", "1.5g", "0m", "1024", "1t"):
        with pytest.raises(Neo4jServerError, match="KG_TOOLS_NEO4J_INDEX_BUFFER"):
            index_buffer_mb(bad)
