"""`kg-tools` command line. Each command group lives in kg_tools/commands/<name>.py."""

from __future__ import annotations

import sys

import click
from pydantic import ValidationError

from kg_tools.commands.context import AppContext
from kg_tools.errors import CatalogError, KgToolsError
from kg_tools.settings import Settings


@click.group()
@click.version_option()
@click.pass_context
def cli(ctx: click.Context):
    """kg-tools: a Neo4j knowledge graph of tools for LLM agents."""
    app = AppContext(Settings())
    ctx.obj = app
    ctx.call_on_close(app.close)


def _register():
    from kg_tools.commands import (
        bench,
        browser_guide,
        catalogs,
        deps,
        enrich,
        gateway,
        load,
        mcp,
        merge,
        models,
        neo4j,
        retrieve,
        schema,
        serve,
        stats,
        up,
    )
    from kg_tools.commands import eval as evaluate

    for module in (
        neo4j,
        schema,
        load,
        stats,
        up,
        retrieve,
        serve,
        evaluate,
        merge,
        enrich,
        bench,
        models,
        mcp,
        browser_guide,
        deps,
        gateway,
        catalogs,
    ):
        module.register(cli)


_register()


def fail(message: str, code: int = 1) -> None:
    """End the command with details (if any) and then ONE line `error: ...` on stderr."""
    first, *details = str(message).strip().splitlines() or ["failed"]
    for line in details:
        click.echo(line, err=True)
    click.echo(f"error: {first}", err=True)
    sys.exit(code)


def validation_message(exc: ValidationError) -> str:
    """pydantic's multi-line report as one line: each field (for settings: the environment variable),
    what is wrong, and the value given (clipped)."""
    from kg_tools.catalog import clip

    problems = [
        f"{'.'.join(map(str, e['loc'])) or exc.title}: {e['msg']}"
        + (f" (got {clip(e['input'], 60)})" if isinstance(e.get("input"), (str, int, float)) else "")
        for e in exc.errors()
    ]
    return f"invalid {exc.title}: " + "; ".join(problems[:5])


def main(argv=None):
    """Exit codes: 0 ok, 1 error, 2 usage or invalid catalog, 3 `neo4j status` when stopped.
    No traceback reaches the user: anything unexpected still ends in one `error:` line."""
    try:
        code = cli.main(args=argv, prog_name="kg-tools", standalone_mode=False)
    except click.exceptions.Abort:
        fail("aborted")
    except click.UsageError as exc:
        if exc.ctx is not None:
            click.echo(exc.ctx.get_usage(), err=True)
            click.echo(f"Try '{exc.ctx.command_path} --help' for help.", err=True)
        fail(exc.format_message(), exc.exit_code)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except CatalogError as exc:
        fail(str(exc), 2)
    except KgToolsError as exc:
        fail(str(exc))
    except ValidationError as exc:  # a setting from the environment (or a model built from options)
        fail(validation_message(exc))
    except RecursionError:
        fail("the input is nested too deeply to process")
    except Exception as exc:  # noqa: BLE001 - the contract: one line, never a traceback
        fail(f"unexpected {type(exc).__name__}: {exc}")
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
