"""corpus-oa-k: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-k/):
  lob.yml              github.com/lob/lob-openapi                     539ed451fc9f3af0d4b1ee01348c095126c64df3
                       dist/lob-api-bundled.yml (Lob API, OpenAPI 3.0.3, bundled)
  clerk_bapi.yml       github.com/clerk/openapi-specs                 7987d1b776258d5ddd9163e1a03d256b5ac4d64a
                       bapi/2025-11-10.yml (Clerk Backend API, OpenAPI 3.0.3)
  dropbox_sign.yaml    github.com/hellosign/hellosign-openapi         ad21451f222d4f21245d992b4e959f8d5100e3f9
                       openapi.yaml (Dropbox Sign API v3, OpenAPI 3.0.3; its references to files of the repository
                       (request examples, x-codeSamples, tag descriptions in markdown) dropped by local_only)
  apideck_hris.yml     github.com/apideck-libraries/openapi-specs     fc186f740c8effdafc16f3a76af38ef0a500f6d1
                       hris.yml (Apideck HRIS API, OpenAPI 3.0.0; kept whole)
  figma.yaml           github.com/figma/rest-api-spec                 af94bebd8a00bdf5cd24a4a4dc65d9e7ee95e6ec
                       openapi/openapi.yaml (Figma REST API, OpenAPI 3.1.0)

    python corpus-oa-k_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_tags  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-k")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Lob: the mail pieces and what they are built from (addresses, bank accounts, templates and their versions,
    # campaigns and creatives, uploads, billing groups, buckslips, cards and their orders, resource proofs);
    # not address verification, autocompletion, geocoding, zip lookups, identity validation, account/credits,
    # informed delivery, QR codes, URL shortener
    "lob": {
        "Addresses",
        "Bank Accounts",
        "Billing Groups",
        "Booklets",
        "Buckslips",
        "Buckslip Orders",
        "Campaigns",
        "Cards",
        "Card Orders",
        "Checks",
        "Creatives",
        "Letters",
        "Postcards",
        "Resource Proofs",
        "Self Mailers",
        "Snap Packs",
        "Template Versions",
        "Templates",
        "Uploads",
    },
    # Clerk Backend API: users and their e-mail addresses, phone numbers and sessions, invitations,
    # organizations with their memberships, invitations and roles; not billing, instance settings, JWT
    # templates, machines, API keys, OAuth applications, SAML/enterprise connections, domains, webhooks
    "clerk": {
        "Users",
        "Organizations",
        "Organization Memberships",
        "Organization Invitations",
        "Organization Roles",
        "Invitations",
        "Sessions",
        "Email Addresses",
        "Phone Numbers",
    },
    # Dropbox Sign: signature requests, templates, unclaimed drafts, embedded URLs, bulk send jobs, teams,
    # account, API apps, reports; not fax, fax lines, OAuth token flows
    "dropbox_sign": {
        "Account",
        "Api App",
        "Bulk Send Job",
        "Embedded",
        "Signature Request",
        "Team",
        "Template",
        "Unclaimed Draft",
        "Report",
    },
    # Figma: files, projects, comments and reactions, users, components, component sets, styles, webhooks,
    # variables, dev resources; not activity logs, payments, library analytics, oEmbed
    "figma": {
        "Files",
        "Projects",
        "Comments",
        "Comment Reactions",
        "Users",
        "Components",
        "Component Sets",
        "Styles",
        "Webhooks",
        "Variables",
        "Dev Resources",
    },
}
SPECS = {
    "lob": "lob.yml",
    "clerk": "clerk_bapi.yml",
    "dropbox_sign": "dropbox_sign.yaml",
    "apideck_hris": "apideck_hris.yml",
    "figma": "figma.yaml",
}


def local_only(node):
    """`node` without what points outside the document (Dropbox Sign's examples, code samples and markdown
    descriptions are files of its repository: `$ref: examples/json/….json`); None for such a pointer."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            return None
        out = {k: local_only(v) for k, v in node.items() if k != "x-codeSamples"}
        return {k: v for k, v in out.items() if v is not None}
    if isinstance(node, list):
        return [v for v in (local_only(x) for x in node) if v is not None]
    return node


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-k", prepare=local_only)


if __name__ == "__main__":
    main()
