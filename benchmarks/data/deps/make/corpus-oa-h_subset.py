"""corpus-oa-h: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-h/):
  svix_openapi.json         github.com/svix/svix-webhooks   4fc0cfb8b426c87ef7e2b937e7d896a71d456a47
                            server/openapi.json (Svix server, OpenAPI 3.0.2; all but the health checks, whose GET
                            and HEAD share one operationId)
  weaviate_oa3.json         github.com/weaviate/weaviate    adcffc5432aa797c60e3c4e479514054254fae2a
                            openapi-specs/schema.json (swagger 2.0, converted with
                            `npx swagger2openapi@7.0.8 -p weaviate_schema.json -o weaviate_oa3.json`)
  langfuse_openapi.yml      github.com/langfuse/langfuse    62751446149b702b419a9292ddfc2280cdf74b8c
                            web/public/generated/api/openapi.yml (Fern-generated public API, OpenAPI 3.0.1)
  temporal_openapiv3.yaml   github.com/temporalio/api       f53963d4489c8a73aa30bd7091fe758f9896c08c
                            openapi/openapiv3.yaml (the gRPC-gateway HTTP API, OpenAPI 3.0.3)
  openfga_oa3.json          github.com/openfga/api          f153694bfc20f7be303e33cabe72b668596c5a06
                            docs/openapiv2/apidocs.swagger.json (swagger 2.0, converted with
                            `npx swagger2openapi@7.0.8 -p openfga_swagger.json -o openfga_oa3.json`; kept whole)
  memos_openapi.yaml        github.com/usememos/memos       76a762924306e782871204f131f4033be5e8e41a
                            proto/gen/openapi.yaml (generated from the protos, OpenAPI 3.0.3)
  flipt_openapi.yaml        github.com/flipt-io/flipt       3664b73603336e3bb105632ea82ff60c4e67e3a3
                            openapi.yaml (Flipt v1.47.0, generated from the protos, OpenAPI 3.0.3; the last commit
                            under GPL-3.0, before the v2 rewrite moved the repository to FCL-1.0-MIT)

    python corpus-oa-h_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import read_spec, subset, tag_paths, write_spec  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-h")
OUT = Path(__file__).resolve().parent.parent / "openapi"
NS = r"/api/v1/namespaces/\{namespace\}"
# Temporal: the /api/v1 copy of each path (the spec repeats every path without the prefix); namespaces, workflow
# executions (not their activities), schedules, batch operations, worker deployments, task queues, Nexus endpoints
TEMPORAL = [
    r"/api/v1/namespaces",
    NS + r"(/update|/search-attributes|/workflow-count|/archived-workflows|/schedule-count)?",
    NS + r"/workflows(/\{[^}]+\}(/(history|history-reverse|cancel|reset|terminate|update-options|trigger-rule"
    r"|pause|unpause)|/(query|signal|signal-with-start|update)/\{[^}]+\})?)?",
    NS + r"/schedules(/\{scheduleId\}(/[a-z-]+)?)?",
    NS + r"/batch-operations(/\{jobId\}(/stop)?)?",
    NS + r"/worker-deployments(/\{deploymentName\}(/[a-z-]+)?)?",
    NS + r"/task-queues/\{task_queue\.name\}",
    r"/api/v1/nexus/endpoints(/\{id\}(/update)?)?",
]
TAGS = {
    # Weaviate: collections (schema: classes, properties, shards, tenants, aliases), objects, batch, backups, users
    "weaviate": {"schema", "objects", "batch", "backups", "users"},
    # Langfuse: tracing data (traces, observations, sessions, scores, comments), datasets, prompts, annotation
    # queues, models, media; not organizations/projects/SCIM, ingestion, metrics, the unstable dashboards
    "langfuse": {
        "Trace",
        "Observations",
        "LegacyObservationsV1",
        "Sessions",
        "Scores",
        "ScoresV3",
        "LegacyScoreV1",
        "ScoreConfigs",
        "Comments",
        "AnnotationQueues",
        "Datasets",
        "DatasetItems",
        "DatasetRunItems",
        "Prompts",
        "PromptVersion",
        "Models",
        "Media",
    },
    # Memos: memos, users, attachments, memo views; not auth, instance settings, identity providers, AI
    "memos": {"MemoService", "UserService", "AttachmentService", "MemoViewService"},
}
PATTERNS = {
    "svix": ("svix_openapi.json", [r"/api/v1/(app|auth|event-type).*"]),
    "weaviate": ("weaviate_oa3.json", "tags"),
    "langfuse": ("langfuse_openapi.yml", "tags"),
    "temporal": ("temporal_openapiv3.yaml", TEMPORAL),
    "openfga": ("openfga_oa3.json", None),
    "memos": ("memos_openapi.yaml", "tags"),
    # Flipt: flags, variants, rules, distributions, rollouts, segments, constraints, namespaces and evaluation; not auth
    "flipt": ("flipt_openapi.yaml", [r"/api/v1/.*", r"/evaluate/v1/.*", r"/ofrep/v1/.*"]),
}



def main():
    for key, (name, pats) in PATTERNS.items():
        doc = read_spec(SRC / name)
        if pats == "tags":
            pats = tag_paths(doc, TAGS[key].__contains__)
        if pats is not None:
            doc = subset(doc, pats, "corpus-oa-h")
            doc["info"]["description"] = doc["info"]["description"].replace(
                "corpus-oa-h_build.py", "corpus-oa-h_subset.py"
            )
        write_spec(doc, OUT / f"{key}.json")


if __name__ == "__main__":
    main()
