"""`kg-tools eval catalog`: any catalog file, loaded under its own catalog name beside whatever the
graph holds, evaluated on a query file in the instances format, then removed again.

Other catalogs are never touched: a catalog name already in use, or a tool name that belongs to
another catalog, is refused before anything is written; the catalog's tools are deleted at the end
(also after an error or Ctrl-C) with the closures of the tools that listed them refreshed.
Requests carry `catalog`, so the rankings are those of this catalog alone (the catalog filter is exact).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks.eval.datasets import EvalDataset, EvalInstance, check_gold_names, read_instances
from benchmarks.eval.metrics import mean_scores
from kg_tools.catalog_store import delete_catalog
from kg_tools.core_tools import detect
from kg_tools.cypher import query
from kg_tools.deps import DEFAULT_MIN_CONFIDENCE, apply_results, infer_graph
from kg_tools.errors import CatalogError, EvalError
from kg_tools.gateway.names import SEPARATOR
from kg_tools.gateway.sync import server_document
from kg_tools.ingest import load_catalog
from kg_tools.loaders.common import read_text
from kg_tools.loaders.document import load_document

CATALOG_CUTOFFS = (5, 10, 20, 30)
ROW_METRICS = ("mAP@10", "Recall@5", "Recall@10", "nDCG@10")
OVERALL = "all"


def read_catalog(path: Path, catalog: str, format: str = "auto"):
    """The catalog file as a CatalogSource, in any format `kg-tools load` reads (loaders/document.py), JSON lines
    (our JSON catalog or a function-calling dataset's tool list) whatever its extension."""
    path = Path(path)
    if not path.is_file():
        raise CatalogError(f"catalog file not found: {path}")
    source = load_document(read_text(path), catalog, format, where=str(path))
    source.files = [str(path)]
    return source


def read_queries(path: Path, split: str = "all") -> list[EvalInstance]:
    """Instances-format queries (a list, or {"instances": [...]}); `split` dev|test keeps the rows
    labelled so (every row must carry `split` then)."""
    instances = read_instances(path)
    if split == "all":
        return instances
    unlabelled = [i.query for i in instances if i.split is None]
    if unlabelled:
        raise CatalogError(f"{path}: --split {split} needs `split` (dev or test) on every query", unlabelled[:5])
    chosen = [i for i in instances if i.split == split]
    if not chosen:
        raise CatalogError(f"{path}: no {split} queries")
    return chosen


def dataset(
    catalog_path: Path, queries_path: Path, catalog: str, format: str = "auto", split: str = "all"
) -> EvalDataset:
    source = read_catalog(catalog_path, catalog, format)
    data = EvalDataset(catalog, source.tools, read_queries(queries_path, split), [*source.files, str(queries_path)])
    check_gold_names(data)
    return data


def remove(graph, catalog: str) -> int:
    return delete_catalog(graph, catalog)["tools"]


@contextmanager
def loaded_catalog(
    graph, embedder, data: EvalDataset, settings, log: Callable[[str], None], servers: bool = False
) -> Iterator[int]:
    """Load the dataset's catalog beside the graph's others, yield its size, delete it afterwards.
    `servers`: also write the servers its tools name (write_servers), deleted with it.
    Refused (nothing written) when the catalog name is in use or a tool name belongs to another catalog."""
    in_use = graph.read(query("catalog_tool_names"), catalog=data.name)[0]["names"]
    if in_use:
        raise EvalError(
            f"catalog {data.name!r} already holds {len(in_use)} tool(s); nothing written "
            "(pass --catalog NAME to evaluate under another name, or remove that catalog first)"
        )
    result = load_catalog(graph, embedder, data.tools, data.name, batch_size=settings.write_batch_size, log=log)
    try:
        if servers:
            written = write_servers(graph, embedder, data)
            log(f"{written} servers written for catalog {data.name!r}")
        yield result.tools
    finally:
        if servers:
            graph.write(query("eval_servers_delete"), catalog=data.name)
        removed = remove(graph, data.name)
        log(f"removed catalog {data.name!r} ({removed} tools)")


def tool_server(tool: dict) -> str | None:
    """The server a catalog entry names: `mcp_server`, `openapi_spec` (our real-catalog set), the
    gateway's `upstream.server`, else the `server` of a `server__tool` name."""
    named = tool.get("mcp_server") or tool.get("openapi_spec") or (tool.get("upstream") or {}).get("server")
    if named:
        return named
    server, sep, _ = str(tool.get("name", "")).partition(SEPARATOR)
    return server if sep and server else None


def write_servers(graph, embedder, data: EvalDataset) -> int:
    """(:Server)-[:PROVIDES]->(:Tool) for the servers the catalog's tools name, embedded from the same
    text as the gateway's upstreams (gateway.sync.server_document, no instructions); refused when no
    tool names its server. Named `<catalog>:<server>`, removed with the catalog."""
    groups: dict[str, list[dict]] = {}
    for tool in data.tools:
        server = tool_server(tool)
        if server:
            groups.setdefault(server, []).append(tool)
    if not groups:
        raise EvalError(
            f"--servers: no tool of catalog {data.name!r} names its server "
            "(mcp_server, openapi_spec, upstream.server or a server__tool name)"
        )
    names = sorted(groups)
    vectors = embedder.embed([server_document(n, {}, groups[n]) for n in names])
    rows = [
        {
            "name": f"{data.name}:{n}",
            "title": n,
            "embedding": v.tolist(),
            "embedding_model": embedder.name,
            "tools": [t["name"] for t in groups[n]],
        }
        for n, v in zip(names, vectors)
    ]
    graph.write(query("eval_servers_delete"), catalog=data.name)  # leftovers of an interrupted run
    graph.write(query("eval_servers_write"), servers=rows, catalog=data.name)
    return len(rows)


def kinds(instances: list[EvalInstance]) -> list[str]:
    """The query kinds present, in first-seen order (empty when no query carries a kind)."""
    return list(dict.fromkeys(i.kind for i in instances if i.kind))


def rows_by_kind(results) -> dict[str, list[dict]]:
    """{"all": [row per method], kind: [row per method] ...}; a row has method, queries and the metrics."""
    out: dict[str, list[dict]] = {}
    names = [OVERALL] + kinds([r.instance for r in results[0].results]) if results else [OVERALL]
    for name in names:
        out[name] = []
        for result in results:
            scores = [r.scores for r in result.results if name == OVERALL or r.instance.kind == name]
            means = mean_scores(scores)
            out[name].append(
                {"method": result.method.name, "queries": len(scores), **{k: round(v, 4) for k, v in means.items()}}
            )
    return out


def table(by_kind: dict[str, list[dict]], title: str) -> str:
    width = max([len("method")] + [len(r["method"]) for rows in by_kind.values() for r in rows]) + 2
    head = f"{'queries':<12}{'method':<{width}}{'n':>5}" + "".join(f"{m:>11}" for m in ROW_METRICS)
    lines = [title, head, "-" * len(head)]
    for kind, rows in by_kind.items():
        for r in rows:
            lines.append(
                f"{kind:<12}{r['method']:<{width}}{r['queries']:>5}"
                + "".join(f"{r.get(m, 0.0):>11.3f}" for m in ROW_METRICS)
            )
    return "\n".join(lines)


def infer_and_apply(app, catalog: str, log: Callable[[str], None]) -> dict:
    """`kg-tools deps infer --catalog CATALOG --method offline --apply`: what a user runs after a load."""
    results = infer_graph(app.graph, app.embedder, app.settings, catalog=catalog, method="offline")
    [applied] = apply_results(app.graph, results, DEFAULT_MIN_CONFIDENCE)
    log(applied["message"])
    return results[0].summary() | {"run": applied["run"], "applied_edges": applied["edges"]}


def detect_core(app, catalog: str, log: Callable[[str], None]) -> dict[str, str | None]:
    """`kg-tools core detect --catalog CATALOG --apply`: the catalog's utilities as :Core, {name: kind}."""
    found = detect(app.graph, catalog, apply=True)
    log(f"{len(found.core)} :Core utilities in catalog {catalog!r}")
    return {t.name: t.core_kind for t in found.core}
