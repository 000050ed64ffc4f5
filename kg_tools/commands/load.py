"""`kg-tools load toollinkos|toolsandbox|seal-tools|json ...`: validate, embed and write a catalog."""
from pathlib import Path

import click

from kg_tools.ingest import load_catalog


def run_load(app, source, strict: bool, replace: bool):
    click.echo(f"loading {source.catalog} from {', '.join(source.files)}")
    result = load_catalog(
        app.driver, app.embedder, source.tools, source.catalog,
        strict=strict, replace=replace, batch_size=app.settings.write_batch_size,
        log=click.echo, show_progress=True,
    )
    click.echo(result.report.summary(messages=False))
    click.echo(
        f"wrote {result.tools} tools and {result.edges} dependency edges in one transaction "
        f"({result.embedded} embedded in {result.embed_seconds:.2f}s, write {result.write_seconds:.2f}s)"
    )
    return result


def _options(f):
    f = click.option("--strict", is_flag=True, help="Reject non-standard dependence types instead of normalising them.")(f)
    f = click.option("--replace", is_flag=True, help="Delete the current catalog first (same transaction).")(f)
    return f


def register(cli):
    from kg_tools.cli import pass_app

    @cli.group("load")
    def group():
        """Load a tool catalog into Neo4j (transactional, idempotent)."""

    @group.command("toollinkos")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @_options
    @pass_app
    def toollinkos(app, directory, strict, replace):
        """ToolLinkOS (DIR defaults to $KG_TOOLS_DATASETS/toollinkos)."""
        from loaders import toollinkos as loader

        run_load(app, loader.load(directory or app.settings.datasets_dir / "toollinkos"), strict, replace)

    @group.command("toolsandbox")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @_options
    @pass_app
    def toolsandbox(app, directory, strict, replace):
        """ToolSandbox (DIR defaults to $KG_TOOLS_DATASETS/toolsandbox)."""
        from loaders import toolsandbox as loader

        run_load(app, loader.load(directory or app.settings.datasets_dir / "toolsandbox"), strict, replace)

    @group.command("seal-tools")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @_options
    @pass_app
    def seal_tools(app, directory, strict, replace):
        """Seal-Tools tool.jsonl (DIR defaults to $KG_TOOLS_DATASETS/seal-tools); no dependency edges."""
        from loaders import seal_tools as loader

        run_load(app, loader.load(directory or app.settings.datasets_dir / "seal-tools"), strict, replace)

    @group.command("json")
    @click.argument("file", type=click.Path(path_type=Path))
    @click.option("--catalog", help="Catalog name stored on the tools (default: the file name).")
    @_options
    @pass_app
    def json_(app, file, catalog, strict, replace):
        """Any catalog in the ToolLinkOS schema (JSON list, {"tools": [...]} or JSON lines)."""
        from loaders import json_catalog as loader

        run_load(app, loader.load(file, catalog), strict, replace)

    return group
