"""Shared reading helpers with clear errors for missing or malformed files."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kg_tools.errors import CatalogError
from kg_tools.loaders.bounded import parse_document
from kg_tools.tool_spec import MAX_NESTING


@dataclass
class CatalogSource:
    """What a loader returns: the catalog name, its tool objects and (when the dataset has them) queries."""

    catalog: str
    tools: list
    instances: list = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what the importer cut or skipped (e.g. a huge schema)


def _require_file(path: Path) -> None:
    if not path.exists():
        raise CatalogError(f"file not found: {path}")
    if path.is_dir():
        raise CatalogError(f"{path} is a directory; give a catalog file")


def reworded(exc: CatalogError, words: Callable[[str], str]) -> CatalogError:
    """The same error (its class and problems kept) with its message passed through `words`."""
    new = exc.__class__(words(str(exc)))
    new.problems = exc.problems
    return new


def read_json(path: Path):
    path = Path(path)
    _require_file(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogError(f"malformed JSON in {path}: {exc.msg} at line {exc.lineno}, column {exc.colno}") from exc
    except RecursionError as exc:
        raise CatalogError(
            f"{path}: JSON nested too deeply to read (a tool may nest at most {MAX_NESTING} levels)"
        ) from exc
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def read_text(path: Path) -> str:
    path = Path(path)
    _require_file(path)
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def read_document(path: Path):
    """A file as JSON, JSON lines or YAML (loaders/bounded.py `parse_document`)."""
    return parse_document(read_text(path), str(path))


def tool_list(document) -> list | None:
    """The tools a document lists: a list, {"tools": [...]}, {"functions": [...]} (the older Chat Completions
    request), or one tool alone (an object with a name or a function, as a one-line JSON lines file holds); a
    JSON-RPC response saved whole (`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}`) as its result; JSON
    lines of JSON-RPC messages (a session's log) list no tools (rpc_error says so)."""
    if rpc_messages(document):
        return None
    if isinstance(document, list) or not isinstance(document, dict):
        return document if isinstance(document, list) else None
    document = rpc_result(document)
    listed = next((document[k] for k in ("tools", "functions") if isinstance(document.get(k), list)), None)
    if listed is None and (isinstance(document.get("name"), str) or isinstance(document.get("function"), dict)):
        return [document]
    return listed


def rpc_result(document: dict) -> dict:
    """The `result` of a JSON-RPC response (an MCP `tools/list` answer saved as it came); anything else as it is."""
    result = document.get("result")
    return result if "jsonrpc" in document and isinstance(result, dict) else document


def rpc_messages(document) -> bool:
    """JSON lines (a list) whose every row is a JSON-RPC message (`{"jsonrpc": "2.0", ...}`)."""
    return (
        isinstance(document, list) and bool(document) and all(isinstance(r, dict) and "jsonrpc" in r for r in document)
    )


def one_message(document):
    """A list of one JSON-RPC message (a tools/list answer saved as one JSON line, or in brackets) as that message;
    anything else as it is. Every loader that reads a whole document calls it first (the CLI's `load json`, the
    REST import), so both read the same file alike."""
    return document[0] if rpc_messages(document) and len(document) == 1 else document


def rpc_error(document) -> str:
    """What a saved JSON-RPC answer that lists no tools is (` (a JSON-RPC error answer: -32601 Method not found)`,
    another method's result, an error that is no object), for the error that refuses it as a tool list; '' for
    anything else."""
    if rpc_messages(document):  # a session's log: each line was read as a tool without a name
        return f" ({len(document)} JSON-RPC messages: save the tools/list answer alone, or its result)"
    if not isinstance(document, dict) or "jsonrpc" not in document:
        return ""
    error, result = document.get("error"), document.get("result")
    if isinstance(error, dict):
        said = " ".join(f"{error.get('code', '')} {error.get('message', '')}".split())[:200]
        return f" (a JSON-RPC error answer: {said or 'no code, no message'})"
    if error is not None:
        return f" (a JSON-RPC error answer: {' '.join(str(error).split())[:200]})"
    if not isinstance(result, dict):  # `"result": [...]` is no tools/list answer either: its tools are named
        what = "no result" if result is None else f"a result that is {RESULT_KINDS.get(type(result), 'no object')}"
        return f' (a JSON-RPC answer with {what}, not a tools/list answer\'s {{"tools": [...]}})'
    if "tools" in result:  # `"tools": {...}`, `"tools": null`: the key is there, its value is no list
        tools = result["tools"]
        what = "null" if tools is None else RESULT_KINDS.get(type(tools), "no list")
        return f" (a JSON-RPC answer whose result's 'tools' is {what}, not the list a tools/list answer's is)"
    keys = ", ".join(map(str, result))[:200] or "none"
    return f" (a JSON-RPC answer whose result has no 'tools' list, as a tools/list answer's has; its keys: {keys})"


RESULT_KINDS = {
    list: "a list",
    dict: "an object",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true or false",
}


def read_jsonl(path: Path) -> list:
    path = Path(path)
    _require_file(path)
    rows, problems = [], []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            problems.append(f"{path}:{n}: {exc.msg} at column {exc.colno}")
        except RecursionError:
            problems.append(f"{path}:{n}: JSON nested too deeply to read (at most {MAX_NESTING} levels)")
    if problems:
        raise CatalogError(f"malformed JSON lines in {path}", problems)
    return rows


def require_dir(path: Path, what: str) -> Path:
    path = Path(path)
    if not path.is_dir():
        raise CatalogError(f"{what} directory not found: {path} (pass DIR or set KG_TOOLS_DATASETS)")
    return path


def split_files(directory: Path, catalog: str) -> CatalogSource:
    """ToolLinkOS layout: core_tools.json + regular_tools.json (+ instances.json)."""
    core = read_json(directory / "core_tools.json")
    regular = read_json(directory / "regular_tools.json")
    for name, part in (("core_tools.json", core), ("regular_tools.json", regular)):
        if not isinstance(part, list):
            raise CatalogError(f"{directory / name}: expected a JSON list of tools, got {type(part).__name__}")
    instances_path = directory / "instances.json"
    instances = read_json(instances_path) if instances_path.exists() else []
    return CatalogSource(
        catalog, core + regular, instances, [str(directory / "core_tools.json"), str(directory / "regular_tools.json")]
    )
