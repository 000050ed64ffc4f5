"""`kg-tools bench scale`: registered onto the `bench` group by kg_tools/commands/bench.py."""

import json
from pathlib import Path

import click

from kg_tools.commands.context import pass_app


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
    @click.option("--json", "json_file", type=click.Path(path_type=Path), help="Write the results to this JSON file.")
    @pass_app
    def scale(app, n, fake_embeddings, n_requests, concurrent_requests, clients, seed, json_file):
        """Synthetic catalog of N tools (own catalog, removed afterwards) -> load -> retrieve bench."""
        from kg_tools.bench import scale as bench

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
            json_file.parent.mkdir(parents=True, exist_ok=True)
            # the keys first, then the rest (server-side split, p95 under 16 clients, ...)
            json_file.write_text(json.dumps({**{k: result[k] for k in bench.KEYS}, **result}, indent=2))
            click.echo(f"wrote {json_file}")
