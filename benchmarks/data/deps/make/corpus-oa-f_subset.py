"""corpus-oa-f: build the five specs (whole, or cut to coherent resources: whole paths with every component they
reference, via subset_spec.subset).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-f/):
  nomad.yaml       github.com/hashicorp/nomad-openapi           91c4cd105ec4a5347c633633361249fb63de6391  v1/openapi.yaml (kept whole)
  netlify_sw2.yml  github.com/netlify/open-api                  650803172c55155ec34dcad94602e058477a4a98  swagger.yml
                   (swagger 2.0, converted with `npx swagger2openapi@7.0.8 -p netlify_sw2.yml -o netlify.json`)
  lago.yaml        github.com/getlago/lago-openapi              120da1213306145141d3dd34022dd47a3216c911  openapi.yaml
  jellyfin.json    github.com/jellyfin/jellyfin-sdk-typescript  53e24b07749bc817287c7259a61d7ccba8bf6a9a  openapi.json
                   (Jellyfin 10.7.6's generated spec; the last commit where it is not a Git LFS pointer)
  peertube.yaml    github.com/RustLangLatam/peertube_api_sdk_go 885c3c7a923a8c82e5eaf8fec029f2c74ccb37f1  openapi.yaml
                   (PeerTube 7.0.0's own support/doc/api/openapi.yaml, vendored by a generated Go SDK)

    python corpus-oa-f_subset.py
"""
from __future__ import annotations

import re
from pathlib import Path

from subset_spec import METHODS, read_spec, subset, write_spec  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-f")
OUT = Path(__file__).resolve().parent.parent / "openapi"

# Jellyfin, PeerTube: whole tags (every path with an operation of these tags)
JELLYFIN_TAGS = {"User", "UserLibrary", "Items", "Playlists", "Collection", "Session", "Playstate", "Artists",
                 "Genres", "Persons", "Studios", "UserViews", "TvShows", "ScheduledTasks", "Devices", "ApiKey",
                 "LibraryStructure", "Search", "ItemRefresh"}
PEERTUBE_TAGS = {"Video", "Video Channels", "Video Playlists", "Users", "Accounts", "My User", "Video Comments",
                 "Abuses", "My Subscriptions", "Video Captions", "Account Blocks", "Video Blocks", "Search", "Video Rates"}
TAGS = {"jellyfin": JELLYFIN_TAGS, "peertube": PEERTUBE_TAGS}
PATTERNS = {
    "nomad": ("nomad.yaml", None),
    "netlify_api": ("netlify.json", [
        r"/sites(/\{site_id\})?", r"/sites/\{site_id\}/(ssl|ssl/certificates|functions|forms|forms/\{form_id\}|submissions)",
        r"/sites/\{site_id\}/(files|files/\{file_path\}|assets(/\{asset_id\}(/public_signature)?)?)",
        r"/sites/\{site_id\}/(snippets(/\{snippet_id\})?|metadata|build_hooks(/\{id\})?)",
        r"/sites/\{site_id\}/(deploys(/\{deploy_id\}(/restore)?)?|builds|deployed-branches|rollback|dns)",
        r"/deploys/\{deploy_id\}(/(cancel|lock|unlock))?", r"/builds/\{build_id\}", r"/\{account_id\}/builds/status",
        r"/accounts/\{account_id\}/env(/\{key\}(/value/\{id\})?)?", r"/api/v1/sites/\{site_id\}/env",
        r"/forms/\{form_id\}/submissions", r"/submissions/\{submission_id\}",
        r"/hooks(/\{hook_id\}(/enable)?|/types)?", r"/deploy_keys(/\{key_id\})?",
        r"/\{account_slug\}/(sites|members(/\{member_id\})?)", r"/accounts(/\{account_id\}(/audit)?|/types)?",
        r"/user", r"/dns_zones(/\{zone_id\}(/dns_records(/\{dns_record_id\})?)?)?", r"/purge",
    ]),
    "lago": ("lago.yaml", [
        r"/billable_metrics(/\{code\})?", r"/add_ons(/\{code\})?", r"/coupons(/\{code\})?", r"/applied_coupons",
        r"/taxes(/\{code\})?", r"/plans(/\{code\})?", r"/plans/\{code\}/charges(/\{charge_code\})?",
        r"/customers(/\{external_customer_id\})?",
        r"/customers/\{external_customer_id\}/(applied_coupons(/\{applied_coupon_id\})?|credit_notes|invoices|payments|subscriptions|wallets|current_usage|past_usage|portal_url)",
        r"/subscriptions(/\{external_id\})?", r"/subscriptions/\{external_id\}/(alerts(/\{code\})?|charges)",
        r"/events(/\{transaction_id\})?", r"/events/batch",
        r"/invoices(/\{lago_id\}(/(download|finalize|refresh|retry|retry_payment|void|payment_url))?)?",
        r"/credit_notes(/\{lago_id\}(/(download|void))?)?", r"/fees(/\{lago_id\})?",
        r"/payments(/\{lago_id\})?", r"/wallets(/\{lago_id\})?", r"/wallet_transactions", r"/wallets/\{lago_id\}/wallet_transactions",
        r"/webhook_endpoints(/\{lago_id\})?",
    ]),
    "jellyfin": ("jellyfin.json", "tags"),
    "peertube": ("peertube.yaml", "tags"),
}


def main():
    for key, (name, pats) in PATTERNS.items():
        doc = read_spec(SRC / name)
        if pats == "tags":
            pats = [re.escape(p) for p, item in doc["paths"].items()
                    if any(m in METHODS and (op.get("tags") or [""])[0] in TAGS[key] for m, op in item.items())]
        if pats is not None:
            doc = subset(doc, pats, "corpus-oa-f")
            doc["info"]["description"] = doc["info"]["description"].replace("corpus-oa-f_build.py", "corpus-oa-f_subset.py")
        write_spec(doc, OUT / f"{key}.json")


if __name__ == "__main__":
    main()
