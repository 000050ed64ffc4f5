"""`kg-tools` command line. Each command group lives in kg_tools/commands/<name>.py."""

from __future__ import annotations

import functools
import sys
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

import click
from pydantic import ValidationError

from kg_tools.commands import (
    browser_guide,
    catalogs,
    core,
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
from kg_tools.commands.context import AppContext
from kg_tools.errors import CatalogError, KgToolsError
from kg_tools.settings import Settings
from kg_tools.tool_spec import clip

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

# Command groups other distributions add (entry point group "kg_tools.commands": name = "module:register",
# register(cli) adds the group), loaded only when their name is given or the commands are listed, so serving
# (`up`, `serve`, `mcp`, `gateway`) imports none of them. The benchmark harness, kg-tools-benchmarks
# (benchmarks/), adds these two; without it they stay listed and end with one line saying what to install.
PLUGIN_GROUP = "kg_tools.commands"
HARNESS_COMMANDS = {
    "eval": "Evaluate retrieval against the benchmarks (tables, JSON, PNG).",
    "bench": "Speed benchmarks (tables + JSON).",
}


class HarnessMissing(click.ClickException):
    exit_code = 2


def _harness_placeholder(name: str, about: str, reason: str) -> click.Command:
    @click.command(
        name,
        help=f"{about} Needs kg-tools-benchmarks.",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []},
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args):
        raise HarnessMissing(
            f"`kg-tools {name}` is the benchmark harness, {reason}: install kg-tools-benchmarks "
            "(scripts/test does; or `pip install -e ./benchmarks` in the checkout)"
        )

    return command


@functools.cache
def _plugins() -> dict[str, EntryPoint]:
    return {entry.name: entry for entry in entry_points(group=PLUGIN_GROUP)}


class KgToolsGroup(click.Group):
    """The runtime's commands, plus the plugins' groups, loaded when named or listed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *HARNESS_COMMANDS, *_plugins()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            self._load_plugin(cmd_name)
        return self.commands.get(cmd_name)

    def _load_plugin(self, name: str) -> None:
        reason = "which is not installed"
        entry = _plugins().get(name)
        if entry is not None:
            try:
                entry.load()(self)
            except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the runtime's commands
                reason = f"which failed to load ({type(exc).__name__}: {exc})"
        if name not in self.commands and name in HARNESS_COMMANDS:
            self.add_command(_harness_placeholder(name, HARNESS_COMMANDS[name], reason))


@click.group(cls=KgToolsGroup)
@click.version_option()
@click.pass_context
def cli(ctx: click.Context):
    """kg-tools: a Neo4j knowledge graph of tools for LLM agents."""
    app = AppContext(Settings())
    ctx.obj = app
    ctx.call_on_close(app.close)


def _register():
    for module in (
        neo4j,
        schema,
        load,
        stats,
        up,
        retrieve,
        serve,
        merge,
        enrich,
        models,
        mcp,
        browser_guide,
        deps,
        gateway,
        catalogs,
        core,
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
    problems = [
        f"{'.'.join(map(str, e['loc'])) or exc.title}: {e['msg']}"
        + (f" (got {clip(e['input'], 60)})" if isinstance(e.get("input"), (str, int, float)) else "")
        for e in exc.errors()
    ]
    return f"invalid {exc.title}: " + "; ".join(problems[:5])


# click >= 8.2 raises this for a group called without its command (8.1 prints the help and exits 0)
NO_COMMAND = getattr(click.exceptions, "NoArgsIsHelpError", ())


def main(argv=None):
    """Exit codes: 0 ok, 1 error, 2 usage or invalid catalog, 3 `neo4j status` when stopped.
    No traceback reaches the user: anything unexpected still ends in one `error:` line."""
    try:
        code = cli.main(args=argv, prog_name="kg-tools", standalone_mode=False)
    except click.exceptions.Abort:
        fail("aborted")
    except NO_COMMAND as exc:  # a group without its command: its help, then one line naming its commands
        click.echo(exc.format_message(), err=True)
        group = exc.ctx.command
        commands = ", ".join(group.list_commands(exc.ctx)) if isinstance(group, click.Group) else ""
        fail(f"{exc.ctx.command_path} needs a command" + (f" (one of: {commands})" if commands else ""), 2)
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
