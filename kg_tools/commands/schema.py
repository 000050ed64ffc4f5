"""`kg-tools schema apply|reindex`."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.ingest import reembed_all
from kg_tools.schema import apply_schema, drop_vector_indexes, list_indexes


def register(cli):
    @cli.group("schema")
    def group():
        """Constraints and indexes (schema/*.cypher)."""

    @group.command()
    @pass_app
    def apply(app):
        """Create constraints, the fulltext index and the vector index (idempotent)."""
        for stmt in apply_schema(app.graph, app.embedder.dimension, app.embedder.name):
            click.echo(f"ok: {stmt}")
        for idx in list_indexes(app.graph):
            click.echo(f"{idx['name']:<28} {idx['type']:<9} {idx['state']}")

    @group.command()
    @pass_app
    def reindex(app):
        """Drop and recreate the vector indexes for the configured embedder; re-embed tools and questions."""
        drop_vector_indexes(app.graph)
        apply_schema(app.graph, app.embedder.dimension, app.embedder.name)
        tools, questions = reembed_all(app.graph, app.embedder, show_progress=True)
        click.echo(
            f"re-embedded {tools} tools and {questions} enrichment questions with {app.embedder.name} "
            f"({app.embedder.dimension} dimensions)"
        )
