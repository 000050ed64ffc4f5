"""corpus-oa-o: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset; Brevo's Swagger 2.0 document by its definitions and shared parameters). Chosen (providers,
licences) and cut by tag before their operations were studied; all five are the eighteenth session's fresh set.
(Looked at first and dropped unstudied: Linode's linode-api-docs (openapi.yaml absent from the snapshot), Chatwoot and
Immich (repositories too large to fetch), Rocket.Chat's Open API (no licence), Front's specs (no licence), Opsgenie's
(no licence), Mailchimp's codegen (only the transactional API, i.e. Mandrill, already in the corpus).)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-o/):
  recurly.yaml          github.com/recurly/recurly-client-python      7294ca740baa4e3e97792579db68220bfbf81099
                        openapi/api.yaml (Recurly API v2021-02-25, OpenAPI 3.0.0; MIT)
  traccar.yaml          github.com/traccar/traccar                    9e5c458ad0bf44ceaddf72534bf6874787f41b6c
                        openapi.yaml (Traccar GPS tracking server API 6.14.5, OpenAPI 3.1.0; Apache-2.0)
  brevo.yaml            github.com/sendinblue/APIv3-go-library        7a06b582988d19d656278ce9d14fd034058b620a
                        api/swagger.yaml (Brevo, formerly Sendinblue, API v3, Swagger 2.0; MIT)
  onesignal.yaml        github.com/OneSignal/onesignal-go-api         9f8acf5b414b96644d90ecabbdeddb4cfc0dc44f
                        api/openapi.yaml (OneSignal API, OpenAPI 3.0.0; MIT; kept whole)
  easyappointments.yml  github.com/alextselegidis/easyappointments    e46b4c6befb88c8f00e0a1e0eecdaa0e9c6294fb
                        openapi.yml (Easy!Appointments API 1.0.0, OpenAPI 3.0.3; GPL-3.0; kept whole)

    python corpus-oa-o_subset.py
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from subset_spec import METHODS, subset, tag_paths, write_spec  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-o")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Recurly: accounts, subscriptions, invoices, plans and their add-ons, items, coupons and their redemptions,
    # transactions, account notes; not billing infos, line items, shipping, usage, purchases, gift cards, external
    # products/subscriptions/invoices, exports, dunning, business entities, site
    "recurly": {
        "account",
        "subscription",
        "invoice",
        "plan",
        "add-on",
        "item",
        "coupon",
        "coupon_redemption",
        "transaction",
        "note",
    },
    # Traccar: devices, groups, users, permissions, positions, events, geofences, notifications, commands,
    # calendars, computed attributes, drivers, maintenance; not sessions, server, reports, statistics, orders,
    # share, password, stream, health, audit
    "traccar": {
        "Devices",
        "Groups",
        "Users",
        "Permissions",
        "Positions",
        "Events",
        "Geofences",
        "Notifications",
        "Commands",
        "Calendars",
        "Attributes",
        "Drivers",
        "Maintenance",
    },
    # Brevo: contacts (with lists, folders, attributes), e-mail campaigns, and the CRM's companies, deals, notes and
    # files; not transactional e-mail and SMS, SMS campaigns, senders, webhooks, reseller, master account,
    # conversations, e-commerce, tasks, inbound parsing, process, account
    "brevo": {"Contacts", "Email Campaigns", "Companies", "Deals", "Notes", "Files"},
}
SPECS = {
    "recurly": "recurly.yaml",
    "traccar": "traccar.yaml",
    "brevo": "brevo.yaml",
    "onesignal": "onesignal.yaml",
    "easyappointments": "easyappointments.yml",
}


class _Loader(yaml.SafeLoader):
    """SafeLoader reading a bare `=` (YAML's value tag, in OneSignal's operator enums) as the string it means."""


_Loader.add_constructor("tag:yaml.org,2002:value", lambda loader, node: loader.construct_scalar(node))


def _refs2(node, out):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            out.add(ref)
        for v in node.values():
            _refs2(v, out)
    elif isinstance(node, list):
        for v in node:
            _refs2(v, out)
    return out


def subset_swagger2(doc: dict, patterns: list[str], task: str) -> dict:
    """A Swagger 2.0 document cut to the paths matching a pattern and the definitions, parameters and responses
    they reference, transitively."""
    keep = {p: item for p, item in doc["paths"].items() if any(re.fullmatch(x, p) for x in patterns)}
    todo, seen = _refs2(keep, set()), set()
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, section, name = ref.split("/", 2)
        node = doc.get(section, {}).get(name.replace("~1", "/").replace("~0", "~"))
        if node is not None:
            todo |= _refs2(node, set()) - seen
    out = {k: v for k, v in doc.items() if k not in ("paths", "definitions", "parameters", "responses")}
    for section in ("definitions", "parameters", "responses"):
        names = sorted(r.split("/", 2)[2] for r in seen if r.split("/", 2)[1] == section)
        if names:
            out[section] = {n: doc[section][n] for n in names if n in doc.get(section, {})}
    n_ops = sum(1 for i in keep.values() for m in i if m in METHODS)
    out["info"] = dict(doc.get("info", {}))
    out["info"]["description"] = (str(out["info"].get("description", "")) + "\n\nSubset for kg-tools' dependency "
                                  f"corpus ({task}): {len(keep)} of {len(doc['paths'])} paths, {n_ops} operations "
                                  f"kept (see benchmarks/data/deps/make/{task}_subset.py).").strip()
    out["paths"] = keep
    return out


def main():
    task = "corpus-oa-o"
    for key, name in SPECS.items():
        doc = yaml.load((SRC / name).read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 (a SafeLoader)
        if key in TAGS:
            patterns = tag_paths(doc, TAGS[key].__contains__)
            if "swagger" in doc:
                doc = subset_swagger2(doc, patterns, task)
            else:
                doc = subset(doc, patterns, task)
                doc["info"]["description"] = doc["info"]["description"].replace(f"{task}_build.py", f"{task}_subset.py")
        write_spec(doc, OUT / f"{key}.json")


if __name__ == "__main__":
    main()
