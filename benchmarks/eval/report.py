"""The paper's Table 3 layout (ours and the paper's numbers), JSON, and a PNG chart."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmarks.eval.metrics import CUTOFFS, TABLE_METRICS
from benchmarks.eval.paper import PAPER_LABELS

COLUMNS = [f"{m}@{k}" for m in TABLE_METRICS for k in CUTOFFS]


def _cell(value) -> str:
    return f"{value:.3f}" if isinstance(value, (int, float)) else "-"


def table(rows: list[dict], paper: dict[str, dict], title: str) -> str:
    """One line per method (ours), followed by the paper's line when the paper has that method."""
    width = max([len("method"), 26] + [len(r["method"]) for r in rows]) + 2
    lines = [title, f"{'method':<{width}}" + "".join(f"{c:>11}" for c in COLUMNS)]
    lines.append("-" * len(lines[-1]))
    for r in rows:
        lines.append(f"{r['method']:<{width}}" + "".join(f"{_cell(r.get(c)):>11}" for c in COLUMNS))
        if r["method"] in paper:
            label = f"  paper {PAPER_LABELS.get(r['method'], '')}"
            lines.append(f"{label:<{width}}" + "".join(f"{_cell(paper[r['method']].get(c)):>11}" for c in COLUMNS))
    return "\n".join(lines)


def error_table(analysis: dict[str, dict]) -> str:
    keys = ["all_gold_in_top_k", "main_not_in_seeds", "main_in_seeds_not_first_truncated", "main_first_dependency_cut"]
    heads = ["all gold", "main missed", "main !first+cut", "first, dep cut"]
    lines = [f"{'error analysis (top-10)':<24}" + "".join(f"{h:>17}" for h in heads)]
    for method, a in analysis.items():
        lines.append(f"{method:<24}" + "".join(f"{a[k]:>17}" for k in keys))
    return "\n".join(lines)


def write_json(path: Path, payload: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2))


def pyplot():
    """matplotlib's pyplot on the Agg backend; None, with a note on stderr, without matplotlib (a dependency of
    kg-tools-benchmarks, so only when it was installed without its dependencies)."""
    try:
        import matplotlib  # noqa: PLC0415 - optional here: a note instead of a plot without it
    except ImportError:
        print("note: no plot written: matplotlib is not installed (pip install 'matplotlib>=3.8')", file=sys.stderr)
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after the backend is chosen

    return plt


def latency_cdf(ax, series: dict[str, list[float]], title: str) -> None:
    """One panel: the cumulative distribution of each series' latencies (ms, log scale)."""
    for label, values in series.items():
        ordered = sorted(values)
        if ordered:
            ax.plot(ordered, [(i + 1) / len(ordered) for i in range(len(ordered))], label=label)
    ax.set_xscale("log")
    ax.set_xlabel("latency (ms, log)")
    ax.set_ylabel("fraction of requests")
    ax.set_title(title)


def plot(path: Path, rows: list[dict], paper: dict[str, dict], title: str) -> None:
    """Grouped bars: our mAP@10 and Recall@10 per method, the paper's beside them where published."""
    plt = pyplot()
    if plt is None:
        return

    methods = [r["method"] for r in rows]
    series = [
        ("ours mAP@10", [r.get("mAP@10") for r in rows], "#1f77b4"),
        ("paper mAP@10", [paper.get(m, {}).get("mAP@10") for m in methods], "#aec7e8"),
        ("ours Recall@10", [r.get("Recall@10") for r in rows], "#ff7f0e"),
        ("paper Recall@10", [paper.get(m, {}).get("Recall@10") for m in methods], "#ffbb78"),
    ]
    if not paper:  # nothing published to compare with: only our bars
        series = [(label.replace("ours ", ""), values, color) for label, values, color in series[::2]]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.4 * len(methods) + 2), 4.2))
    width = 0.2
    for i, (label, values, color) in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(methods))]
        heights = [v if isinstance(v, (int, float)) else 0.0 for v in values]
        bars = ax.bar(xs, heights, width, label=label, color=color)
        for bar, v in zip(bars, values):
            if isinstance(v, (int, float)):
                ax.annotate(f"{v:.2f}", (bar.get_x() + bar.get_width() / 2, v), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(methods)), methods, rotation=20, ha="right")
    ax.set_ylim(0, 1.1)
    ax.set_title(title)
    ax.legend(fontsize=8, ncol=2, loc="upper left")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
