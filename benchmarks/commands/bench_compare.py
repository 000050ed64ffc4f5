"""`kg-tools bench compare`: registered onto the `bench` group by benchmarks/commands/bench.py."""

from pathlib import Path

import click

from benchmarks.commands.options import plot_file_option, write_json_file
from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_file_option


def add_to(group):
    @group.command("compare")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @click.option("--n", "n", default=300, show_default=True, type=click.IntRange(min=1), help="Requests each.")
    @click.option("--load", is_flag=True, help="Run a second process spinning one core meanwhile.")
    @json_file_option("Write results to this JSON file.")
    @plot_file_option("PNG plot [next to --json, else bench-compare.png].")
    @pass_app
    def compare(app, directory, n, load, json_file, plot_file):
        """In-process default retrieval vs neo4j-graphrag's Vector- and HybridCypherRetriever: same embedder, graph, queries."""
        from benchmarks.bench import compare as bench
        from benchmarks.eval import datasets
        from benchmarks.eval.runner import ensure_catalog

        dataset = datasets.toollinkos(directory or app.settings.datasets_dir / "toollinkos")
        ensure_catalog(app.graph, app.embedder, dataset, app.settings, click.echo)
        instances = list({i.query: i for i in dataset.instances}.values())  # distinct queries
        result = bench.run(app.pipeline, app.graph, app.embedder, instances, n, load)
        click.echo(bench.table(result))
        plot_file = plot_file or (json_file.with_suffix(".png") if json_file else Path("bench-compare.png"))
        bench.plot(result, plot_file)
        click.echo(f"wrote {plot_file}")
        if json_file:
            write_json_file(json_file, {k: v for k, v in result.items() if k != "_samples"})
