"""Profiles: which `server__tool` names an agent may find (search_tools, get_tool) and call (call_tool).

Rules, in order; the first that applies decides and is named in the denial:
  1. a `deny` glob matches                      -> denied
  2. no `allow` glob matches                    -> denied
  3. `read_only` and the tool is not read-only  -> denied: a `read_only_tools` glob must match, or the
     server be `trusted` and its readOnlyHint true (annotations of other servers are hints only)
  4. the tool is destructive and no `allow_destructive` glob matches -> denied
A tool is destructive as the MCP spec defaults it: not read-only and `destructiveHint` not false
(a tool without annotations is treated as destructive).
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

from kg_tools.gateway.config import Profile

OPEN_PROFILE = "(none)"  # the name of the profile that allows everything but destructive tools
NO_POLICY = (
    "the default policy: the config has no profile, and without one destructive tools are hidden "
    '(add a profile with "allow_destructive" globs to allow them)'
)


@dataclass(frozen=True)
class Decision:
    allowed: bool
    rule: str = ""

    def __bool__(self) -> bool:
        return self.allowed


def is_read_only(annotations: dict | None) -> bool:
    return bool((annotations or {}).get("readOnlyHint"))


def is_destructive(annotations: dict | None) -> bool:
    annotations = annotations or {}
    return not is_read_only(annotations) and annotations.get("destructiveHint", True) is not False


def _first(globs: list[str], name: str) -> str | None:
    return next((g for g in globs if fnmatchcase(name, g)), None)


def decide(profile_name: str, profile: Profile, name: str, annotations: dict | None, trusted: bool = False) -> Decision:
    where = f"profiles.{profile_name}"
    glob = _first(profile.deny, name)
    if glob is not None:
        return Decision(False, f"{where}.deny {glob!r}")
    if _first(profile.allow, name) is None:
        return Decision(False, f"{where}.allow (no glob matches {name!r})")
    read_only_by_glob = _first(profile.read_only_tools, name) is not None
    if profile.read_only and not read_only_by_glob:
        if not trusted:
            return Decision(
                False,
                f"{where}.read_only (no read_only_tools glob matches {name!r}; its server is not trusted, "
                "so its readOnlyHint is a hint only)",
            )
        if not is_read_only(annotations):
            return Decision(False, f"{where}.read_only (the tool is not marked readOnlyHint)")
    if not read_only_by_glob and is_destructive(annotations) and _first(profile.allow_destructive, name) is None:
        if profile_name == OPEN_PROFILE:
            return Decision(False, NO_POLICY)
        return Decision(
            False,
            f"{where}.allow_destructive (the tool may be destructive: destructiveHint "
            f"{'true' if (annotations or {}).get('destructiveHint') else 'not false'}; "
            "no glob allows it)",
        )
    return Decision(True)
