"""`kg-tools enrich`: LLM-enriched tool documents (expanded description, synthetic questions, topics)."""

import json

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_file_option


def register(cli):
    @cli.command("enrich")
    @click.option(
        "--questions",
        "n_questions",
        default=5,
        show_default=True,
        type=click.IntRange(1, 20),
        help="Synthetic user questions per tool.",
    )
    @click.option("--catalog", help="Only tools of this catalog.")
    @click.option("--limit", type=click.IntRange(1), help="At most this many tools in this run.")
    @click.option("--force", is_flag=True, help="Re-enrich every tool, not only new/changed ones.")
    @click.option("--concurrency", default=4, show_default=True, type=click.IntRange(1, 64), help="Parallel LLM calls.")
    @json_file_option("Write the summary as JSON.")
    @pass_app
    def enrich(app, n_questions, catalog, limit, force, concurrency, json_file):
        """Enrich tools incrementally (new tools, changed specs, other embedder); needs OPENAI_BASE_URL."""
        from kg_tools.enrich import enrich_tools, enrichment_counts
        from kg_tools.llm import llm_from_settings

        llm = llm_from_settings(app.settings)
        if llm is None:
            click.echo(
                "no LLM configured (OPENAI_BASE_URL is unset): nothing enriched, the graph is unchanged. "
                "Set OPENAI_BASE_URL (and KG_TOOLS_LLM_MODEL, OPENAI_API_KEY) to any OpenAI-compatible server."
            )
            return
        result = enrich_tools(
            app.graph,
            app.embedder,
            llm,
            n_questions=n_questions,
            catalog=catalog,
            limit=limit,
            force=force,
            concurrency=concurrency,
            log=click.echo,
        )
        click.echo(result.summary())
        counts = enrichment_counts(app.graph, catalog)
        click.echo(f"coverage: {counts['enriched']}/{counts['tools']} tools enriched, {counts['vectors']} vectors")
        if json_file:
            json_file.write_text(json.dumps({**result.as_dict(), "coverage": counts}, indent=2))
        if result.failed:
            raise click.ClickException(f"{len(result.failed)} tool(s) failed: {', '.join(result.failed[:20])}")
