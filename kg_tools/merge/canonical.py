"""The canonical tool of a cluster: the representative's name, a unified description and signature.

Offline: the representative's description; its parameters first, then every other member's
parameters whose names it lacks, as optional. A parameter stays required only when it is required
in the representative and every member has a parameter of that name (so calls to any member
remain valid, see TCCR in benchmarks.merge_eval).
LLM (prompt merge_canonical.md): the model writes the description and the parameter list; the
answer must keep the representative's parameters first and list every member parameter name,
otherwise the offline canonical is used and the fallback recorded.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from pydantic import BaseModel

from kg_tools.errors import LLMError
from kg_tools.llm import LLMClient, render_prompt


@dataclass
class Canonical:
    description: str
    parameters: list[dict]
    method: str


def _params(spec: dict) -> list[dict]:
    return [dict(p) for p in spec.get("parameters") or []]


def offline_canonical(cluster: list[str], specs: dict[str, dict]) -> Canonical:
    rep = specs[cluster[0]]
    members = [specs[n] for n in cluster[1:]]
    names_everywhere = set.intersection(*[{p["name"] for p in _params(s)} for s in [rep] + members])
    params = []
    for p in _params(rep):
        p["required"] = bool(p.get("required")) and p["name"] in names_everywhere
        params.append(p)
    seen = {p["name"] for p in params}
    for spec in members:
        for p in _params(spec):
            if p["name"] not in seen:
                seen.add(p["name"])
                params.append({**p, "required": False})
    return Canonical(rep.get("description", ""), params, "offline-union")


class CanonicalParameter(BaseModel):
    name: str
    type: str
    description: str
    required: bool


class CanonicalAnswer(BaseModel):
    description: str
    parameters: list[CanonicalParameter]


def llm_canonical(llm: LLMClient, cluster: list[str], specs: dict[str, dict]) -> tuple[Canonical, str | None]:
    """(canonical, fallback note or None)."""
    offline = offline_canonical(cluster, specs)
    tools = [
        {"name": n, "description": specs[n].get("description", ""), "parameters": _params(specs[n])} for n in cluster
    ]
    try:
        answer = llm.structured(
            render_prompt("merge_canonical", representative=cluster[0], tools=tools), CanonicalAnswer
        )
        params = [p.model_dump() for p in answer.parameters]
        names = [p["name"] for p in params]
        rep_names = [p["name"] for p in _params(specs[cluster[0]])]
        if names[: len(rep_names)] != rep_names:
            raise ValueError("the representative's parameters must come first, in order")
        wanted = {p["name"] for n in cluster for p in _params(specs[n])}
        if set(names) != wanted or len(names) != len(set(names)):
            raise ValueError(f"parameters must be exactly the members' parameter names {sorted(wanted)}")
        for p in params[len(rep_names) :]:
            p["required"] = False
        return Canonical(answer.description.strip() or offline.description, params, "llm"), None
    except (LLMError, ValueError) as exc:
        return offline, f"canonical writer for {cluster[0]}: LLM answer unusable ({str(exc)[:120]}); offline union used"


def canonical_spec(rep_spec: dict, canonical: Canonical, members: list[str]) -> dict:
    """The representative's spec with the unified description/parameters and the members it stands for."""
    spec = copy.deepcopy(rep_spec)
    spec["description"] = canonical.description
    spec["parameters"] = canonical.parameters
    spec["merged_from"] = members
    return spec
