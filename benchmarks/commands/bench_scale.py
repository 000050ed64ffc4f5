"""`kg-tools bench scale`: registered onto the `bench` group by benchmarks/commands/bench.py."""

import click

from benchmarks.commands.options import write_json_file
from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_file_option


def add_to(group):
    @group.command("scale")
    @click.option(
        "--tools",
        "n",
        default=10_000,
        show_default=True,
        type=click.IntRange(10, 1_000_000),
        help="Tools in the synthetic catalog.",
    )
    @click.option(
        "--fake-embeddings",
        is_flag=True,
        help="Tool vectors from word vectors + noise instead of embedding every description "
        "(queries still go through the real embedder).",
    )
    @click.option("--n", "n_requests", default=300, show_default=True, help="Sequential requests.")
    @click.option("--concurrent-requests", default=600, show_default=True, help="Requests from the concurrent clients.")
    @click.option("--clients", default=16, show_default=True, help="Concurrent clients.")
    @click.option("--seed", default=0, show_default=True, help="Seed of the generator.")
    @json_file_option("Write the results to this JSON file.")
    @pass_app
    def scale(app, n, fake_embeddings, n_requests, concurrent_requests, clients, seed, json_file):
        """Synthetic catalog of N tools (own catalog, removed afterwards) -> load -> retrieve bench."""
        from benchmarks.bench import scale as bench

        result = bench.run(
            app.settings,
            app.graph,
            app.embedder,
            n,
            fake_embeddings,
            n_requests,
            concurrent_requests,
            clients,
            seed,
            log=click.echo,
        )
        click.echo(bench.table(result))
        if json_file:
            # the keys first, then the rest (server-side split, p95 under 16 clients, ...)
            write_json_file(json_file, {**{k: result[k] for k in bench.KEYS}, **result})
