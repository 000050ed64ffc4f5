"""`kg-tools bench gateway-soak`: registered onto the `bench` group by benchmarks/commands/bench.py."""

from pathlib import Path

import click

from benchmarks.commands.options import plot_file_option, write_json_file
from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_file_option
from kg_tools.errors import KgToolsError


def add_to(group):
    @group.command("gateway-soak")
    @click.option("--duration", default=3600.0, show_default=True, help="Seconds of calls.")
    @click.option("--check-every", default=60.0, show_default=True, help="Seconds between tool checks.")
    @click.option("--restart-every", default=300.0, show_default=True, help="Seconds between restarts of b.")
    @click.option("--resync", default=120.0, show_default=True, help="The gateways' --resync interval.")
    @click.option("--pause", default=0.2, show_default=True, help="Seconds between two rounds of calls.")
    @json_file_option("Write results to this JSON file.")
    @plot_file_option("PNG plot [next to --json, else bench-gateway-soak.png].")
    @pass_app
    def gateway_soak(app, duration, check_every, restart_every, resync, pause, json_file, plot_file):
        """Two gateways with overlapping configs on one Neo4j, driven over streamable HTTP for --duration;
        one restarted with another config now and then. Exit 1 if either lost a tool it started with.
        Its own Neo4j in a temp directory unless NEO4J_URI is set in the environment."""
        from benchmarks.bench import gateway_soak as bench

        result = bench.run(app.settings, duration, check_every, restart_every, resync, pause, log=click.echo)
        click.echo(bench.table(result))
        plot_file = plot_file or (json_file.with_suffix(".png") if json_file else Path("bench-gateway-soak.png"))
        bench.plot(result, plot_file)
        click.echo(f"wrote {plot_file}")
        if json_file:
            write_json_file(
                json_file,
                {
                    **result,
                    "gateways": {
                        k: {n: v for n, v in g.items() if not n.startswith("_")} for k, g in result["gateways"].items()
                    },
                },
            )
        lost = {k: g["lost_tools"] for k, g in result["gateways"].items() if g["lost_tools"]}
        if lost:
            raise KgToolsError(f"tools lost: {lost}")
