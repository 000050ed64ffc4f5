"""corpus-oa-u: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset; the two Swagger 2.0 specs through the same cut). Chosen (providers, licences) and cut by tag (by
path for StackStorm, whose operations have no tags) before their operations were studied; all five are the
twenty-fourth session's fresh set. (Passed over unread: Akeneo's pim-api-docs (no LICENSE in the repository);
Kubeflow Pipelines' v2beta1 kfp_api_single_file.swagger.json (40 operations whole, 36 once the auth, dummy filter,
healthz and visualization services are cut: under 40).)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-u/):
  anythingllm.json github.com/Mintplex-Labs/anything-llm     72aabbd15481ae405434efd4c83d46026eef1173
                   server/swagger/openapi.json (AnythingLLM Developer API, OpenAPI 3.0.0; MIT)
  stackstorm.yaml  github.com/StackStorm/st2                 c2eaf56b339bdb8184b5c2161714bce50eee4534
                   st2common/st2common/openapi.yaml (StackStorm st2 API, Swagger 2.0, rendered from openapi.yaml.j2;
                   Apache-2.0)
  nakadi.yaml      github.com/zalando/nakadi                 09f70f861401d5417c659b1a6e5b03d2467086f8
                   docs/_data/nakadi-event-bus-api.yaml (app/api/nakadi-event-bus-api.yaml links to it; Nakadi
                   Event Bus API, Swagger 2.0; MIT)
  flowise.yaml     github.com/FlowiseAI/Flowise              ababf4c8ebc0263e03aeeb917832251d3fd785e4
                   packages/api-documentation/src/yml/swagger.yml (Flowise APIs, OpenAPI 3.0.3: the file holds tags,
                   paths and components; `openapi` and `info` come from packages/api-documentation/src/configs/
                   swagger.config.ts and are added here; Apache-2.0, LICENSE.md)
  lakekeeper.yaml  github.com/lakekeeper/lakekeeper          90892e9cc1b515826fe07d2e2797a5620ec3e613
                   docs/docs/api/management-open-api.yaml (Lakekeeper Management API, OpenAPI 3.1.0; Apache-2.0)

    python corpus-oa-u_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_paths, cut_by_tags  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-u")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # AnythingLLM: admin (users, invites, workspace users, preferences), documents, workspaces, workspace threads,
    # embeds, user management; not authentication, system settings, the OpenAI-compatible endpoints
    "anythingllm": {"Admin", "Documents", "Workspaces", "Workspace Threads", "Embed", "User Management"},
    # Nakadi: event types, schemas, publishing and reading events, partitions and cursors, subscriptions, timelines
    # and storages, settings (admins, blacklist, features), registry strategies; not monitoring (/metrics)
    "nakadi": {
        "schema-registry-api",
        "stream-api",
        "unmanaged-api",
        "management-api",
        "repartitioning-api",
        "subscription-api",
        "settings-api",
        "timelines-api",
    },
    # Flowise: every tag but ping (assistants, attachments, chat messages, chatflows, document stores, feedback,
    # leads, prediction, tools, upsert history, variables, vector upsert)
    "flowise": {
        "assistants",
        "attachments",
        "chatmessage",
        "chatflows",
        "document-store",
        "feedback",
        "leads",
        "prediction",
        "tools",
        "upsert-history",
        "variables",
        "vector",
    },
    # Lakekeeper: projects, warehouses, roles, users; not grants and permissions (OpenFGA), tags, tasks, the server
    # and authorization endpoints
    "lakekeeper": {"project", "warehouse", "role", "user"},
}
SPECS = {"anythingllm": "anythingllm.json", "nakadi": "nakadi.yaml", "flowise": "flowise.yaml", "lakekeeper": "lakekeeper.yaml"}
# StackStorm: actions, action aliases and alias executions, executions, rules, rule enforcements, trigger types,
# triggers, trigger instances, policies and policy types, inquiries, runner types, traces; not packs and their
# configs and config schemas, the key-value datastore, RBAC, API keys, tokens, SSO, the service registry, the event
# stream, rule types, sensor types, timers, webhooks, workflows, the current user
ST2 = [
    rf"/api/v1/{resource}(/.*)?"
    for resource in (
        "actions",
        "actionalias",
        "aliasexecution",
        "executions",
        "rules",
        "ruleenforcements",
        "triggertypes",
        "triggers",
        "triggerinstances",
        "policies",
        "policytypes",
        "inquiries",
        "runnertypes",
        "traces",
    )
]


def with_info(doc: dict) -> dict:
    """Flowise's swagger.yml with the `openapi` version and `info` its swagger.config.ts adds."""
    if "openapi" in doc:
        return doc
    info = {"title": "Flowise APIs", "version": "1.0.0", "license": {"name": "Apache 2.0"}}
    return {"openapi": "3.0.3", "info": info} | doc


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-u", prepare=with_info)
    cut_by_paths("stackstorm.yaml", ST2, SRC, OUT, "stackstorm", "corpus-oa-u")


if __name__ == "__main__":
    main()
