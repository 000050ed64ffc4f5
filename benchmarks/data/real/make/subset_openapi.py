"""Keep some paths of an OpenAPI 3.x document and only the components they reference (transitively).

    python subset_openapi.py IN.json OUT.json REGEX [REGEX ...]

A path is kept when any REGEX matches it (re.fullmatch). Everything else of the document (info,
servers, security ...) is kept as is; `info.description` gets a line saying it is a subset.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deps" / "make"))
from subset_spec import closure  # noqa: E402  (the corpus builders' subset code)


def subset(document: dict, patterns: list[str]) -> dict:
    keep = {p: item for p, item in document["paths"].items() if any(re.fullmatch(x, p) for x in patterns)}
    components, _ = closure(document, keep)
    out = {k: v for k, v in document.items() if k not in ("paths", "components")}
    out["info"] = dict(out.get("info", {}))
    out["info"]["description"] = (out["info"].get("description", "") + "\n\nSubset for kg-tools' real-catalog "
                                  f"dev set: {len(keep)} of {len(document['paths'])} paths kept "
                                  "(see benchmarks/data/real/README.md).").strip()
    out["paths"] = keep
    out["components"] = components
    return out


if __name__ == "__main__":
    source, target, *patterns = sys.argv[1:]
    doc = json.load(open(source, encoding="utf-8"))
    with open(target, "w", encoding="utf-8") as f:
        json.dump(subset(doc, patterns), f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
