"""`kg-tools retrieve "QUERY"`: the same retrieval as POST /v1/retrieve, as a table or the same JSON."""

import json

import click

from kg_tools.commands.context import pass_app
from kg_tools.tool_spec import DEPENDENCY_TYPES


def build_request(**fields):
    """RetrievalRequest from CLI options; a bad value becomes a usage error naming the option."""
    from pydantic import ValidationError

    from kg_tools.retrieval import RetrievalRequest

    fields = {k: v for k, v in fields.items() if v is not None}
    try:
        return RetrievalRequest(**fields)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'request'}: {e['msg']}" for e in exc.errors())
        raise click.UsageError(problems) from exc


def render_table(response) -> str:
    lines = [f"{'#':>3}  {'tool':<44} {'kind':<8} {'role':<10} {'score':>6}  reached from (edge type, parameter)"]
    for i, t in enumerate(response.tools, 1):
        score = f"{t.score:.3f}" if t.score is not None else ""
        via = ", ".join(f"{v.from_} {v.type}" + (f" ({v.parameter_name})" if v.parameter_name else "") for v in t.via)
        lines.append(f"{i:>3}  {t.name:<44} {t.kind:<8} {t.role:<10} {score:>6}  {via}".rstrip())
    lines.append("stages: " + " -> ".join(s.name + (f" ({s.detail})" if s.detail else "") for s in response.stages))
    lines.append("timing ms: " + ", ".join(f"{k} {v:.1f}" for k, v in response.timing_ms.items()))
    return "\n".join(lines)


def register(cli):
    @cli.command("retrieve")
    @click.argument("query")
    @click.option("--k", "k", type=int, help="Seed tools from search [3].")
    @click.option("--K", "K", type=int, help="Tools returned in total [10].")
    @click.option("--depth", type=int, help="Maximum dependency depth, 0 = none [5].")
    @click.option("--d-limit", type=int, help="At most this many dependencies per seed.")
    @click.option(
        "--mode",
        type=click.Choice(["hybrid-boost", "vector", "fulltext", "hybrid", "rrf"]),
        help="Search mode [hybrid-boost].",
    )
    @click.option("--alpha", type=float, help="Hybrid weight of the vector leg [0.8].")
    @click.option(
        "--rerank",
        type=click.Choice(["offline", "none", "cross-encoder", "llm"]),
        help="Seed reranker [offline: deterministic rescoring of the top 10; none: search order].",
    )
    @click.option(
        "--edge-type",
        "edge_types",
        multiple=True,
        type=click.Choice(DEPENDENCY_TYPES),
        help="Relationship type to traverse (repeat; default all).",
    )
    @click.option("--prefer-direct", is_flag=True, default=None, help="Direct dependencies before indirect ones.")
    @click.option(
        "--skip-supplied-parameters",
        is_flag=True,
        default=None,
        help="Drop PARAMETER_* dependencies whose value the query supplies.",
    )
    @click.option(
        "--supplied-last/--no-supplied-last",
        default=None,
        help="Dependencies through a parameter the query gives go after the seed's others [on].",
    )
    @click.option("--stage", "stages", multiple=True, help="Extra pipeline stage by name (repeat).")
    @click.option("--catalog", "catalogs", multiple=True, help="Only tools of this catalog (repeat for several).")
    @click.option("--json", "as_json", is_flag=True, help="Print the same JSON as POST /v1/retrieve.")
    @click.option(
        "--cypher",
        "show_cypher",
        is_flag=True,
        help="Print the Cypher and parameters the retrieval ran, to paste in Neo4j Browser "
        '(with --json: {"queries": [{cypher, params}]}).',
    )
    @click.option("--with-embedding", is_flag=True, help="With --cypher: also print the query embedding.")
    @pass_app
    def retrieve(app, query, as_json, show_cypher, with_embedding, edge_types, stages, **options):
        """The tools an agent needs for QUERY: seeds, then each seed's dependencies, cut to K."""
        from kg_tools.retrieval.recording import as_json as queries_json
        from kg_tools.retrieval.recording import browser_script, recording

        if with_embedding and not show_cypher:
            raise click.UsageError("--with-embedding needs --cypher")
        options["catalogs"] = list(options["catalogs"]) or None
        request = build_request(query=query, edge_types=list(edge_types) or None, stages=list(stages), **options)
        with recording() as executed:
            response = app.pipeline.retrieve(request)
        if show_cypher and as_json:
            click.echo(json.dumps({"queries": queries_json(executed, with_embedding)}, indent=2))
        elif show_cypher:
            click.echo(browser_script(executed, query, app.embedder.name, with_embedding, response.stages))
        else:
            click.echo(response.model_dump_json(by_alias=True, indent=2) if as_json else render_table(response))
