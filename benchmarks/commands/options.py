"""Options and output the harness's commands share (the runtime's own shared options are in
kg_tools/commands/options.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from benchmarks.eval.report import write_json

SPLITS = click.Choice(["dev", "test", "all"])


def plot_file_option(help: str):
    """`--plot FILE` (parameter `plot_file`): write a PNG chart to FILE."""
    return click.option("--plot", "plot_file", type=click.Path(path_type=Path), help=help)


def split_option(default: str, help: str):
    """`--split dev|test|all`: which labelled half of the queries."""
    return click.option("--split", type=SPLITS, default=default, show_default=True, help=help)


def limit_queries_option():
    """`--limit N`: only the first N queries."""
    return click.option("--limit", type=click.IntRange(min=1), help="Only the first N queries.")


def write_json_file(path: Path, data: Any) -> None:
    """Write `data` as JSON (the folder made when missing) and say so."""
    write_json(path, data)
    click.echo(f"wrote {path}")
