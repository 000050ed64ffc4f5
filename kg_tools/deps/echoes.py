"""Candidates that only echo the consumer's own value (nineteenth session, precision; docs/dependencies.md):
- a nested value the caller picks (Hevy `routine.exercises[].superset_id`, a grouping number) read off a reader whose
  output holds the same reference field in the same object (`routine.exercises[].supersets_id`), of a resource no
  tool of the catalog returns as its own: the reader echoes what was written, it does not hand out instances;
- an action named with a listing verb (LibreNMS `device_discover`, "Trigger device rediscovery") that takes the
  wanted parameter itself: it acts on one instance, it lists none."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kg_tools.deps.resources import GET_VERBS, LIST_VERBS, Offer, singular, words

if TYPE_CHECKING:
    from kg_tools.deps.producers import Tool, Want

# A description that opens with one of these starts a job (`Trigger device rediscovery`, `Run a sync`).
ACTION_VERBS = {
    *("trigger", "start", "run", "execute", "launch", "initiate", "kick", "invoke", "rerun"),
    *("restart", "reboot", "sync", "refresh", "schedule", "queue", "enqueue"),
}
READ_WORDS = LIST_VERBS | GET_VERBS | {"return", "result", "output"}  # a job that answers with a reading


def echoed_nested(want: Want, offer: Offer | None, tools: dict[str, Tool]) -> bool:
    """A nested want fed by a nested reference (a `<resource>_id` field, not the nested object's own `id`, which its
    parent's read hands out) under the same object and field (`exercises[].superset_id` in both) of a resource no
    tool offers as its own."""
    if not want.nested or offer is None or offer.primary or not offer.reference or not want.resources:
        return False
    wanted, offered = _keys(want.parameter), _keys(offer.path)
    if len(wanted) < 2 or len(offered) < 2 or wanted[-2:] != offered[-2:]:
        return False
    resource = want.resources[0]
    return not any(o.primary and o.resource == resource for t in tools.values() for o in t.offers)


def _keys(path: str) -> list[tuple[str, ...]]:
    """The keys of a dotted path, each as its singular words (`routine.exercises[].supersets_id` -> ...,
    (exercise,), (superset, id))."""
    return [tuple(singular(w) for w in words(k)) for k in re.split(r"\.|\[\]", path) if words(k)]


def acts_on_wanted(producer: Tool, want: Want) -> bool:
    """A listing or search named so whose description opens with an action and names no reading (`device_discover`:
    "Trigger device rediscovery") and that requires the wanted parameter itself."""
    if producer.kind not in ("list", "search") or want.nested:
        return False
    sentence = [singular(w) for w in words(producer.description.split(".", 1)[0][:200])]
    if not sentence or sentence[0] not in ACTION_VERBS or READ_WORDS & set(sentence):
        return False
    return any(p.get("required") and p.get("name") == want.parameter for p in producer.parameters)
