"""corpus-oa-d: cut the four specs to coherent resources (whole paths, with every component they reference).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-d/):
  outline.json   github.com/outline/openapi            4e050c29cb344dc0ae0a1971686e246211eb5a6c  spec3.json (kept whole)
  mastodon.json  github.com/abraham/mastodon-openapi   89b11e724f5015e232d160749e3b2fd4006e100d  dist/schema.json
  gitea_oa3.json github.com/anbraten/gitea-js          885d8084b99c9e5b5aa5dbfcb5e334b0418538df  src/schemas/v1.22.json
                 (Gitea 1.22 swagger 2.0, converted with `npx swagger2openapi@7.0.8 -p v1.22.json -o gitea_oa3.json`)
  hcloud.json    github.com/MaximilianKoestler/hcloud-openapi 5f93a6da71d38a8290f6e7542978a274187268ef openapi/hcloud.json

    python corpus-oa-d_build.py
"""
from __future__ import annotations

import json
from pathlib import Path

from subset_spec import METHODS, subset  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-d")
OUT = Path(__file__).resolve().parent.parent / "openapi"

R = r"/repos/\{owner\}/\{repo\}"
PATTERNS = {
    "outline": (None, [r".*"]),
    "mastodon": ("mastodon.json", [
        r"/api/v1/accounts/\{id\}(/(block|unblock|follow|unfollow|followers|following|lists|mute|unmute|statuses|note|featured_tags|pin|unpin))?",
        r"/api/v1/accounts/(lookup|relationships|search|verify_credentials)",
        r"/api/v1/statuses(/\{id\}(/(context|favourite|unfavourite|reblog|unreblog|bookmark|unbookmark|pin|unpin|favourited_by|reblogged_by|history|source|translate|mute|unmute))?)?",
        r"/api/v1/lists(/\{id\}(/accounts)?)?",
        r"/api/v1/timelines/(home|public|list/\{list_id\}|tag/\{hashtag\})",
        r"/api/v1/tags/\{name\}(/(follow|unfollow))?", r"/api/v1/followed_tags",
        r"/api/v1/featured_tags(/\{id\})?",
        r"/api/v1/follow_requests(/\{account_id\}/(authorize|reject))?",
        r"/api/v1/notifications(/\{id\}(/dismiss)?)?", r"/api/v1/notifications/clear",
        r"/api/v2/filters(/\{id\})?", r"/api/v2/filters/\{filter_id\}/(keywords|statuses)",
        r"/api/v2/filters/(keywords|statuses)/\{id\}",
        r"/api/v1/media/\{id\}", r"/api/v2/media", r"/api/v1/polls/\{id\}(/votes)?",
        r"/api/v1/scheduled_statuses(/\{id\})?", r"/api/v2/search",
        r"/api/v1/conversations(/\{id\}(/read)?)?",
        r"/api/v1/(bookmarks|favourites|blocks|mutes|endorsements)",
        r"/api/v1/reports", r"/api/v1/suggestions(/\{account_id\})?",
    ]),
    "gitea": ("gitea_oa3.json", [
        r"/orgs", r"/orgs/\{org\}", r"/orgs/\{org\}/members(/\{username\})?", r"/orgs/\{org\}/repos",
        r"/orgs/\{org\}/teams(/search)?", r"/orgs/\{org\}/labels(/\{id\})?",
        r"/teams/\{id\}", r"/teams/\{id\}/members(/\{username\})?", r"/teams/\{id\}/repos(/\{org\}/\{repo\})?",
        r"/repos/search", R, R + r"/branches(/\{branch\})?", R + r"/collaborators(/\{collaborator\})?",
        R + r"/commits", R + r"/contents(/\{filepath\})?", R + r"/forks",
        r"/repos/issues/search", R + r"/issues", R + r"/issues/\{index\}", R + r"/issues/\{index\}/comments",
        R + r"/issues/comments/\{id\}", R + r"/issues/\{index\}/labels(/\{id\})?",
        R + r"/labels(/\{id\})?", R + r"/milestones(/\{id\})?",
        R + r"/pulls", R + r"/pulls/\{index\}", R + r"/pulls/\{index\}/merge",
        R + r"/pulls/\{index\}/reviews", R + r"/pulls/\{index\}/requested_reviewers",
        R + r"/releases", R + r"/releases/\{id\}", R + r"/releases/tags/\{tag\}", R + r"/tags(/\{tag\})?",
        r"/user", r"/user/repos", r"/user/orgs", r"/user/starred/\{owner\}/\{repo\}",
        r"/users/search", r"/users/\{username\}", r"/users/\{username\}/repos",
    ]),
    "hetzner_cloud": ("hcloud.json", [
        r"/servers(/\{id\})?",
        r"/servers/\{id\}/actions/(attach_iso|attach_to_network|detach_from_network|change_type|create_image|poweroff|poweron|reboot|rebuild|shutdown|add_to_placement_group|enable_backup|enable_rescue)",
        r"/(server_types|images|isos|locations|datacenters|ssh_keys|placement_groups)(/\{id\})?",
        r"/volumes(/\{id\})?", r"/volumes/\{id\}/actions/(attach|detach|resize)",
        r"/firewalls(/\{id\})?", r"/firewalls/\{id\}/actions/(apply_to_resources|remove_from_resources|set_rules)",
        r"/networks(/\{id\})?", r"/networks/\{id\}/actions/(add_subnet|delete_subnet)",
        r"/primary_ips(/\{id\})?", r"/primary_ips/\{id\}/actions/(assign|unassign)",
        r"/zones(/\{id_or_name\})?", r"/zones/\{id_or_name\}/rrsets(/\{rr_name\}/\{rr_type\})?",
        r"/zones/\{id_or_name\}/rrsets/\{rr_name\}/\{rr_type\}/actions/(add_records|remove_records|set_records)",
    ]),
}


def main():
    for key, (name, pats) in PATTERNS.items():
        doc = json.loads((SRC / (name or f"{key}.json")).read_text(encoding="utf-8"))
        if name is not None:
            doc = subset(doc, pats, "corpus-oa-d")
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
        assert len(text.encode()) <= 1_500_000, key
        (OUT / f"{key}.json").write_text(text, encoding="utf-8")
        print(key, sum(1 for i in doc["paths"].values() for m in i if m in METHODS), "ops", len(text), "bytes")


if __name__ == "__main__":
    main()
