"""Loaders translate a file format into catalog entries (lists of dicts); they never talk to Neo4j."""

from kg_tools.loaders.common import CatalogSource, read_json  # noqa: F401
