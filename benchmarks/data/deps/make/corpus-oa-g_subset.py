"""corpus-oa-g: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset).

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-g/):
  TripService.OpenApi.json  github.com/microsoft/OpenAPI.NET.OData  1c453ea6f4356ef7715adfc00b5f8e4818917059
                            test/Microsoft.OpenAPI.OData.Reader.Tests/Resources/TripService.OpenApi.json
                            (the OData TripPin sample service converted by Microsoft.OpenApi.OData)
  prowler_v1.yaml           github.com/prowler-cloud/prowler        dd882c70e7f2336e4d792c175ede75516e23d165
                            api/src/backend/api/specs/v1.yaml (Prowler API 1.41.0, JSON:API)
  openproject-v3.json       github.com/dattrink/openproject-typescript-sdk  d01148a891f5c35863007af098e32d870c716f98
                            spec/openproject-v3.json (OpenProject API v3, HAL+JSON, as published at
                            openproject.org/docs/api/v3/spec.json and vendored by the SDK)
  shlink/                   github.com/shlinkio/shlink              59c62a2cccd80c974cae7764e5aae7927f793d35
                            docs/swagger/ (swagger.json and the files its $refs name: paths/, definitions/,
                            parameters/, examples/), bundled into one document by `bundle` below (kept whole)

    python corpus-oa-g_subset.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from subset_spec import read_spec, subset, tag_paths, write_spec  # this directory (the script's own) is on sys.path

SRC = Path("/tmp/corpus-oa-g")
OUT = Path(__file__).resolve().parent.parent / "openapi"
M = r"Microsoft\.OData\.Service\.Sample\.TrippinInMemory\.Models\."

# TripPin: the entity sets, their keys and navigation ($ref) paths one level deep, the bound/unbound functions and
# actions, the Me singleton's trips; not the ~500 derived paths (type casts, nested navigation, NewComePeople)
TRIPPIN = [
    r"/Airlines(/\{AirlineCode\}|/\$count)?",
    r"/Airports(/\{IcaoCode\}(/Location(/EmergencyAuthority(/\$ref)?)?)?|/\$count)?",
    r"/GetNearestAirport\(.*\)",
    r"/GetPersonWithMostFriends\(\)",
    r"/ResetDataSource",
    r"/People(/\$count)?",
    r"/People/\{UserName\}",
    r"/People/\{UserName\}/(AddressInfo|HomeAddress|Photo|BestFriend(/\$ref)?|Friends(/\$ref|/\$count|/\{UserName1\}/\$ref)?)",
    r"/People/\{UserName\}/Trips(/\$count)?",
    r"/People/\{UserName\}/Trips/\{TripId\}(/PlanItems(/\$ref|/\$count|/\{PlanItemId\}/\$ref)?|/"
    + M
    + r"GetInvolvedPeople\(\))?",
    r"/People/\{UserName\}/"
    + M
    + r"(GetFavoriteAirline\(\)|GetFriendsTrips\(.*\)|GetPeersForTrip|ShareTrip|UpdatePersonLastName\(.*\))",
    r"/People/\{UserName\}/" + M + r"Manager/(DirectReports(/\$ref|/\{UserName1\}/\$ref)?|" + M + "Hire)",
    r"/People/\{UserName\}/" + M + r"Employee/(Peers(/\$ref|/\{UserName1\}/\$ref)?)",
    r"/People/" + M + r"(Employee|Manager)",
    r"/Me",
    r"/Me/(Friends|Trips(/\{TripId\})?)",
]
# Prowler: every tag but Lighthouse AI, Overview, SAML, Attack Paths and Token (login/refresh)
PROWLER_DROP = {"Lighthouse AI", "Overview", "SAML", "Attack Paths", "Token"}
# OpenProject: every path with an operation of these tags (work packages and what they refer to)
OPENPROJECT_TAGS = {
    "Work Packages",
    "WorkPackages",
    "Projects",
    "Users",
    "Groups",
    "Memberships",
    "Relations",
    "Versions",
    "Time Entries",
    "Time entries",
    "Time entry activities",
    "Statuses",
    "Types",
    "Priorities",
    "Categories",
    "Activities",
    "Roles",
}
PATTERNS = {
    "trippin_odata": ("TripService.OpenApi.json", TRIPPIN),
    "prowler": ("prowler_v1.yaml", "drop"),
    "openproject": ("openproject-v3.json", "keep"),
    "shlink": ("shlink", None),
}
SECTIONS = {"definitions": "schemas", "parameters": "parameters", "examples": "examples"}


def bundle(root: Path) -> dict:
    """A multi-file spec as one document: path files inlined, definitions/parameters/examples files moved to
    components (named by file stem) and every file reference rewritten to #/components/…."""

    def load(path: Path):
        return rewrite(json.loads(path.read_text(encoding="utf-8")), path.parent)

    def rewrite(node, base: Path):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                target = (base / ref).resolve()
                section = SECTIONS.get(target.parent.name)
                if section is None:  # a path item file: inline it
                    return load(target)
                components.setdefault(section, {}).setdefault(target.stem, None)
                if components[section][target.stem] is None:
                    components[section][target.stem] = load(target)
                return {"$ref": f"#/components/{section}/{target.stem}"}
            return {k: rewrite(v, base) for k, v in node.items()}
        if isinstance(node, list):
            return [rewrite(v, base) for v in node]
        return node

    components: dict = {}
    doc = load(root / "swagger.json")
    for section, items in components.items():
        doc["components"].setdefault(section, {}).update(items)
    return doc



def main():
    for key, (name, pats) in PATTERNS.items():
        doc = bundle(SRC / name) if key == "shlink" else read_spec(SRC / name)
        if pats == "drop":
            drop = {re.escape(p) for p in doc["paths"]} - set(tag_paths(doc, PROWLER_DROP.__contains__))
            pats = sorted(drop)
        elif pats == "keep":
            pats = tag_paths(doc, OPENPROJECT_TAGS.__contains__)
        if pats is not None:
            doc = subset(doc, pats, "corpus-oa-g")
            doc["info"]["description"] = doc["info"]["description"].replace(
                "corpus-oa-g_build.py", "corpus-oa-g_subset.py"
            )
        write_spec(doc, OUT / f"{key}.json")


if __name__ == "__main__":
    main()
