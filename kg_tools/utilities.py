"""Generic utilities in any catalog: tools that read or write a local file, fetch a URL, search the web, run a
command, convert a document or store a fact in the agent's memory (GRTF's Core tools), told apart from
server-specific tools.

`classify(spec)` decides from the tool alone: its name in words (a server prefix such as `brave_` or
`filesystem__` removed), its parameters and its MCP annotations. A tool is a utility of a kind only when its
name says the kind in generic words only, its schema has the parameters the kind needs, no parameter names a
remote object (an id, a key, an owner, a repository, a bucket ...: github's `create_or_update_file` with
`owner`/`repo` writes a repository, not a file; Proxmox's
`exec_command` with a glued `vmid` runs inside a VM) and no annotation contradicts it (a file writer marked
read-only). `classify_catalog(tools)` adds what the catalog says: how many servers offer each kind and how
many tools depend on each utility, in the reason. Precision over recall: a tool in doubt is not a utility.

The word lists were written from the tools/list dumps in benchmarks/data/real/mcp/ and
benchmarks/data/deps/mcp/ (no query set); benchmarks/data/real/make/utilities_gold.json labels those tools
by hand and tests/test_utilities.py measures the classifier on it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from kg_tools.gateway.names import operation_id, split_gateway_name
from kg_tools.tool_spec import ToolSpec, split_name

Kind = Literal["file_write", "file_read", "fetch_url", "web_search", "run_command", "convert_document", "memory_write"]
KINDS: tuple[Kind, ...] = (
    "file_write",
    "file_read",
    "fetch_url",
    "web_search",
    "run_command",
    "convert_document",
    "memory_write",
)


@dataclass(frozen=True)
class Rule:
    """One kind: the words its name must contain (one of each group), the only words its name may have,
    the parameters it needs (one of each group) and the annotation that rules it out."""

    kind: Kind
    must: tuple[frozenset[str], ...]
    allowed: frozenset[str]
    params: tuple[frozenset[str], ...]
    veto: str  # the MCP hint that contradicts the kind when True
    wording: frozenset[str] = frozenset()  # the description must say one of these (web search)


def _w(words: str) -> frozenset[str]:
    return frozenset(words.split())


PATH = _w("path file_path filepath filename file_name file output_path save_path target_path destination")
PATHS = PATH | _w("paths file_paths filepaths")
CONTENT = _w("content contents text data body")
URL = _w("url urls uri link page_url")
QUERY = _w("query q search_query search_term keywords")
COMMAND = _w("command cmd shell_command")
FORMAT = _w("format formats output_format output_type content_type")
DOCUMENT = _w("pdf docx markdown md html document documents doc")
FACTS = _w("entities entity memory memories fact facts")

RULES: tuple[Rule, ...] = (
    Rule(
        "file_write",
        must=(_w("write save"), _w("file files")),
        allowed=_w("write save create new file files text to"),
        params=(PATH, CONTENT),
        veto="readOnlyHint",
    ),
    Rule(
        "file_read",
        must=(_w("read get open view cat"), _w("file files")),
        allowed=_w("read get open view cat file files text media multiple content contents"),
        params=(PATHS,),
        veto="destructiveHint",
    ),
    Rule(
        "fetch_url",
        must=(_w("fetch scrape extract download read get"),),
        allowed=_w("fetch scrape extract download read get content contents page webpage url urls web html text"),
        params=(URL,),
        veto="destructiveHint",
    ),
    Rule(
        "web_search",
        must=(_w("search"),),
        allowed=_w("search web internet online"),
        params=(QUERY,),
        veto="destructiveHint",
        wording=_w("web internet online websites"),
    ),
    Rule(
        "run_command",
        must=(_w("run execute exec start"), _w("command commands process shell terminal")),
        allowed=_w("run execute exec start command commands process shell terminal"),
        params=(COMMAND,),
        veto="readOnlyHint",
    ),
    Rule(
        "convert_document",
        must=(_w("convert parse render write export create"), DOCUMENT | _w("parse convert")),
        allowed=_w("convert parse render write export create to from file") | DOCUMENT,
        params=(PATH | CONTENT, FORMAT | PATH | CONTENT),
        veto="",
    ),
    Rule(  # the agent's memory: a knowledge graph or memory store ("remember that ...")
        "memory_write",
        must=(_w("create add store save remember"), FACTS),
        allowed=_w("create add store save remember new multiple") | FACTS,
        params=(FACTS | CONTENT,),
        veto="readOnlyHint",
        wording=_w("knowledge memory memories"),
    ),
)

# A parameter whose words include one of these names a remote object: the tool works inside a service.
SCOPE_WORDS = _w(
    "id ids key keys uid gid arn owner repo repository bucket branch namespace database collection cluster pod "
    "container channel workspace vault project board card table account calendar space item message"
)
# A word that is an identifier glued to its object (`vmid`, `userids`): a remote object as well.
GLUED_ID = re.compile(r"[a-z]{2,}ids?")
# Said of a path parameter (or in the description's first sentence): the path is inside a service.
SCOPE_PHRASES = ("vault", "repository", "bucket", "google drive", "knowledge base", "attachment")


@dataclass(frozen=True)
class Utility:
    """A generic utility: its kind and why (evidence in words)."""

    kind: Kind
    reason: str


def server_of(name: str, catalog: str | None = None, spec_server: str | None = None, operation: str = "") -> str:
    """The server a tool comes from: the spec's `mcp_server`, the `<server>__` of its name (not of an operationId,
    `operation`: gateway.names.split_gateway_name), else its catalog."""
    if isinstance(spec_server, str) and spec_server:
        return spec_server
    return split_gateway_name(name, operation)[0] or catalog or ""


def name_words(name: str, server: str, operation: str = "") -> list[str]:
    """The tool's own name in words: without `<server>__` (an operationId `operation` whole), and without leading
    words of the server's name (brave_web_search of brave_search -> web search; obsidian_get_file_contents -> get
    file contents)."""
    words = split_name(split_gateway_name(name, operation)[1]).split()
    server_words = set(split_name(server).split())
    while len(words) > 1 and words[0] in server_words:
        words = words[1:]
    return words


def _param_words(name: str) -> str:
    return split_name(name).replace(" ", "_")


def _names_remote_object(param: str) -> bool:
    """The parameter names an object inside a service: a scope word, or an id glued to its object (Proxmox's `vmid`)."""
    words = param.split("_")
    return bool(SCOPE_WORDS.intersection(words)) or any(GLUED_ID.fullmatch(w) for w in words)


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0].lower()


def _distinct(params: Iterable[str], groups: tuple[frozenset[str], ...]) -> list[str] | None:
    """One parameter of each group, all different (the first that fits, in the schema's order), or None."""
    chosen: list[str] = []
    for group in groups:
        pick = next((p for p in params if p in group and p not in chosen), None)
        if pick is None:
            return None
        chosen.append(pick)
    return chosen


def classify(spec: ToolSpec, server: str = "") -> Utility | None:
    """The tool's utility kind and a reason, or None when it is not a generic utility (see the module doc)."""
    operation = operation_id(spec)
    words = name_words(
        spec.name, server or server_of(spec.name, None, getattr(spec, "mcp_server", None), operation), operation
    )
    params = {_param_words(p.name): p for p in spec.parameters}
    if any(_names_remote_object(p) for p in params):
        return None
    hints = spec.annotations.model_dump() if spec.annotations else {}
    for rule in RULES:
        found = _matches(rule, words, params, hints, spec.description or "")
        if found is not None:
            return _utility(rule, words, params, found, hints)
    return None


def _matches(rule, words: list[str], params: dict, hints: dict, description: str) -> list[str] | None:
    """The parameters by which `rule` fits the tool (name words, parameters, hints, wording), or None."""
    if not all(group & set(words) for group in rule.must) or not set(words) <= rule.allowed:
        return None
    found = _distinct(params, rule.params)
    if found is None or (rule.veto and hints.get(rule.veto) is True):
        return None
    if rule.wording and not rule.wording & set(re.findall(r"[a-z]+", description.lower())):
        return None
    said = " ".join([_first_sentence(description), *(params[p].description.lower() for p in found)])
    return None if any(phrase in said for phrase in SCOPE_PHRASES) else found


def _utility(rule, words: list[str], params: dict, found: list[str], hints: dict) -> Utility:
    evidence = [f"name '{' '.join(words)}'", "parameters " + " + ".join(f"'{params[p].name}'" for p in found)]
    if rule.wording:
        evidence.append("described as searching the web")
    evidence += [h for h in ("readOnlyHint", "destructiveHint") if hints.get(h) is True]
    return Utility(rule.kind, f"{rule.kind}: " + "; ".join(evidence))


@dataclass(frozen=True)
class CatalogTool:
    """What classify_catalog needs of a stored tool."""

    spec: ToolSpec
    catalog: str | None = None
    dependents: int = 0  # tools that depend on it (its in-degree over the four dependency types)


def classify_catalog(tools: Iterable[CatalogTool]) -> dict[str, Utility]:
    """The utilities among `tools` (by name), each reason completed with the catalog's evidence: how many
    servers offer the kind and how many tools depend on the utility."""
    found: dict[str, tuple[Utility, int]] = {}
    servers: dict[Kind, set[str]] = defaultdict(set)
    for tool in tools:
        server = server_of(
            tool.spec.name, tool.catalog, getattr(tool.spec, "mcp_server", None), operation_id(tool.spec)
        )
        utility = classify(tool.spec, server)
        if utility is not None:
            found[tool.spec.name] = (utility, tool.dependents)
            servers[utility.kind].add(server)
    result = {}
    for name, (utility, dependents) in found.items():
        n = len(servers[utility.kind])
        extra = [f"{n} servers offer {utility.kind}" if n > 1 else f"the only server offering {utility.kind}"]
        if dependents:
            extra.append(f"{dependents} tools depend on it")
        result[name] = Utility(utility.kind, f"{utility.reason}; {'; '.join(extra)}")
    return result
