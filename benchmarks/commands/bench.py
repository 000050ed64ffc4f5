"""`kg-tools bench ...`: speed measurements that print a table and write JSON."""

import time
from pathlib import Path

import click

from benchmarks.commands.options import write_json_file
from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_file_option
from kg_tools.ingest import LoadMode, load_catalog


def register(cli):
    @cli.group("bench")
    def group():
        """Speed benchmarks (tables + JSON)."""

    @group.command("ingest")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @click.option("--repeat", default=3, show_default=True, help="Full reloads to time.")
    @json_file_option("Write results to this JSON file.")
    @pass_app
    def ingest(app, directory, repeat, json_file):
        """ToolLinkOS full reload (--replace, re-embed everything): tools/s, embedding vs Neo4j write time."""
        from kg_tools.loaders import toollinkos

        source = toollinkos.load(directory or app.settings.datasets_dir / "toollinkos")
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            loaded = load_catalog(
                app.graph,
                app.embedder,
                source.tools,
                source.catalog,
                LoadMode.REPLACE,
                reembed=True,
                batch_size=app.settings.write_batch_size,
                log=lambda *_: None,
            )
            total = time.perf_counter() - t0
            runs.append({**loaded.as_dict(), "total_seconds": round(total, 3)})
        best = min(runs, key=lambda r: r["total_seconds"])
        result = {
            "catalog": source.catalog,
            "tools": best["tools"],
            "edges": best["edges"],
            "embed_model": app.embedder.name,
            "runs": runs,
            "tools_per_s": round(best["tools"] / best["total_seconds"], 1),
            "embed_seconds": best["embed_seconds"],
            "write_seconds": best["write_seconds"],
            "write_to_embed_ratio": round(best["write_seconds"] / best["embed_seconds"], 4),
        }
        click.echo(f"{'run':<5}{'tools':>7}{'embed s':>10}{'write s':>10}{'total s':>10}{'tools/s':>10}")
        for i, r in enumerate(runs, 1):
            click.echo(
                f"{i:<5}{r['tools']:>7}{r['embed_seconds']:>10.2f}{r['write_seconds']:>10.2f}"
                f"{r['total_seconds']:>10.2f}{r['tools'] / r['total_seconds']:>10.1f}"
            )
        click.echo(
            f"best: {result['tools_per_s']} tools/s; Neo4j write = "
            f"{100 * result['write_to_embed_ratio']:.1f}% of embedding time (goal <= 10%)"
        )
        if json_file:
            write_json_file(json_file, result)

    from benchmarks.commands import bench_compare, bench_gateway_soak, bench_retrieve, bench_scale

    bench_compare.add_to(group)
    bench_gateway_soak.add_to(group)
    bench_retrieve.add_to(group)
    bench_scale.add_to(group)
    return group
