"""The lab beside the product: the benchmark harness (`kg-tools eval …`, `kg-tools bench …`), dev corpora,
offline measurements and training of kg-tools' learned parts. Its own distribution (benchmarks/pyproject.toml,
kg-tools-benchmarks); never imported by the runtime and not part of the runtime wheel."""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"  # evaluation data: dev sets, splits, real catalogs, the deps corpus
