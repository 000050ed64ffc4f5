"""The generic utilities a step of a request implies without naming a tool (issue 29 item 2).

`implied_utilities(step)` returns [(kind, evidence)], one entry per kind (kg_tools.utilities.KINDS), the
evidence being the words of the step that imply it:

- file_write: a file path the step saves or writes to ("save it as notes.md", "... to report.txt",
  "write the table to out/data.csv");
- file_read: a file path the step reads ("read the README", "summarise report.pdf", "from data.csv");
- fetch_url: a URL (http(s)://..., www....) or "this page" / "this article";
- web_search: "search the web for", "look up online", "find ... on the internet", "web search";
- run_command: "run `ls -la`", "run the command ...", "execute npm test", "in the terminal";
- convert_document: "convert ... to PDF", "export it as markdown", "turn it into a Word document";
- memory_write: "remember that ...", "memorize ...", "keep in mind that ...", "store ... in memory".

It never fires without such words: "write a poem", "run a marathon", "look up the weather", "search my
emails" and "remember to call mom" (a reminder, not a fact) imply nothing. Pure and offline; retrieval calls it per step (docs/retrieval.md). `pick_utilities`
chooses, for each kind implied, one of the catalog's :Core utilities (cypher/core_utilities.cypher).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from kg_tools.gateway.names import split_gateway_name
from kg_tools.utilities import Kind, server_of

EXTENSIONS = (
    "md markdown txt text csv tsv json jsonl ndjson yaml yml xml html htm pdf docx doc odt rtf xlsx xls ods pptx "
    "log py js ts sql ini toml cfg conf env sh png jpe?g gif svg webp mp3 wav mp4 zip tar gz tgz ipynb rst tex"
).split()
URL = re.compile(r"\bhttps?://[^\s<>\"')\]]+|\bwww\.[\w-]+(?:\.[\w-]+)+[^\s<>\"')\]]*", re.I)
PATH = re.compile(
    r"(?<![\w@/.:-])(?:"
    r"(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*"  # /tmp/out, ~/notes/todo.md, ./data
    rf"|[\w-]+(?:/[\w.-]+)*\.(?:{'|'.join(EXTENSIONS)})"  # notes.md, out/data.csv
    r"|(?i:readme|changelog)(?:\.\w+)?|LICENSE|Makefile|Dockerfile"  # the files a repository has
    r")(?![\w/-])",
)
# Where a clause starts: a sentence end, a comma or semicolon, "and", "then".
CLAUSE = re.compile(r"[.;!?](?:\s|$)|,|\band\b|\bthen\b", re.I)
WRITE_VERBS = set(
    "save saved saving write writes writing written store stored export exported dump output append appended "
    "create put record keep".split()
)
READ_VERBS = set(
    "read reads reading open opens load loads summarize summarise summarizes summarises parse parses analyze "
    "analyse analyzes analyses review reviews inspect inspects import view show check proofread compare extract "
    "go".split()
)
SEND_WORDS = {"webhook", "post", "upload", "callback", "endpoint"}  # a URL data is sent to, not one to read
# A step that opens its URL another way (a browser, a transcript, a screenshot): no fetch. Real-catalog steps dev:
# 15 of 21 fetch tools attached were wrong, mostly "open https://… in the browser", "the transcript of https://…".
OTHER_WAY = re.compile(
    r"\b(?:browser|playwright|puppeteer|selenium|screenshot|click|log ?in|transcripts?|webhooks?)\b", re.I
)
# Files a text reader or writer does not handle (an office document, an image, an archive): no file_read/file_write
# (steps dev: .xlsx paths drew the filesystem's readers where the excel server's tools were needed).
DEPRECATED = re.compile(r"\bDEPRECATED\b")  # as the gateway tells deprecated tools (kg_tools/gateway/service.py)
BINARY = set("pdf docx doc odt rtf xlsx xls ods pptx png jpg jpeg gif svg webp mp3 wav mp4 zip tar gz tgz".split())
PAGE = re.compile(r"\b(?:this|that) (?:web ?page|page|article|link|blog post|site|website)\b", re.I)
PAGE_HOSTS = re.compile(r"\b(?:notion|confluence|wiki|jira)\b", re.I)  # "this page" there is not a web page
WEB_SEARCH = (
    re.compile(r"\bsearch (?:the )?(?:web|internet|online)\b", re.I),
    re.compile(r"\bweb[- ]search\b|\bsearch engine\b|\bbrowse the (?:web|internet)\b", re.I),
    re.compile(
        r"\b(?:search|look(?:ing)? up|look|find|research|google)\b[^.;!?]{0,60}?"
        r"\b(?:online|on the (?:web|internet)|on google)\b",
        re.I,
    ),
    re.compile(r"\bgoogle (?:it|for|this|that)\b", re.I),
)
PROGRAMS = (
    "npm npx pip pip3 python python3 pytest make docker curl wget bash sh node cargo ls grep du df ps yarn pnpm uv"
)
RUN_COMMAND = (
    re.compile(r"\b(?:run|execute|exec)\s+(?:`[^`]+`|'[^']+'|\"[^\"]+\")", re.I),
    re.compile(r"\b(?:run|execute)\s+(?:the\s+|this\s+|a\s+)?(?:shell\s+|terminal\s+|bash\s+)?command\b", re.I),
    re.compile(rf"\b(?:run|execute)\s+`?(?:{'|'.join(PROGRAMS.split())})\b(?:\s+[\w./:=-]+)?", re.I),
    re.compile(r"\b(?:run|execute)\s+(?:the\s+|this\s+|a\s+)?(?:shell\s+|bash\s+|python\s+)script\b", re.I),
    re.compile(r"\bin (?:the|a) (?:terminal|shell)\b|\bshell command\b|\bon the command line\b", re.I),
)
FORMATS = r"(?:pdf|markdown|md|docx|word(?: document)?|html|plain text|epub|latex)"
CONVERT = re.compile(
    rf"\b(?:convert|turn|transform|export|render|save|print)\b(?:[^.;!?]|\.(?=\S)){{0,60}}?\b(?:to|into|as)\s+"
    rf"(?:an?\s+|a\s+)?{FORMATS}(?![\w.])",
    re.I,
)

REMEMBER = (
    re.compile(r"\bremember (?:that|this|these|my|our|me|the fact)\b|\bmemori[sz]e\b|\bkeep in mind\b", re.I),
    re.compile(r"\bdon'?t forget (?:that|this|my|our)\b", re.I),
    re.compile(
        r"\b(?:store|save|add|put|keep|record|write|commit)\b[^.;!?]{0,60}?\b(?:in|to|into)\s+(?:your |the |my |our )?"
        r"(?:long[- ]term )?(?:memory|memories|knowledge graph|knowledge base)\b",
        re.I,
    ),
)


def _extension(path: str) -> str:
    """The file extension of a path's last part ('' for a directory such as ./frontend)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[1].lower() if "." in name.strip(".") else ""


def _path_kind(text: str, match: re.Match[str]) -> Kind | None:
    """file_write or file_read for one path, from the words of its clause before it (None: no cue)."""
    clause = CLAUSE.split(text[: match.start()])[-1]
    words = re.findall(r"[a-z]+", clause.lower())
    if words and words[-1] in ("to", "into", "as"):
        return "file_write"
    if words and words[-1] == "from":
        return "file_read"
    for word in reversed(words):  # the nearest verb that says which
        if word in WRITE_VERBS:
            return "file_write"
        if word in READ_VERBS:
            return "file_read"
    if words and words[-1] in ("in", "of") and _extension(match.group()):  # a file, not a directory
        return "file_read"
    return None


def implied_utilities(step: str) -> list[tuple[Kind, str]]:
    """The utility kinds `step` implies, each with the words that imply it, in the order they appear in the
    text; at most one entry per kind. [] when the step names no path, URL, web search, command or conversion."""
    found: list[tuple[int, Kind, str]] = []
    urls = list(URL.finditer(step))
    for m in urls if not OTHER_WAY.search(step) else []:
        before = set(re.findall(r"[a-z]+", step[: m.start()].lower())[-4:])
        if not before & SEND_WORDS and _extension(m.group().rstrip(".,;:!?")) not in BINARY:
            found.append((m.start(), "fetch_url", m.group().rstrip(".,;:!?")))
    page = PAGE.search(step)
    if not urls and page and not PAGE_HOSTS.search(step):
        found.append((page.start(), "fetch_url", page.group()))
    without_urls = URL.sub(lambda u: " " * len(u.group()), step)  # a URL's path is not a file path
    for m in PATH.finditer(without_urls):
        kind = _path_kind(without_urls, m)
        if kind is not None and _extension(m.group()) not in BINARY:
            found.append((m.start(), kind, m.group()))
    phrases: tuple[tuple[Kind, tuple[re.Pattern[str], ...]], ...] = (
        ("web_search", WEB_SEARCH),
        ("run_command", RUN_COMMAND),
        ("convert_document", (CONVERT,)),
        ("memory_write", REMEMBER),
    )
    for phrase_kind, patterns in phrases:
        hits = [hit for p in patterns if (hit := p.search(step))]
        if hits:
            first = min(hits, key=lambda h: h.start())
            found.append((first.start(), phrase_kind, first.group().strip()))
    result: list[tuple[Kind, str]] = []
    for _, kind, evidence in sorted(found, key=lambda f: f[0]):
        if kind not in {k for k, _ in result}:
            result.append((kind, evidence))
    return result


@dataclass(frozen=True)
class ImpliedTool:
    """A utility to attach to a step: the tool, its kind and the step's words that imply it."""

    name: str
    kind: Kind
    evidence: str


def _unfit(utility: dict) -> bool:
    """A reader of several files or of media (the paths implied are single text files: BINARY is left out), or a
    tool its spec calls deprecated."""
    words = set(re.findall(r"[a-z]+", split_gateway_name(utility["name"])[1].lower()))
    return bool(words & {"multiple", "media"} or DEPRECATED.search(utility.get("spec") or ""))


def pick_utilities(
    implied: list[tuple[Kind, str]], utilities: list[dict], servers: Collection[str] = ()
) -> list[ImpliedTool]:
    """One utility per implied kind, from `utilities` (rows of cypher/core_utilities: name, kind, catalog,
    score, spec, and optionally `server`, else the server of its name or its catalog): a utility of a server the
    step's own tools come from (`servers`) first, then one that fits (the implied paths are single text files: not a
    reader of several files or of media; not deprecated), then the highest score, then the name. A kind the catalog has
    no utility of is left out: nothing is invented."""

    def rank(u: dict) -> tuple:
        server = u.get("server") or server_of(u["name"], u.get("catalog"))
        return (server not in servers, _unfit(u), -(u.get("score") or 0.0), u["name"])

    picked = []
    for kind, evidence in implied:
        candidates = sorted((u for u in utilities if u["kind"] == kind), key=rank)
        if candidates:
            picked.append(ImpliedTool(candidates[0]["name"], kind, evidence))
    return picked
