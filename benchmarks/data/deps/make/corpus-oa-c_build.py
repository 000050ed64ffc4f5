"""corpus-oa-c: build this task's OpenAPI files from the fetched public repositories.

Inputs were written with `git --git-dir=<mirror> show <commit>:<path>` into /tmp/corpus-oa-c (see SOURCES);
Vikunja's Swagger 2.0 file was converted to OpenAPI 3 with `npx swagger2openapi@7.0.8 -p` (vikunja_oas3.json).
Large specs keep whole resources (all their paths) plus every component those reference.

    python corpus-oa-c_build.py /tmp/corpus-oa-c
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

from subset_spec import closure  # this directory (the script's own) is on sys.path

OUT = Path(__file__).resolve().parent.parent / "openapi"

# key: (input file, output name, path regexes or None = keep all)
PLAN = {
    "sentry": ("sentry.json", "sentry.json", [
        r"/api/0/organizations/", r"/api/0/organizations/\{organization_id_or_slug\}/",
        r"/api/0/organizations/\{organization_id_or_slug\}/(projects|teams|members|repos|releases|issues|environments)/.*",
        r"/api/0/organizations/\{organization_id_or_slug\}/(projects|teams|members|repos|releases|issues|environments)/",
        r"/api/0/projects/\{organization_id_or_slug\}/.*",
        r"/api/0/teams/\{organization_id_or_slug\}/.*",
    ]),
    "openai": ("openai.yaml", "openai.json", [
        r"/(assistants|threads|vector_stores|files|uploads|batches|models|fine_tuning|conversations)(/.*)?",
    ]),
    "coolify": ("coolify.json", "coolify.json", [
        r"/(applications|projects|deployments|deploy|security/keys|teams|team|resources)(/.*)?",
        r"/servers(/\{uuid\})?", r"/servers/\{uuid\}/(resources|domains|validate)",
        r"/servers/\{server_uuid\}/destinations", r"/destinations(/.*)?",
    ]),
    "radarr": ("radarr.json", "radarr.json", [
        r"/api/v3/(movie|moviefile|collection|credit|history|queue|tag|qualityprofile|rootfolder|release|command|"
        r"calendar|wanted|blocklist|exclusions|alttitle|rename|mediacover)(/.*)?",
    ]),
    "discourse": ("discourse.json", "discourse.json", None),
    "ory_kratos": ("kratos.json", "ory_kratos.json", None),
    "ory_hydra": ("hydra.json", "ory_hydra.json", None),
    "listmonk": ("listmonk.yaml", "listmonk.json", None),
    "qdrant": ("qdrant.json", "qdrant.json", None),
    "nextcloud_tables": ("nextcloud_tables.json", "nextcloud_tables.json", None),
    "vikunja": ("vikunja_oas3.json", "vikunja.json", None),
}


def subset(doc, patterns):
    keep = {p: i for p, i in doc["paths"].items() if any(re.fullmatch(x, p) for x in patterns)}
    comps, _ = closure(doc, keep)
    out = {k: v for k, v in doc.items() if k not in ("paths", "components")}
    out["info"] = dict(out.get("info", {}))
    out["info"]["description"] = (str(out["info"].get("description", "")) + "\n\nSubset for kg-tools' dependency "
                                  f"corpus: {len(keep)} of {len(doc['paths'])} paths kept (whole resources; "
                                  "benchmarks/data/deps/make/corpus-oa-c_build.py).").strip()
    out["paths"] = keep
    out["components"] = comps
    return out


def main(src: Path):
    for key, (inp, outname, patterns) in PLAN.items():
        text = (src / inp).read_text(encoding="utf-8")
        doc = json.loads(text) if inp.endswith(".json") else yaml.safe_load(text)
        if patterns:
            doc = subset(doc, patterns)
        (OUT / outname).write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":"), default=str) + "\n",
                                   encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
