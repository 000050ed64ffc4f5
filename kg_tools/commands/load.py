"""`kg-tools load toollinkos|toolsandbox|seal-tools|json|openai-tools|openapi|mcp ...`: validate, embed and write a catalog."""

import importlib
from pathlib import Path

import click

from kg_tools.commands.context import pass_app
from kg_tools.ingest import LoadMode, load_catalog


def run_load(app, source, strict: bool, replace: bool, takeover: bool = False):
    click.echo(f"loading {source.catalog} from {', '.join(source.files)}")
    for warning in source.warnings:
        click.echo(f"warning: {warning}")
    result = load_catalog(
        app.graph,
        app.embedder,
        source.tools,
        source.catalog,
        LoadMode.REPLACE if replace else LoadMode.ADD,
        strict=strict,
        takeover=takeover,
        batch_size=app.settings.write_batch_size,
        log=click.echo,
        show_progress=True,
        source=", ".join(map(str, source.files)),
    )
    click.echo(result.report.summary(messages=False))
    if result.written_how is None:
        click.echo(f"{result.tools} tools and {result.edges} dependency edges unchanged: nothing written")
    else:
        click.echo(
            f"wrote {result.tools} tools and {result.edges} dependency edges {result.written_how} "
            f"({result.embedded} embedded in {result.embed_seconds:.2f}s, write {result.write_seconds:.2f}s)"
        )
    return result


def _options(f):
    f = click.option(
        "--strict", is_flag=True, help="Reject non-standard dependence types instead of normalising them."
    )(f)
    f = click.option(
        "--replace",
        is_flag=True,
        help="Replace this catalog: its tools missing from the file are deleted (same transaction); "
        "other catalogs are untouched.",
    )(f)
    f = click.option(
        "--takeover",
        is_flag=True,
        help="Obsolete, ignored: tool names are per catalog (a name another catalog holds is another tool).",
    )(f)
    return f


# Benchmark datasets: command name -> (loader module, title). Each loader has load(directory).
DATASETS = {
    "toollinkos": ("kg_tools.loaders.toollinkos", "ToolLinkOS"),
    "toolsandbox": ("kg_tools.loaders.toolsandbox", "ToolSandbox (tools.json or the core/regular split files)"),
    "seal-tools": ("kg_tools.loaders.seal_tools", "Seal-Tools tool.jsonl; no dependency edges"),
}


def _dataset_command(name: str, module: str):
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @_options
    @pass_app
    def command(app, directory, strict, replace, takeover):
        loader = importlib.import_module(module)
        run_load(app, loader.load(directory or app.settings.datasets_dir / name), strict, replace, takeover)

    return command


def register(cli):
    @cli.group("load")
    def group():
        """Load a tool catalog into Neo4j (transactional, idempotent)."""

    for name, (module, title) in DATASETS.items():
        group.command(name, help=f"{title} (DIR defaults to $KG_TOOLS_DATASETS/{name}).")(
            _dataset_command(name, module)
        )

    @group.command("json")
    @click.argument("file", type=click.Path(dir_okay=False, path_type=Path))  # a directory: usage error (2)
    @click.option("--catalog", help="Catalog name stored on the tools (default: the file name).")
    @_options
    @pass_app
    def json_(app, file, catalog, strict, replace, takeover):
        """Any catalog in the ToolLinkOS schema (JSON list, {"tools": [...]} or JSON lines), or an MCP
        tools/list result saved to a file ({"tools": [{name, inputSchema ...}]})."""
        from kg_tools.loaders import json_catalog as loader

        run_load(app, loader.load(file, catalog), strict, replace, takeover)

    for name, module, title in IMPORTERS:
        group.command(name, help=title)(_file_command(module))

    @group.command("mcp", context_settings={"ignore_unknown_options": True})
    @click.argument("command", nargs=-1, type=click.UNPROCESSED)
    @click.option("--url", help="Streamable HTTP endpoint of a running MCP server (e.g. http://127.0.0.1:8765/mcp).")
    @click.option("--catalog", help="Catalog name stored on the tools (default: the server's name).")
    @_options
    @pass_app
    def mcp(app, command, url, catalog, strict, replace, takeover):
        """The tools of an MCP server: `load mcp -- COMMAND ARGS...` starts it over stdio, `--url URL`
        connects over streamable HTTP; then tools/list, loaded like any catalog."""
        from kg_tools.loaders import mcp_server

        run_load(app, mcp_server.load(list(command) or None, url, catalog), strict, replace, takeover)

    return group


# File importers: command name, loader module (load(path, catalog)), help.
IMPORTERS = (
    (
        "openai-tools",
        "kg_tools.loaders.openai_tools",
        'A list of OpenAI tools ({"type": "function", "function": {...}}, flat Responses tools or bare function objects;'
        " Anthropic's input_schema tools; JSON or JSON lines).",
    ),
    (
        "openapi",
        "kg_tools.loaders.openapi",
        "An OpenAPI 3.0/3.1/3.2 or Swagger 2.0 spec (JSON or YAML): one tool per operation, parameters and request"
        " body (JSON, form, */*) flattened; a value or text body is one parameter.",
    ),
)


def _file_command(module: str):
    @click.argument("file", type=click.Path(dir_okay=False, path_type=Path))  # a directory: usage error (2)
    @click.option("--catalog", help="Catalog name stored on the tools (default: the file name).")
    @_options
    @pass_app
    def command(app, file, catalog, strict, replace, takeover):
        run_load(app, importlib.import_module(module).load(file, catalog), strict, replace, takeover)

    return command
