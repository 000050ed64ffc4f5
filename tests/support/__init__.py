"""Helpers the tests share: a local Neo4j, CLI processes, HTTP servers, a fake LLM, the synthetic catalog,
tiny models, and the fixture files (fixtures/)."""

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
