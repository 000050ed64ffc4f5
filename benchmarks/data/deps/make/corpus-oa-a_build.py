"""Build the corpus-oa-a OpenAPI catalogs (task corpus-oa-a) from local git snapshots of the providers'
public spec repositories (fetched with the `fetch` tool into /work/.mirror/<owner>+<repo>/repo).

    /work/main/.venv/bin/python corpus-oa-a_build.py

For each catalog: read the spec at the snapshot's HEAD, bundle external file $refs (DigitalOcean, Vonage),
keep a coherent subset of whole resources (path regexes below) with every component they reference
(same logic as benchmarks/data/real/make/subset_openapi.py), write compact JSON to ../openapi/<key>.json.
"""
from __future__ import annotations

import copy
import json
import posixpath
import re
import subprocess
import sys
from pathlib import Path

import yaml

from subset_spec import closure  # this directory (the script's own) is on sys.path

MIRROR = "/work/.mirror/"
OUT = Path(__file__).resolve().parent.parent / "openapi"


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", MIRROR + repo + "/repo", *args], capture_output=True,
                          check=True).stdout.decode()


def show(repo: str, path: str) -> str:
    return git(repo, "show", "HEAD:" + path)


def parse(text: str, path: str):
    return json.loads(text) if path.endswith(".json") else yaml.safe_load(text)


# ---------------------------------------------------------------- bundling of external file $refs
def bundle_inline(repo: str, path: str) -> dict:
    """Inline every $ref to another file (relative path, optional #fragment); local '#/...' refs of the
    root document stay; local refs inside another file are resolved in that file and inlined."""
    cache: dict[str, object] = {}

    def load(p):
        if p not in cache:
            cache[p] = parse(show(repo, p), p)
        return cache[p]

    def pointer(doc, frag):
        node = doc
        for part in [x for x in frag.lstrip("/").split("/") if x]:
            part = part.replace("~1", "/").replace("~0", "~")
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node

    def walk(node, here, stack):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not (ref.startswith("#") and here == path):
                file, _, frag = ref.partition("#")
                target = posixpath.normpath(posixpath.join(posixpath.dirname(here), file)) if file else here
                key = target + "#" + frag
                if key in stack:
                    return {"type": "object", "description": "(recursive reference elided)"}
                resolved = pointer(load(target), frag)
                out = walk(copy.deepcopy(resolved), target, stack | {key})
                extra = {k: v for k, v in node.items() if k != "$ref"}
                if extra and isinstance(out, dict):
                    out = {**out, **walk(extra, here, stack)}
                return out
            return {k: walk(v, here, stack) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, here, stack) for v in node]
        return node

    root = load(path)
    return walk(copy.deepcopy(root), path, frozenset())


def merge_component_refs(repo: str, path: str) -> dict:
    """Root document whose $refs 'other.yml#/components/<kind>/<name>' are copied into its own
    components (same name) and rewritten as local refs (Vonage)."""
    root = parse(show(repo, path), path)
    pending = True
    while pending:
        pending = False
        found = []

        def walk(node):
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str) and not ref.startswith("#"):
                    found.append(node)
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)

        walk(root)
        for node in found:
            file, _, frag = node["$ref"].partition("#")
            other = parse(show(repo, posixpath.join(posixpath.dirname(path), file)), file)
            _, kind, name = frag.strip("/").split("/", 2)[0:3] if frag.startswith("/components") else (None, None, None)
            _, _, kind, name = frag.split("/", 3)
            value = copy.deepcopy(other["components"][kind][name])
            # refs local to the other file point into its components: rewrite them to 'file#...'
            def fix(n):
                if isinstance(n, dict):
                    r = n.get("$ref")
                    if isinstance(r, str) and r.startswith("#"):
                        n["$ref"] = file + r
                    for v in n.values():
                        fix(v)
                elif isinstance(n, list):
                    for v in n:
                        fix(v)
            fix(value)
            root.setdefault("components", {}).setdefault(kind, {}).setdefault(name, value)
            node["$ref"] = f"#/components/{kind}/{name}"
            pending = True
    return root


# ---------------------------------------------------------------- subsetting (as subset_openapi.py)
def subset(document: dict, patterns: list[str] | None, note: str) -> dict:
    paths = document["paths"]
    keep = {p: item for p, item in paths.items() if patterns is None or any(re.fullmatch(x, p) for x in patterns)}
    components, missing = closure(document, keep)
    out = {k: v for k, v in document.items() if k not in ("paths", "components")}
    out["info"] = dict(out.get("info", {}))
    if patterns is not None:
        out["info"]["description"] = (str(out["info"].get("description", "")) + f"\n\nSubset for kg-tools' "
                                      f"dependency corpus ({note}): {len(keep)} of {len(paths)} paths kept.").strip()
    out["paths"] = keep
    if missing:  # dangling refs in the source (Square): replace by a plain object schema
        print("  dangling refs replaced:", sorted(missing))
        out["paths"] = drop_refs(keep, missing)
        components = drop_refs(components, missing)
    if components:
        out["components"] = components
    return out


def drop_refs(node, missing):
    if isinstance(node, dict):
        if node.get("$ref") in missing:
            return {"type": "object", "description": "(schema missing in the source spec)"}
        return {k: drop_refs(v, missing) for k, v in node.items()}
    if isinstance(node, list):
        return [drop_refs(v, missing) for v in node]
    return node


STRIP = ("x-codeSamples", "x-code-samples", "x-readme")


def strip(node):
    """Drop code samples (no bearing on parameters or outputs) to keep files small."""
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k not in STRIP}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def drop_response_headers(node, parent=None):
    if isinstance(node, dict):
        return {k: drop_response_headers(v, k) for k, v in node.items()
                if not (k == "headers" and isinstance(parent, str) and (parent.isdigit() or parent == "default"))}
    if isinstance(node, list):
        return [drop_response_headers(v, parent) for v in node]
    return node


def esc(*paths: str) -> list[str]:
    """Literal paths -> regexes."""
    return [re.escape(p) for p in paths]


CATALOGS = {
    "asana": ("Asana+openapi", "defs/asana_oas.yaml", None, [
        r"/workspaces(/\{workspace_gid\})?", r"/workspaces/\{workspace_gid\}/(addUser|removeUser|users|users/\{user_gid\}|teams|projects|tags|custom_fields|tasks/search|typeahead)",
        r"/users(/\{user_gid\})?", r"/users/\{user_gid\}/(teams|favorites|user_task_list|team_memberships)",
        r"/user_task_lists/\{user_task_list_gid\}(/tasks)?",
        r"/teams(/\{team_gid\})?", r"/teams/\{team_gid\}/(users|projects|addUser|removeUser|team_memberships)",
        r"/team_memberships(/\{team_membership_gid\})?",
        r"/projects(/\{project_gid\})?", r"/projects/\{project_gid\}/(duplicate|addMembers|removeMembers|addFollowers|removeFollowers|sections|sections/insert|tasks|task_counts|project_statuses|custom_field_settings|addCustomFieldSetting|removeCustomFieldSetting|project_memberships)",
        r"/project_statuses/\{project_status_gid\}", r"/project_memberships/\{project_membership_gid\}",
        r"/sections/\{section_gid\}(/tasks|/addTask)?",
        r"/tasks(/\{task_gid\})?", r"/tasks/\{task_gid\}/(duplicate|subtasks|setParent|dependencies|addDependencies|removeDependencies|dependents|projects|addProject|removeProject|tags|addTag|removeTag|addFollowers|removeFollowers|stories)",
        r"/stories/\{story_gid\}", r"/tags(/\{tag_gid\})?", r"/tags/\{tag_gid\}/tasks",
        r"/attachments(/\{attachment_gid\})?", r"/custom_fields(/\{custom_field_gid\})?", r"/custom_fields/\{custom_field_gid\}/enum_options",
        r"/enum_options/\{enum_option_gid\}", r"/webhooks(/\{webhook_gid\})?"]),
    "twilio_conversations": ("twilio+twilio-oai", "spec/json/twilio_conversations_v1.json", None, [
        r"/v1/(Configuration|Configuration/Addresses|Configuration/Addresses/\{Sid\}|Configuration/Webhooks)",
        r"/v1/Conversations(/.*)?", r"/v1/ConversationWithParticipants", r"/v1/Credentials(/\{Sid\})?",
        r"/v1/ParticipantConversations", r"/v1/Roles(/\{Sid\})?", r"/v1/Users(/.*)?",
        r"/v1/Services(/\{Sid\})?", r"/v1/Services/\{ChatServiceSid\}/Bindings(/\{Sid\})?"]),
    "box": ("box+box-openapi", "openapi.json", None, [
        r"/files/\{file_id\}", r"/files/\{file_id\}/(copy|collaborations|comments|tasks|trash|versions|versions/\{file_version_id\}|versions/current)",
        r"/folders", r"/folders/\{folder_id\}", r"/folders/\{folder_id\}/(items|copy|collaborations|trash)", r"/folders/trash/items",
        r"/comments(/\{comment_id\})?", r"/collaborations(/\{collaboration_id\})?", r"/search",
        r"/tasks(/\{task_id\})?", r"/tasks/\{task_id\}/assignments", r"/task_assignments(/\{task_assignment_id\})?",
        r"/users", r"/users/me", r"/users/\{user_id\}", r"/users/\{user_id\}/memberships",
        r"/groups", r"/groups/\{group_id\}(/memberships|/collaborations)?", r"/group_memberships(/\{group_membership_id\})?",
        r"/webhooks(/\{webhook_id\})?", r"/collections(/\{collection_id\})?", r"/collections/\{collection_id\}/items",
        r"/web_links(/\{web_link_id\})?", r"/recent_items"]),
    "sendgrid": ("sendgrid+sendgrid-oai", "oai_v3_stoplight.json", None, [
        r"/marketing/contacts(/.*)?", r"/marketing/lists(/.*)?", r"/marketing/segments/2\.0(/.*)?",
        r"/marketing/field_definitions(/.*)?", r"/marketing/singlesends(/.*)?", r"/marketing/stats/singlesends(/\{id\})?(/links)?",
        r"/marketing/test/send_email", r"/senders(/.*)?", r"/templates(/.*)?", r"/designs(/\{id\})?",
        r"/asm/.*", r"/api_keys(/\{api_key_id\})?", r"/scopes"]),
    "digitalocean": ("digitalocean+openapi", "specification/DigitalOcean-public.v2.yaml", "inline", [
        r"/v2/account", r"/v2/account/keys(/\{ssh_key_identifier\})?", r"/v2/actions(/\{action_id\})?",
        r"/v2/droplets", r"/v2/droplets/\{droplet_id\}", r"/v2/droplets/\{droplet_id\}/(actions|actions/\{action_id\}|backups|snapshots|firewalls|neighbors)",
        r"/v2/domains(/\{domain_name\})?", r"/v2/domains/\{domain_name\}/records(/\{domain_record_id\})?",
        r"/v2/firewalls(/\{firewall_id\})?", r"/v2/firewalls/\{firewall_id\}/(droplets|tags|rules)",
        r"/v2/images(/\{image_id\})?", r"/v2/images/\{image_id\}/actions(/\{action_id\})?",
        r"/v2/projects(/\{project_id\})?", r"/v2/projects/\{project_id\}/resources", r"/v2/projects/default(/resources)?",
        r"/v2/regions", r"/v2/sizes", r"/v2/snapshots(/\{snapshot_id\})?",
        r"/v2/tags(/\{tag_id\})?", r"/v2/tags/\{tag_id\}/resources",
        r"/v2/volumes", r"/v2/volumes/actions", r"/v2/volumes/snapshots/\{snapshot_id\}", r"/v2/volumes/\{volume_id\}(/actions|/actions/\{action_id\}|/snapshots)?",
        r"/v2/vpcs(/\{vpc_id\})?", r"/v2/vpcs/\{vpc_id\}/members",
        r"/v2/reserved_ips(/\{reserved_ip\})?", r"/v2/reserved_ips/\{reserved_ip\}/actions(/\{action_id\})?"]),
    "xero_accounting": ("XeroAPI+Xero-OpenAPI", "xero_accounting.yaml", None, None),
    "okta": ("okta+okta-management-openapi-spec", "dist/current/management-oneOfInheritance-noExamples.yaml", None, [
        r"/api/v1/users(/\{id\})?", r"/api/v1/users/\{(id|userId)\}/(groups|appLinks|lifecycle/[a-z_]+|roles|roles/\{roleAssignmentId\}|factors|factors/\{factorId\}|sessions)",
        r"/api/v1/groups(/\{groupId\})?", r"/api/v1/groups/\{groupId\}/(users|users/\{userId\}|apps|roles|roles/\{roleAssignmentId\}|owners|owners/\{ownerId\})",
        r"/api/v1/groups/rules(/\{groupRuleId\})?", r"/api/v1/groups/rules/\{groupRuleId\}/lifecycle/[a-z]+",
        r"/api/v1/apps(/\{appId\})?", r"/api/v1/apps/\{appId\}/(users|users/\{userId\}|groups|groups/\{groupId\}|lifecycle/[a-z]+)"]),
    "square": ("square+connect-api-specification", "api.json", None, [
        r"/v2/locations(/\{location_id\})?", r"/v2/customers(/\{customer_id\})?", r"/v2/customers/(search|groups|groups/\{group_id\}|segments|segments/\{segment_id\})",
        r"/v2/customers/\{customer_id\}/groups/\{group_id\}", r"/v2/catalog/(list|object|object/\{object_id\}|search|search-catalog-items|batch-retrieve|batch-upsert|batch-delete|info)",
        r"/v2/orders(/\{order_id\})?", r"/v2/orders/(search|batch-retrieve|calculate|clone)", r"/v2/orders/\{order_id\}/pay",
        r"/v2/payments(/\{payment_id\})?", r"/v2/payments/\{payment_id\}/(cancel|complete)", r"/v2/refunds(/\{refund_id\})?",
        r"/v2/invoices(/\{invoice_id\})?", r"/v2/invoices/(search|\{invoice_id\}/(cancel|publish))",
        r"/v2/team-members(/\{team_member_id\})?", r"/v2/team-members/search", r"/v2/cards(/\{card_id\})?", r"/v2/cards/\{card_id\}/disable",
        r"/v2/inventory/\{catalog_object_id\}", r"/v2/inventory/(counts/batch-retrieve|changes/batch-create)"]),
    "adyen_management": ("Adyen+adyen-openapi", "json/ManagementService-v3.json", None, None),
    "mandrill": ("mailchimp+mailchimp-client-lib-codegen", "spec/transactional.openapi.json", None, None),
    "vonage_conversation": ("Nexmo+api-specification", "definitions/conversation.yml", "merge", None),
}


def build(key: str) -> dict:
    repo, path, mode, patterns = CATALOGS[key]
    if mode == "inline":
        doc = bundle_inline(repo, path)
    elif mode == "merge":
        doc = merge_component_refs(repo, path)
    else:
        doc = parse(show(repo, path), path)
    doc = strip(doc)
    if key == "digitalocean":  # inlined rate-limit response headers repeat ~100 times; they carry no ids
        doc["paths"] = drop_response_headers(doc["paths"])
    commit = git(repo, "rev-parse", "HEAD").strip()
    return subset(doc, patterns, f"{repo.replace('+', '/')} {path} @ {commit[:12]}")


if __name__ == "__main__":
    for key in sys.argv[1:] or CATALOGS:
        doc = build(key)
        target = OUT / f"{key}.json"
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), default=str)
        target.write_text(text + "\n", encoding="utf-8")
        ops = sum(1 for p in doc["paths"].values() for m in p if m in ("get", "post", "put", "patch", "delete"))
        print(key, len(doc["paths"]), "paths", ops, "ops", len(text), "bytes")
