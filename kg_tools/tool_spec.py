"""The tool model (ToolLinkOS schema) and whole-catalog validation.

A catalog is a list of tool objects: name, description, parameters, func_type ("core" |
"regular") and depends_on edges (name, dependence_type, parameter_name, reason). Validation
checks everything before anything is written and reports every offender at once.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from confusable_homoglyphs.confusables import confusables_data
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, field_validator

from kg_tools.errors import CatalogError, DanglingReferenceError


class DependencyType(str, Enum):
    TOOL_DIRECTLY_DEPENDS_ON = "TOOL_DIRECTLY_DEPENDS_ON"
    TOOL_INDIRECTLY_DEPENDS_ON = "TOOL_INDIRECTLY_DEPENDS_ON"
    PARAMETER_DIRECTLY_DEPENDS_ON = "PARAMETER_DIRECTLY_DEPENDS_ON"
    PARAMETER_INDIRECTLY_DEPENDS_ON = "PARAMETER_INDIRECTLY_DEPENDS_ON"

    @property
    def is_direct(self) -> bool:
        return "_DIRECTLY_" in self.value

    @property
    def is_parameter(self) -> bool:
        return self.value.startswith("PARAMETER_")


DEPENDENCY_TYPES = [t.value for t in DependencyType]

# Known non-standard spellings seen in the data and the papers' figures. A parameter edge
# without "INDIRECTLY" is read as direct.
_ALIASES = {
    "PARAMETER_DEPENDS_ON": DependencyType.PARAMETER_DIRECTLY_DEPENDS_ON,
    "TOOL_DEPENDS_ON": DependencyType.TOOL_DIRECTLY_DEPENDS_ON,
}


def normalise_dependency_type(raw: str) -> DependencyType | None:
    """Map a raw dependence_type to the standard one (spaces, hyphens, case, known aliases); None if unknown."""
    key = re.sub(r"[\s\-]+", "_", str(raw).strip()).upper()
    key = re.sub(r"_+", "_", key)
    if key in DEPENDENCY_TYPES:
        return DependencyType(key)
    return _ALIASES.get(key)


# Limits on what a catalog (file or REST PUT) may hold; documented in docs/rest-api.md (Limits).
MAX_NAME_LENGTH = 200
MAX_OUTPUT_SCHEMA_CHARS = 20_000  # an output schema's JSON; importers cut larger ones (with a warning)
MAX_CATALOG_LENGTH = 200  # a catalog name (and a run id) in the API
MAX_DESCRIPTION_LENGTH = 10_000
MAX_NESTING = 64  # levels of JSON objects/lists inside one tool
MAX_SPEC_BYTES = 1024 * 1024  # one tool's stored spec, as JSON (the default body limit of a PUT)
CONTROL_CHARACTERS = "".join(map(chr, [*range(0x00, 0x20), *range(0x7F, 0xA0)]))
# What str.strip() removes (Python's whitespace), spelled out for patterns other engines read.
WHITESPACE = "".join(c for c in map(chr, range(0x110000)) if c.isspace())
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Characters that show nothing or reorder what follows: every format character (Cf: zero-width
# space/joiners, bidi embeddings/overrides/isolates and marks, soft hyphen, BOM, tags ...), the line and
# paragraph separators, and the blank letters and selectors that render as nothing. A name holding one
# can look like another name (or like nothing), so names may not.
INVISIBLE_CHARACTERS = "".join(
    [c for c in map(chr, range(0x110000)) if unicodedata.category(c) == "Cf"]
    + [
        "\u2028",
        "\u2029",
        "\u115f",
        "\u1160",
        "\u3164",
        "\uffa0",
        "\u2800",
        "\u034f",
        "\u17b4",
        "\u17b5",
        *map(chr, range(0x180B, 0x1810)),
        *map(chr, range(0xFE00, 0xFE10)),
        *map(chr, range(0xE0100, 0xE01F0)),
    ]
)
_INVISIBLE = re.compile("[" + re.escape(INVISIBLE_CHARACTERS) + "]")


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def negated_class(chars: str) -> str:
    """A regex character class matching any character but `chars`, as ranges of \\uXXXX escapes
    (the same meaning in Python's re, pydantic's Rust regex and ECMA 262 / JSON Schema); characters
    beyond U+FFFF as \\UXXXXXXXX (Python's re and Rust's regex; not ECMA 262)."""
    codes, parts = sorted(set(map(ord, chars))), []
    start = prev = codes[0]
    for code in [*codes[1:], None]:
        if code is not None and code == prev + 1:
            prev = code
            continue
        parts.append(_escape(start) + (f"-{_escape(prev)}" if prev > start else ""))
        if code is not None:
            start = prev = code
    return "[^" + "".join(parts) + "]"


_EDGE = negated_class(WHITESPACE + CONTROL_CHARACTERS + INVISIBLE_CHARACTERS)
# What check_name accepts once stripped, as a JSON Schema pattern: no control or invisible characters,
# no whitespace at either end (the length limit is separate).
TOOL_NAME_PATTERN = f"^{_EDGE}(?:{negated_class(CONTROL_CHARACTERS + INVISIBLE_CHARACTERS)}*{_EDGE})?$"
CATALOG_NAME_PATTERN = TOOL_NAME_PATTERN  # the same rules (check_catalog_name), at most MAX_CATALOG_LENGTH
# Text with at least one character that is not whitespace (what survives strip()).
NOT_BLANK_PATTERN = negated_class(WHITESPACE)


def clip(value: Any, limit: int = 80, quote: bool = True) -> str:
    """repr() (or str() without `quote`) of a value for an error message, cut to `limit`
    characters (never echo megabytes)."""
    text = repr(value) if quote else str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def lone_surrogate(value: Any, limit: int = MAX_NESTING + 1) -> str | None:
    """Where a string (key or value) holds a lone UTF-16 surrogate, e.g. from a JSON "\\ud800"
    escape: such text cannot be stored (Neo4j and the tokenizer need valid Unicode). None if none."""
    stack = [(value, "", 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > limit:
            continue
        if isinstance(item, str):
            bad = _SURROGATE.search(item)
            if bad:
                return f"{where or 'value'}: lone surrogate U+{ord(bad.group()):04X} at position {bad.start()}"
        elif isinstance(item, dict):
            for k, v in item.items():
                key = clip(k, 40, quote=False) if isinstance(k, str) else str(k)
                if isinstance(k, str) and _SURROGATE.search(k):
                    return f"{where + '.' if where else ''}{key!r}: a key with a lone surrogate"
                stack.append((v, f"{where}.{key}" if where else key, depth + 1))
        elif isinstance(item, list):
            stack.extend((v, f"{where}.{i}" if where else str(i), depth + 1) for i, v in enumerate(item))
    return None


def normalise_name(value: str) -> str:
    """A name as stored and looked up: stripped, in Unicode NFC (so "café" typed as e + U+0301 is the
    same name as with é)."""
    return unicodedata.normalize("NFC", value.strip())


def check_name(value: str, what: str = "tool name") -> str:
    """A tool name: NFC, stripped, non-empty, no control characters (NUL, newline, tab ...) and no
    invisible ones (zero-width, bidi controls ...)."""
    value = normalise_name(value)
    if not value:
        raise ValueError(f"{what} is empty")
    for pattern, kind in ((_CONTROL, "control"), (_INVISIBLE, "invisible")):
        bad = pattern.search(value)
        if bad:
            char = bad.group()
            label = unicodedata.name(char, "") or ("NO-BREAK" if kind == "invisible" else "")
            raise ValueError(
                f"{what} contains the {kind} character U+{ord(char):04X}"
                f"{f' ({label})' if label else ''} at position {bad.start()}"
            )
    return value


def check_catalog_name(value: Any) -> str:
    """A catalog name from any path (CLI option, API path, a file's stem, an MCP server's name): the rules
    of a tool name, at most MAX_CATALOG_LENGTH characters. Raises CatalogError."""
    if not isinstance(value, str):
        raise CatalogError(f"invalid catalog name: expected text, got {type(value).__name__}")
    try:
        name = check_name(value, "catalog name")
    except ValueError as exc:
        raise CatalogError(f"invalid catalog name {clip(value, 60)}: {exc}") from None
    if len(name) > MAX_CATALOG_LENGTH:
        raise CatalogError(
            f"invalid catalog name {clip(value, 60)}: longer than {MAX_CATALOG_LENGTH} characters "
            f"({len(name)}); name the catalog yourself (--catalog)"
        )
    return name


def skeleton(name: str) -> str:
    """What a name looks like (after UTS #39's idea of a skeleton): NFKC, then every non-ASCII character
    that has an ASCII look-alike in the Unicode confusables data (Cyrillic 'а', Greek 'ο', fullwidth and
    mathematical letters ...) replaced by it. Two different names with one skeleton are confusable."""
    if name.isascii():
        return name

    out = []
    for char in unicodedata.normalize("NFKC", name):
        if ord(char) > 0x7F:
            glyphs = [g["c"].strip("\u200e\u200f") for g in confusables_data.get(char, ())]
            char = next((g for g in glyphs if len(g) == 1 and ord(g) <= 0x7F), char)
        out.append(char)
    return "".join(out)


def confusable_groups(names: list[str]) -> list[list[str]]:
    """Groups of two or more different names that look alike (one skeleton), each sorted."""
    by_skeleton: dict[str, set[str]] = {}
    for name in names:
        if not name.isascii():  # ASCII names are confusable only with non-ASCII ones: indexed via those
            by_skeleton.setdefault(skeleton(name), set()).add(name)
    ascii_names = {n for n in names if n.isascii()}
    groups = []
    for key, group in by_skeleton.items():
        if key in ascii_names:
            group = group | {key}
        if len(group) > 1:
            groups.append(sorted(group))
    return sorted(groups)


def nesting_depth(value: Any, limit: int = MAX_NESTING) -> int:
    """Depth of nested lists/objects (iterative, so a hostile document cannot exhaust the stack);
    stops counting once `limit` is exceeded."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            stack.extend((v, depth) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def json_size(value: Any, limit: int = MAX_SPEC_BYTES) -> int:
    """About how many characters `value` takes as JSON (strings count their length plus quotes);
    stops once past `limit`, so a value that shares parts many times over (YAML aliases) or contains
    itself costs at most `limit` steps."""
    total, stack = 0, [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, dict):
            total += 2 + 2 * len(item)
            for k, v in item.items():
                total += len(str(k)) + 2
                stack.append(v)
        elif isinstance(item, (list, tuple)):
            total += 2 + len(item)
            stack.extend(item)
        else:
            total += len(item) + 2 if isinstance(item, str) else len(str(item))
    return total


class Parameter(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str = Field(min_length=1)
    type: str | None = None
    description: str = ""
    required: bool = False


class DependencySpec(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    dependence_type: str
    parameter_name: str | None = None
    reason: str = ""

    _check_name = field_validator("name")(classmethod(lambda cls, v: check_name(v)))


class ToolAnnotations(BaseModel):
    """MCP tool annotations (hints a server gives about a tool's behaviour), in the protocol's spelling."""

    model_config = ConfigDict(extra="allow")
    title: str | None = None
    readOnlyHint: StrictBool | None = None
    destructiveHint: StrictBool | None = None
    idempotentHint: StrictBool | None = None
    openWorldHint: StrictBool | None = None


class HttpOperation(BaseModel):
    """Where an OpenAPI operation lives and what its spec says about it besides the parameters."""

    model_config = ConfigDict(extra="allow")
    method: str = Field(min_length=1, max_length=16)
    path: str = Field(min_length=1, max_length=2_000)
    operation_id: str | None = None
    tags: list[str] = Field(default_factory=list)
    deprecated: StrictBool = False
    # OpenAPI `links` of the 2xx responses: name -> {operationId | operationRef, parameters {name: expression}}
    links: dict[str, dict[str, Any]] = Field(default_factory=dict)
    response_status: str | None = None  # the 2xx status whose JSON schema is the tool's output_schema
    # how the request body is encoded: application/json (or a +json type), application/x-www-form-urlencoded,
    # multipart/form-data, */*, a text type (text/plain); None when the operation has no body the importer read
    request_media_type: str | None = Field(None, max_length=200)
    # the 2xx response's media type when it offers no JSON (image/png, text/csv, application/pdf ...): no value in
    # it is read, and the tool hands none on; None when it answers in JSON or with no body
    response_media_type: str | None = Field(None, max_length=200)


class ToolSpec(BaseModel):
    """One catalog entry. Extra fields (module, field ...) are kept. What real catalogs carry besides
    the ToolLinkOS fields: `title` and `annotations` (MCP), `output_schema` (MCP outputSchema, the
    JSON schema of an OpenAPI operation's 2xx response), `http` (OpenAPI), `strict` (OpenAI)."""

    model_config = ConfigDict(extra="allow")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    description: str = Field("", max_length=MAX_DESCRIPTION_LENGTH)
    parameters: list[Parameter] = Field(default_factory=list)
    func_type: Literal["core", "regular"] = "regular"
    depends_on: list[DependencySpec] = Field(default_factory=list)
    title: str | None = Field(None, max_length=MAX_NAME_LENGTH * 2)
    output_schema: dict[str, Any] | None = None
    annotations: ToolAnnotations | None = None
    http: HttpOperation | None = None
    strict: StrictBool | None = None

    @field_validator("name")
    @classmethod
    def _check_name(cls, v: str) -> str:
        return check_name(v)

    @field_validator("description", mode="before")
    @classmethod
    def _none_description(cls, v):
        return "" if v is None else v


@dataclass
class Edge:
    source: str
    target: str
    type: DependencyType
    parameter_name: str | None
    reason: str
    ord: int
    original_type: str

    def as_row(self) -> dict:
        """Parameters for cypher/create_dependencies.cypher."""
        return {
            "source": self.source,
            "target": self.target,
            "type": self.type.value,
            "parameter_name": self.parameter_name,
            "reason": self.reason,
            "ord": self.ord,
            "original_type": self.original_type,
        }


@dataclass
class CatalogReport:
    tools: int = 0
    core: int = 0
    regular: int = 0
    edges_by_type: dict[str, int] = field(default_factory=dict)
    cycle_back_edges: int = 0
    errors: list[str] = field(default_factory=list)
    # Problems of references between tools (self-loop, target not a tool): the tools themselves are well-formed.
    reference_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def edges(self) -> int:
        return sum(self.edges_by_type.values())

    def summary(self, messages: bool = True) -> str:
        by_type = ", ".join(f"{k} {v}" for k, v in sorted(self.edges_by_type.items()))
        lines = [
            f"tools: {self.tools} ({self.core} core, {self.regular} regular)",
            f"dependency edges: {self.edges} ({by_type or 'none'})",
            f"cycles: {self.cycle_back_edges} back edges in a DFS (legal; traversal is bounded)",
        ]
        if messages:
            lines += [f"warning: {w}" for w in self.warnings]
            lines += [f"error: {e}" for e in self.errors]
        return "\n".join(lines)


@dataclass
class ValidatedCatalog:
    specs: list[ToolSpec]
    raw: list[dict]
    edges: list[Edge]
    report: CatalogReport


def validate_catalog(
    raw_tools: list[Any],
    strict: bool = False,
    known_names: set[str] | None = None,
    catalog_names: set[str] | None = None,
) -> ValidatedCatalog:
    """Validate a whole catalog. Raises CatalogError listing every problem; nothing is written before.
    `known_names`: tools already in the graph (dependency targets; a look-alike of one is a warning).
    `catalog_names`: tools that stay in the same catalog beside these (a PUT's): a look-alike of one is
    an error, as two look-alikes in one document are."""
    report = CatalogReport()
    if not isinstance(raw_tools, list):
        raise CatalogError("a catalog must be a JSON list of tool objects", [f"got {type(raw_tools).__name__}"])
    specs, raws = _parse_tools(raw_tools, report)
    seen = _check_names(specs, report, known_names, catalog_names)
    edges = _catalog_edges(specs, set(seen) | set(known_names or ()), strict, report)
    _count(report, specs, edges)
    if report.errors:
        problems = report.errors + report.reference_errors
        raise CatalogError(f"catalog rejected: {len(problems)} problem(s), nothing written", problems)
    if report.reference_errors:  # well-formed, but names tools that are not there (or itself)
        raise DanglingReferenceError(
            f"catalog rejected: {len(report.reference_errors)} problem(s), nothing written", report.reference_errors
        )
    return ValidatedCatalog(specs, raws, edges, report)


def _parse_tools(raw_tools: list[Any], report: CatalogReport) -> tuple[list[ToolSpec], list[dict]]:
    """The well-formed tools (as specs and as given); every other one's problems go to `report.errors`."""
    specs: list[ToolSpec] = []
    raws: list[dict] = []
    for i, raw in enumerate(raw_tools):
        label = f"tool #{i}" + (f" ({clip(raw.get('name'))})" if isinstance(raw, dict) and raw.get("name") else "")
        problem = _raw_tool_problem(raw)
        if problem:
            report.errors.append(f"{label}: {problem}")
            continue
        try:
            specs.append(ToolSpec.model_validate(raw))
            raws.append(raw)
        except ValidationError as exc:
            for err in exc.errors():
                loc = ".".join(str(p) for p in err["loc"])
                report.errors.append(f"{label}: {loc}: {err['msg']}")
    return specs, raws


def _raw_tool_problem(raw: Any) -> str | None:
    """What makes a tool unfit to validate at all: not an object, too large, too deep, a lone surrogate."""
    if not isinstance(raw, dict):
        return "not a JSON object"
    if json_size(raw) > MAX_SPEC_BYTES:
        return f"the tool is larger than {MAX_SPEC_BYTES:,} characters as JSON (the limit of one stored spec)"
    if nesting_depth(raw) > MAX_NESTING:
        return f"nested more than {MAX_NESTING} levels deep"
    return lone_surrogate(raw) or None


def _check_names(
    specs: list[ToolSpec], report: CatalogReport, known_names: set[str] | None, catalog_names: set[str] | None
) -> dict[str, int]:
    """Duplicate and look-alike names (errors; a look-alike of a known tool: a warning); each name's count."""
    seen: dict[str, int] = {}
    for spec in specs:
        seen[spec.name] = seen.get(spec.name, 0) + 1
    for name, n in sorted(seen.items()):
        if n > 1:
            report.errors.append(f"duplicate tool name {name!r} ({n} entries; names are compared in Unicode NFC)")
    beside = [n for n in sorted(catalog_names or ()) if n not in seen]
    for group in confusable_groups([*seen, *beside]):  # look-alikes: an agent (or a person) cannot tell them apart
        if not any(n in seen for n in group):  # two older tools of the catalog: not this write's problem
            continue
        report.errors.append(
            "tool names that look alike: "
            + ", ".join(f"{n!r} ({n.encode('ascii', 'backslashreplace').decode()})" for n in group)
        )
    if known_names:
        report.warnings += _known_lookalikes(seen, known_names)
    return seen


def _known_lookalikes(names: Iterable[str], known_names: set[str]) -> list[str]:
    """Warnings for the names that look like (but are not) a tool already in the graph."""
    known_skeletons = {skeleton(n): n for n in known_names if not n.isascii()} | {
        n: n for n in known_names if n.isascii()
    }
    out = []
    for name in sorted(names):
        other = known_skeletons.get(skeleton(name))
        if other is not None and other != name and (not name.isascii() or not other.isascii()):
            out.append(f"tool name {name!r} looks like the existing tool {other!r}")
    return out


def _catalog_edges(specs: list[ToolSpec], names: set[str], strict: bool, report: CatalogReport) -> list[Edge]:
    """Every spec's `depends_on` as edges; a self-loop or a target not in `names` is a reference error."""
    edges: list[Edge] = []
    for spec in specs:
        seen_edges: set[tuple] = set()
        for ord_, dep in enumerate(spec.depends_on):
            where = f"{spec.name} -> {dep.name}"
            if dep.name == spec.name:
                report.reference_errors.append(f"self-loop: {where} ({clip(dep.dependence_type, quote=False)})")
                continue
            if dep.name not in names:
                report.reference_errors.append(f"dangling dependency target: {where} ({dep.name!r} is not a tool)")
                continue
            dtype = _edge_type(dep.dependence_type, where, strict, report)
            if dtype is None:
                continue
            key = (dep.name, dtype, dep.parameter_name, dep.reason)
            if key in seen_edges:
                report.warnings.append(f"edge {where} ({dtype.value}) is listed twice; both kept, as in the catalog")
            seen_edges.add(key)
            edges.append(Edge(spec.name, dep.name, dtype, dep.parameter_name, dep.reason, ord_, dep.dependence_type))
    return edges


def _edge_type(given: str, where: str, strict: bool, report: CatalogReport) -> DependencyType | None:
    """The standard type of a `dependence_type` (a non-standard spelling: a warning, an error under `strict`);
    None when it is unknown or rejected (the error is in `report`)."""
    dtype = normalise_dependency_type(given)
    if dtype is None:
        report.errors.append(
            f"unknown dependence_type {clip(given)} on {where}; expected one of {', '.join(DEPENDENCY_TYPES)}"
        )
        return None
    if dtype.value != given:
        msg = f"non-standard dependence_type {given!r} on {where}"
        if strict:
            report.errors.append(f"{msg} (rejected under --strict)")
            return None
        report.warnings.append(f"{msg} normalised to {dtype.value}")
    return dtype


def _count(report: CatalogReport, specs: list[ToolSpec], edges: list[Edge]) -> None:
    """The report's tool and edge counts and the cycle count."""
    report.tools = len(specs)
    report.core = sum(1 for s in specs if s.func_type == "core")
    report.regular = report.tools - report.core
    for e in edges:
        report.edges_by_type[e.type.value] = report.edges_by_type.get(e.type.value, 0) + 1
    report.cycle_back_edges = count_back_edges([s.name for s in specs], edges)


def count_back_edges(names: list[str], edges: list[Edge]) -> int:
    """Back edges of an iterative DFS in catalog order: 0 means the dependency graph is acyclic."""
    out: dict[str, list[str]] = {n: [] for n in names}
    for e in edges:
        out.setdefault(e.source, []).append(e.target)
    state: dict[str, int] = {}  # 1 = on stack, 2 = done
    back = 0
    for root in out:
        if root in state:
            continue
        stack = [(root, iter(out[root]))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                back += 1
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(out.get(nxt, []))))
    return back


# -- text derived from a spec ---------------------------------------------------------------


def split_name(name: str) -> str:
    """get_current_date -> 'get current date'; getFilmDetails -> 'get film details'; an acronym's plural stays one
    word: deleteIDs -> 'delete ids', peerURLs -> 'peer urls' (not 'i ds', 'ur ls')."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    words = re.sub(r"([A-Z]+)([A-Z](?!s(?:[^a-z]|$))[a-z])", r"\1 \2", words)
    return re.sub(r"[_\-.\s]+", " ", words).strip().lower()


def parameter_text(spec: ToolSpec, described: bool = True) -> str:
    """The parameters in words, each with its description (`described`) or by name only."""
    if not described:
        return ", ".join(split_name(p.name) for p in spec.parameters)
    return "; ".join(f"{split_name(p.name)}: {p.description}".strip() for p in spec.parameters)


# A tool's embedded text is at most this many words with its parameters described; past it they are
# listed by name only. Small embedders average over the whole text: a long document -- mostly MCP tools
# that explain their parameters at length -- drowns what the tool does in how it is called. Chosen on
# the real-catalog dev set (benchmarks/data/real, default mAP@10 0.454; 100 words: 0.468; 60: 0.484;
# names only always: 0.483 but ToolLinkOS dev 0.934 -> 0.929); ToolLinkOS dev 0.934 -> 0.935 at 60 or 100.
DOCUMENT_WORDS = 60


def tool_document(spec: ToolSpec, max_words: int | None = DOCUMENT_WORDS) -> str:
    """The text that is embedded: name in words, description, parameters (by name only when the
    document would be longer than `max_words` words; None: always described)."""
    parts = [split_name(spec.name), spec.description.strip().rstrip(".")]
    params = parameter_text(spec)
    if max_words is not None and params and len(" ".join([*parts, "Parameters:", params]).split()) > max_words:
        params = parameter_text(spec, described=False)
    if params:
        parts.append(f"Parameters: {params}")
    return ". ".join(p for p in parts if p)


def spec_hash(raw: dict) -> str:
    return hashlib.sha256(json.dumps(raw, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
