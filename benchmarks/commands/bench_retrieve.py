"""`kg-tools bench retrieve`: registered onto the `bench` group by benchmarks/commands/bench.py."""

from pathlib import Path

import click

from benchmarks.commands.options import plot_file_option, write_json_file
from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_file_option


def add_to(group):
    @group.command("retrieve")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @click.option("--url", help="A running `kg-tools serve` (default: start one on a free loopback port).")
    @click.option("--n", "n", default=300, show_default=True, help="Sequential requests (distinct queries).")
    @click.option(
        "--concurrent-requests",
        default=600,
        show_default=True,
        help="Requests sent by the 16 concurrent clients (other distinct queries).",
    )
    @click.option("--clients", default=16, show_default=True, help="Concurrent clients.")
    @json_file_option("Write results to this JSON file.")
    @plot_file_option("PNG plot [next to --json, else bench-retrieve.png].")
    @pass_app
    def retrieve(app, directory, url, n, concurrent_requests, clients, json_file, plot_file):
        """Latency of POST /v1/retrieve over the ToolLinkOS queries vs embedding alone vs in-process GRTF."""
        from benchmarks.bench import retrieve as bench
        from kg_tools.loaders import toollinkos

        source = toollinkos.load(directory or app.settings.datasets_dir / "toollinkos")
        queries = list(dict.fromkeys(i["user_query"] for i in source.instances))
        result = bench.run(
            app.settings, app.graph, app.embedder, queries, url, n, concurrent_requests, clients, log=click.echo
        )
        click.echo(bench.table(result))
        plot_file = plot_file or (json_file.with_suffix(".png") if json_file else Path("bench-retrieve.png"))
        bench.plot(result, plot_file)
        click.echo(f"wrote {plot_file}")
        if json_file:
            write_json_file(json_file, {k: v for k, v in result.items() if k != "_samples"})
