"""call_tool's argument check against an upstream tool's input schema (JSON Schema, `jsonschema`), bounded.

An upstream's schema and a client's arguments are both untrusted: `pattern: ^(a+)+$` with 29 characters
backtracks for seconds in Python's `re`, and a 4.7 MB array costs seconds of keyword calls. So:

- `pattern` and `patternProperties` run on RE2 (`google-re2`, linear time). A pattern RE2 cannot run
  (a back-reference, a look-around) is not checked by the gateway (logged once); the upstream checks
  its own input.
- every keyword checks a deadline (VALIDATION_SECONDS): past it the check stops and the call is refused
  ("could not be checked within ...s"), nothing dispatched;
- the check runs in a worker thread (at most VALIDATION_THREADS at once), never on the event loop.
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from typing import Any

import anyio
import re2
from jsonschema import validators
from jsonschema.exceptions import ValidationError

logger = logging.getLogger("kg_tools.gateway")

VALIDATION_SECONDS = 2.0  # the time budget of one call's argument check
VALIDATION_THREADS = 4
MAX_PROBLEMS = 10  # schema problems named in one error

_deadline = threading.local()
_limiter: anyio.CapacityLimiter | None = None


class BudgetExceeded(Exception):
    """The argument check ran past its deadline."""


@functools.lru_cache(maxsize=4096)
def linear_regex(pattern: str):
    """The RE2 regex of a schema pattern, or None when RE2 cannot run it (then it is not checked)."""

    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        logger.warning("schema pattern %r is not checked by the gateway (not a linear-time regex: %s)", pattern, exc)
        return None


def _pattern(validator, patrn, instance, schema):

    regex = linear_regex(patrn)
    if regex is not None and validator.is_type(instance, "string") and not regex.search(instance):
        yield ValidationError(f"{instance[:200]!r} does not match {patrn!r}")


def _pattern_properties(validator, patterns, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for patrn, subschema in patterns.items():
        regex = linear_regex(patrn)
        if regex is None:
            continue
        for key, value in instance.items():
            if regex.search(key):
                yield from validator.descend(value, subschema, path=key, schema_path=patrn)


def _timed(keyword):
    def check(validator, value, instance, schema):
        if time.monotonic() > getattr(_deadline, "at", math.inf):
            raise BudgetExceeded
        return keyword(validator, value, instance, schema)

    return check


@functools.lru_cache(maxsize=16)
def _bounded_class(cls):
    """`cls` (a jsonschema validator class) with RE2 patterns and a deadline check in every keyword."""

    keywords = dict(cls.VALIDATORS) | {"pattern": _pattern, "patternProperties": _pattern_properties}
    return validators.extend(cls, {name: _timed(fn) for name, fn in keywords.items()})


def build_validator(schema: dict) -> Any:
    """A bounded validator for `schema`; None when the schema itself is broken (then nothing is checked:
    the upstream's calls are not blocked on its own broken schema). Raises SchemaError."""

    cls = validators.validator_for(schema or {})
    cls.check_schema(schema or {})
    return _bounded_class(cls)(schema or {})


def problems(validator, arguments: dict, budget: float = VALIDATION_SECONDS) -> list[str]:
    """What is wrong with `arguments` (at most MAX_PROBLEMS, by path). Raises BudgetExceeded."""
    _deadline.at = time.monotonic() + budget
    found = []
    for error in validator.iter_errors(arguments):
        found.append(error)
        if len(found) >= MAX_PROBLEMS * 10:
            break
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(arguments)'}: {e.message}"
        for e in sorted(found, key=lambda e: list(map(str, e.absolute_path)))
    ][:MAX_PROBLEMS]


async def check_off_loop(validator, arguments: dict, budget: float = VALIDATION_SECONDS) -> list[str]:
    """`problems` in a worker thread; BudgetExceeded past `budget` (waiting for a thread included)."""
    global _limiter
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(VALIDATION_THREADS)
    try:
        with anyio.fail_after(budget + 1):
            return await anyio.to_thread.run_sync(
                problems, validator, arguments, budget, limiter=_limiter, abandon_on_cancel=True
            )
    except TimeoutError as exc:
        raise BudgetExceeded from exc
