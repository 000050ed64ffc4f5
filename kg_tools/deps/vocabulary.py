"""A query written in a query language names what the catalog's own readers list (thirteenth session).

`execute_promql_query(query)`, `query_loki_patterns(logql)`: the value is no identifier but a statement, and the
names it holds (metric names, label names and values) are what other tools of the same server list
(`list_prometheus_metric_names`, `get_promql_label_values`). The property relied on: a query tool is named after
querying and after its language or data source (`promql`, `loki`), its statement parameter after the statement; the
vocabulary readers are named after the same language or source and after the names or values they list.

A plain SQL runner (`read_query(query)` -> `describe_table`) is left out: measured, the edge is right by the deps gold
but lowers the retrieval rows of catalog_all / catalog_xl (requests that run SQL rarely ask for the table's schema).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg_tools.deps.offline import ProposedEdge
from kg_tools.deps.resources import ALL_VERBS, tool_part, words
from kg_tools.deps.sources import gateway_server
from kg_tools.tool_spec import DependencyType

if TYPE_CHECKING:
    from kg_tools.deps.producers import Tool

STATEMENT_PARAMETERS = {"query", "sql", "expr", "expression", "statement", "logql", "promql"}
QUERY_WORDS = {"query", "sql"}  # a tool named after running one (`query_prometheus`, `execute_promql_query`)
RUN_WORDS = {"query", "queries", "sql", "execute", "run", "read", "write", "instant", "range", "raw"}
VOCABULARY_WORDS = {"names", "values", "series"}  # a reader of the language's names (`list_loki_label_values`)
READER_KINDS = {"list", "get", "search"}
METHOD = "query-vocabulary"
# The names a statement uses are often known to whoever writes it (a table just created, a metric named in the
# request): a doubtful dependency, below the retrieval's sure confidence (settings.deps_sure_confidence, 0.5), so a
# request's next seed comes before it.
CONFIDENCE = 0.45


def _short(name: str) -> list[str]:
    return words(tool_part(name))


def statement_parameters(tool: Tool) -> list[str]:
    """The parameters that hold a statement of a query language: a string named after one, of a tool named after
    running queries or SQL."""
    ws = _short(tool.name)
    if not set(ws) & QUERY_WORDS:
        return []
    out = []
    for p in tool.parameters:
        pw = words(str(p.get("name") or ""))
        if pw and pw[-1] in STATEMENT_PARAMETERS and p.get("type") in (None, "string"):
            out.append(str(p["name"]))
    return out


def _language(tool: Tool) -> set[str]:
    """The words of a query tool's name that name its language or data source (`promql`, `prometheus`, `loki`);
    none for a plain `run_query` / `execute_sql`, which then has no vocabulary readers."""
    return {w for w in _short(tool.name) if w not in RUN_WORDS | ALL_VERBS}


def vocabulary_readers(consumer: Tool, tools: dict[str, Tool]) -> list[str]:
    """The readers of the consumer's server that list the names its statements use."""
    readers = [
        t
        for t in tools.values()
        if t is not consumer
        and gateway_server(t.name, t) == gateway_server(consumer.name, consumer)
        and t.kind in READER_KINDS
    ]
    language = _language(consumer)
    return [t.name for t in readers if language & set(_short(t.name)) and set(_short(t.name)) & VOCABULARY_WORDS]


def vocabulary_proposals(tools: dict[str, Tool], sources: set[str] | None) -> list[ProposedEdge]:
    """Edges from a query tool's statement parameter to the readers of the names the statement uses."""
    out = []
    for consumer in tools.values():
        if sources is not None and consumer.name not in sources:
            continue
        for parameter in statement_parameters(consumer):
            for producer in vocabulary_readers(consumer, tools):
                why = f"`{parameter}` is a query; {producer} lists the names it uses"
                out.append(
                    ProposedEdge(
                        consumer.name,
                        producer,
                        DependencyType.PARAMETER_INDIRECTLY_DEPENDS_ON.value,
                        CONFIDENCE,
                        METHOD,
                        why,
                        parameter,
                    )
                )
    return out
