"""The dependency-inference corpus, measured offline (no Neo4j): every catalog file with gold edges is parsed
by the same loaders as `kg-tools load`, validated into the tool model, inferred by the same code as
`kg-tools deps infer` (no labelled edges, no LLM) and scored against its gold.

    .venv/bin/python -m benchmarks.deps_corpus [--role dev|fresh|all] [--split dev|test|all] [--no-nested-wants]
        [--json PATH] [-v]

Catalogs: the manifests in benchmarks/data/deps/manifest/*.json (role dev or fresh) and the team's first gold
files in benchmarks/data/real (role dev). `--role fresh` is for the one final report only."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks import DATA
from benchmarks.deps_gold import gold_scores, read_gold, scored_sources
from benchmarks.eval.catalog_eval import read_catalog
from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, ToolInfo
from kg_tools.deps.producers import prepare, tool_kind
from kg_tools.tool_spec import validate_catalog

CORPUS = DATA / "deps"
FIRST = DATA / "real"


@dataclass
class CorpusCatalog:
    key: str
    kind: str  # openapi | mcp
    file: Path
    gold: Path
    role: str  # dev | fresh
    origin: str  # first | corpus

    def tools(self) -> list[ToolInfo]:
        source = read_catalog(self.file, self.key)
        validated = validate_catalog(source.tools)
        return [ToolInfo.from_raw(raw) for raw in validated.raw]


def first_catalogs() -> list[CorpusCatalog]:
    out = []
    for path in sorted((FIRST / "gold_edges").glob("*.json")):
        meta = json.loads(path.read_text())
        file = meta.get("catalog_file") if isinstance(meta, dict) else None
        if not file or not (file.startswith("openapi/") or file.startswith("mcp/")):
            continue  # combined catalogs (all.json, xl.json) repeat the per-file gold
        out.append(CorpusCatalog(path.stem, file.split("/")[0], FIRST / file, path, "dev", "first"))
    return out


def corpus_catalogs() -> list[CorpusCatalog]:
    out = []
    for manifest in sorted((CORPUS / "manifest").glob("*.json")):
        for entry in json.loads(manifest.read_text()):
            if not entry.get("gold"):
                continue
            out.append(
                CorpusCatalog(
                    entry["key"], entry["kind"], CORPUS / entry["file"], CORPUS / entry["gold"], entry["role"], "corpus"
                )
            )
    return out


def catalogs(role: str = "dev") -> list[CorpusCatalog]:
    every = first_catalogs() + corpus_catalogs()
    return [c for c in every if role == "all" or c.role == role]


def score_catalog(c: CorpusCatalog, split: str, min_confidence: float = 0.2, nested_wants: bool = True) -> dict:
    tools = c.tools()
    result = infer_catalog(
        tools, None, Examples([]), min_confidence=min_confidence, catalog=c.key, nested_wants=nested_wants
    )
    gold, _ = read_gold(c.gold, split)
    names = {t.name for t in tools}
    scored = scored_sources(c.gold, split, names)
    edges = [e for e in result.edges if scored is None or e.source in scored]
    scores = gold_scores(edges, gold)
    return (
        {"key": c.key, "kind": c.kind, "role": c.role, "origin": c.origin, "tools": len(tools)}
        | scores
        | {"without_creates": without_creates(tools, gold, scores["missed"])}
    )


def without_creates(tools: list[ToolInfo], gold: list, missed: list[str]) -> dict:
    """Recall over the gold pairs whose provider is not a create: the team's first gold files almost never list a
    create as a provider, the corpus gold since corpus-oa-g lists every tool that returns the value; inference does
    not propose creates (eleventh session, docs/dependencies.md)."""
    kinds = {name: tool_kind(tool) for name, tool in prepare(tools).items()}
    pairs = {(e.source, e.target) for e in gold if kinds.get(e.target) != "create"}
    lost = pairs & {tuple(m.split(" -> ", 1)) for m in missed}
    return {"gold": len(pairs), "true_positives": len(pairs) - len(lost)}


def micro(tp: int, predicted: int, gold: int) -> dict:
    """Precision, recall and F1 from counts summed over catalogs."""
    p = tp / predicted if predicted else 0.0
    r = tp / gold if gold else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def totals(rows: list[dict]) -> dict:
    tp = sum(r["untyped"]["true_positives"] for r in rows)
    pred = sum(r["predicted"] for r in rows)
    gold = sum(r["gold"] for r in rows)
    plain = sum(r["without_creates"]["gold"] for r in rows)
    found = sum(r["without_creates"]["true_positives"] for r in rows)
    return micro(tp, pred, gold) | {
        "predicted": pred,
        "gold": gold,
        "recall_without_creates": round(found / plain, 4) if plain else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--role", default="dev", choices=["dev", "fresh", "all"])
    ap.add_argument("--split", default="all", choices=["dev", "test", "all"])
    ap.add_argument("--only", nargs="*", help="keys")
    ap.add_argument("--json")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument(
        "--nested-wants",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="properties inside object/array parameters want providers too (the default)",
    )
    args = ap.parse_args(argv)
    rows = []
    for c in catalogs(args.role):
        if args.only and c.key not in args.only:
            continue
        try:
            row = score_catalog(c, args.split, nested_wants=args.nested_wants)
        except Exception as exc:  # noqa: BLE001 - one bad file must not hide the others
            print(f"{c.key}: FAILED {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        rows.append(row)
        u = row["untyped"]
        print(
            f"{c.key:28} {c.kind:7} {row['tools']:4} gold {row['gold']:4} pred {row['predicted']:4}  "
            f"P {u['precision']:.2f} R {u['recall']:.2f} F1 {u['f1']:.2f}"
        )
        if args.verbose:
            for m in row["missed"][:15]:
                print("    missed", m)
            for w in row["wrong"][:15]:
                print("    wrong ", w)
    t = totals(rows)
    print(
        f"{'TOTAL':28} {len(rows)} catalogs  gold {t['gold']} pred {t['predicted']}  P {t['precision']:.3f} "
        f"R {t['recall']:.3f} F1 {t['f1']:.3f}  (R without creates {t['recall_without_creates']:.3f})"
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "total": t}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
