"""What a retrieval actually ran: every Cypher statement the pipeline sent, with its parameters.

`with recording() as executed: pipeline.retrieve(request)` collects them (PipelineEnv.run_query
records while a recording is active in this context), so `kg-tools retrieve --cypher` shows the
real queries whatever the stages do. `browser_script` turns them into text to paste in Neo4j Browser.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

_executed: ContextVar[list | None] = ContextVar("kg_tools_executed_cypher", default=None)
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
VECTOR_MIN_LENGTH = 32  # a list of at least this many numbers is an embedding: elided by default


@dataclass
class ExecutedQuery:
    cypher: str
    params: dict


@contextmanager
def recording():
    executed: list[ExecutedQuery] = []
    token = _executed.set(executed)
    try:
        yield executed
    finally:
        _executed.reset(token)


def active() -> bool:
    """A recording is on in this context (the pipeline then sends its full queries, uncached)."""
    return _executed.get() is not None


def record(cypher: str, params: dict) -> None:
    executed = _executed.get()
    if executed is not None:
        executed.append(ExecutedQuery(cypher, dict(params)))


def is_vector(value) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) >= VECTOR_MIN_LENGTH
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)
    )


def cypher_literal(value) -> str:
    """A Python parameter value as a Cypher literal (what Browser's `:param name => ...` evaluates)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = (k if _IDENTIFIER.match(k) else f"`{k.replace('`', '``')}`" for k in value)
        return "{" + ", ".join(f"{k}: {cypher_literal(v)}" for k, v in zip(keys, value.values())) + "}"
    raise TypeError(f"no Cypher literal for {type(value).__name__}")


def browser_script(
    executed: list[ExecutedQuery], query: str, model: str, with_embedding: bool = False, stages: list | None = None
) -> str:
    """The queries as Neo4j Browser input: `:param` lines (one command each), then the Cypher; the
    pipeline's stages (some run in Python after the Cypher, e.g. the seed rescoring) as closing comments."""
    lines = [
        f"// kg-tools retrieve --cypher: the Cypher the retrieval ran for {json.dumps(query)}",
        f"// {len(executed)} quer{'y' if len(executed) == 1 else 'ies'}. In Neo4j Browser run each :param line, "
        "then the query.",
    ]
    for i, q in enumerate(executed, 1):
        if len(executed) > 1:
            lines.append(f"// -- query {i} of {len(executed)}")
        for name, value in q.params.items():
            if is_vector(value) and not with_embedding:
                lines.append(
                    f"// ${name}: {len(value)} floats, the query embedded by {model} (elided; "
                    "--with-embedding prints its :param line)"
                )
            else:
                lines.append(f":param {name} => {cypher_literal(value)}")
        lines.append(q.cypher.rstrip().rstrip(";") + ";")
    if stages:
        lines.append("// The stages of this retrieval (ordering and cutting to K happen after the Cypher, in Python):")
        lines += [f"//   {s.name}: {s.detail}" + (" (fallback)" if s.fallback else "") for s in stages]
    return "\n".join(lines)


def as_json(executed: list[ExecutedQuery], with_embedding: bool = False) -> list[dict]:
    """[{cypher, params}] with vectors elided as "$name" unless asked for."""
    return [
        {
            "cypher": q.cypher,
            "params": {k: (v if with_embedding or not is_vector(v) else f"${k}") for k, v in q.params.items()},
        }
        for q in executed
    ]
