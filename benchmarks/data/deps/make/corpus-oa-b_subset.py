"""Build the corpus-oa-b OpenAPI files from the upstream specs (task corpus-oa-b).

    python corpus-oa-b_subset.py RAW_DIR OUT_DIR

RAW_DIR holds the upstream files (sources and commits: ../manifest/corpus-oa-b.json). Swagger 2.0 sources
(Docker, Harbor, Azure DevOps git, Semaphore, Argo Workflows) were first converted to OpenAPI 3.0 with
swagger2openapi 7 from npm:  `swagger2openapi --patch -o NAME_v3.json NAME.(json|yaml)`.

Large specs are cut to whole resources: an operation is kept when its first tag is in the key's list; a path
without kept operations is dropped; only the components the kept operations reference (transitively) stay.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from subset_spec import METHODS, closure  # this directory (the script's own) is on sys.path

# Argo Workflows: these schemas expand past the loader's $ref budget inside request bodies; each is replaced
# by {type: object} with its description (the rest of the spec is unchanged).
STUBS = {"argo_workflows": [
    "io.argoproj.workflow.v1alpha1.ContainerNode", "io.argoproj.workflow.v1alpha1.ScriptTemplate",
    "io.argoproj.workflow.v1alpha1.Template", "io.argoproj.workflow.v1alpha1.UserContainer",
    "io.k8s.api.core.v1.Affinity", "io.k8s.api.core.v1.Container", "io.k8s.api.core.v1.PersistentVolumeClaim",
    "io.k8s.api.core.v1.Volume"]}


SPECS = {
    # key: (raw file, tags to keep or None for all)
    "jira_platform": ("jira.json", [
        "Issues", "Issue comments", "Issue worklogs", "Issue attachments", "Issue watchers", "Issue votes",
        "Issue links", "Issue link types", "Issue remote links", "Issue search", "Projects", "Project components",
        "Project versions", "Issue types", "Issue priorities", "Status", "Users", "User search", "Myself"]),
    "keycloak_admin": ("keycloak.json", [
        "Users", "Groups", "Clients", "Role Mapper", "Client Role Mappings", "Roles"]),
    "docker_engine": ("docker_v3.json", None),
    "harbor": ("harbor_v3.json", [
        "project", "repository", "artifact", "member", "label", "robot", "webhook", "user", "registry",
        "replication", "projectMetadata", "immutable"]),
    "azure_devops_git": ("azdo_git_v3.json", [
        "Repositories", "Pull Requests", "Pull Request Reviewers", "Pull Request Threads",
        "Pull Request Thread Comments", "Pull Request Labels", "Pull Request Statuses", "Pull Request Iterations",
        "Pull Request Commits", "Pull Request Work Items", "Commits", "Refs", "Pushes", "Items", "Stats"]),
    "semaphore": ("semaphore_v3.json", None),
    "spree_platform": ("spree.yaml", [
        "Orders", "Line Items", "Shipments", "Payments", "Products", "Variants", "Taxonomies", "Taxons", "Users",
        "Addresses", "Stock Locations", "Stock Items", "Countries", "States"]),
    "argo_workflows": ("argo_v3.json", None),
}


def subset(document: dict, tags: list[str] | None) -> dict:
    if tags is None:
        return document
    keep, total = {}, 0
    for path, item in document["paths"].items():
        ops = {m: op for m, op in item.items() if m in METHODS}
        total += len(ops)
        kept = {m: op for m, op in ops.items() if (op.get("tags") or [None])[0] in tags}
        if kept:
            keep[path] = {**{k: v for k, v in item.items() if k not in METHODS}, **kept}
    components, _ = closure(document, keep)
    out = {k: v for k, v in document.items() if k not in ("paths", "components", "tags")}
    if document.get("tags"):
        out["tags"] = [t for t in document["tags"] if t.get("name") in tags]
    kept_ops = sum(1 for item in keep.values() for m in item if m in METHODS)
    out["info"] = dict(out.get("info", {}))
    out["info"]["description"] = (out["info"].get("description", "") + "\n\nSubset for kg-tools' dependency "
                                  f"corpus: {kept_ops} of {total} operations kept (whole resources: "
                                  + ", ".join(tags) + ").").strip()
    out["paths"] = keep
    out["components"] = components
    return out


if __name__ == "__main__":
    raw, target = Path(sys.argv[1]), Path(sys.argv[2])
    for key, (name, tags) in SPECS.items():
        text = (raw / name).read_text(encoding="utf-8")
        doc = json.loads(text) if name.endswith(".json") else yaml.safe_load(text)
        for schema in STUBS.get(key, []):
            old = doc["components"]["schemas"][schema]
            doc["components"]["schemas"][schema] = {"type": "object", "description": (old.get("description") or schema)
                                                    + " (schema body left out for size in this corpus copy)"}
        with open(target / f"{key}.json", "w", encoding="utf-8") as f:
            json.dump(subset(doc, tags), f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
