"""Tools a description names, and what the sentence says about them (docs/dependencies.md, "workflow edges named in
descriptions").

A description that names another tool of its catalog says one of three things about it:
- it runs **before** the described tool: "call download_paper first", "After completing data model design with
  dynamodb_data_modeling tool", "Use watch_topic to register topics before calling this", "the branch created by
  the prepare_database_migration tool", "feedback on a previous `firecrawl_search` result"; and in any description,
  two tools named as consecutive steps: "Workflow: search_papers -> download_paper -> read_paper";
- it is **another way** to do something, not a step: "use read_text_file instead", "Similar to force_terminate",
  "prefer `firecrawl_search_feedback`", "Unlike list endpoints", "DEPRECATED";
- it runs **after**: "then post a note with jira_add_comment", "If you later need other fields, fetch them with
  jira_get_issue", "After confirming health, use airbyte_list_workspaces" (named in the main clause, past the
  after-clause's comma), "Call before using manage_agent_triggers", or it takes the value as input too ("must match
  the topic used in watch_topic").

Pure text: the names are matched exactly, as whole names (`jira_search` is not inside `jira_search_fields`, `aggregate`
not inside `db.aggregate---stages`, `listGroups` not inside `.../operation/listGroups!c=200`, but a link to the tool's
own page counts: `[genre seeds](/reference/get-recommendation-genres)`); a name that is one plain word (`connect`, `find`) only when the text marks it
as a tool (backticks, "the connect tool", `connect()`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

# A sentence or a list item: what one statement about another tool spans (an example goes on: "e.g. `create_item`").
_CLAUSE_END = re.compile(
    r"(?<=[.!?])(?<![eE]\.g\.)(?<![iI]\.e\.)\s+(?=[A-Z`*\"'(\[])|\n\s*\n|\n\s*(?=[-*•#]|\d+[.)]\s)|;\s+|\n(?=[A-Z])"
)
# "the connect tool", "`connect`", "connect()": a one-word name marked as a tool.
_MARKED_AFTER = re.compile(r"`|\(|\s+(?:tool|tools|endpoint|operation|command|function)\b", re.I)

# Cues that the named tool runs before the described one.
_FIRST_AFTER = re.compile(  # "call X first", "use X tool first to ..." ("first" as an adverb, not "the first page")
    r"^[^.]{0,70}?\bfirst\b(?=\s*(?:$|[.,;:!)\-—–(]|to\b|and\b|then\b|if\b|before\b|so\b|when\b|in\s+order\b))",
    re.I,
)
_FIRST_BEFORE = re.compile(r"\bfirst\s+(?:call|use|run|invoke|execute)\s+(?:the\s+)?`?$", re.I)
_AFTER = re.compile(r"\bafter\b(?!\s+(?:this|that|which|it|each|every)\b)[^.]{0,90}$", re.I)
# "After confirming health, use X": the after-clause closed by a comma, X named in the main clause (a later step).
_AFTER_CLOSED = re.compile(r",\s+(?!(?:or|and)\b)[a-z]+\s[^,]*$", re.I)
_BEFORE_THIS = re.compile(r"^[^.]{0,100}?\bbefore\s+(?:calling|using|running|invoking|executing)\s+(?:this|it)\b", re.I)
_MADE_BY = re.compile(
    r"\b(?:returned|created|generated|produced|started|launched|obtained|downloaded|printed|written|saved|prepared)"
    r"\s+(?:by|with|via|from|using)\s+(?:the\s+|a\s+|an\s+)?`?$",
    re.I,
)
# "the number from browser_network_requests", "a `scrapeId` from a previous firecrawl_scrape", "feedback on a previous
# `firecrawl_search` result", "the output of X" (not "the same XML you see from read_file").
_FROM_PREVIOUS = re.compile(
    r"(?:\b(?:id|ids|key|keys|number|name|token|handle|reference|ref|uri|url|path|value|`\w+`)\s+from\s+(?:the\s+)?"
    r"|\bfrom\s+(?:the\s+|a\s+|an\s+)?(?:previous|prior|earlier)\s+(?:call\s+to\s+|run\s+of\s+)?"
    r"|\b(?:output|result|results|response)\s+(?:of|from)\s+(?:the\s+|a\s+|an\s+)?(?:previous\s+|prior\s+)?"
    r"|\bprevious(?:ly)?\b[^.]{0,40}?(?:\bwith\s+|\bvia\s+|\bby\s+|\s))`?$",
    re.I,
)

# Cues that it is no step before the described tool: an alternative or an example ("same syntax as X") ...
_OTHER_WAY_BEFORE = re.compile(
    r"(?:\b(?:instead\s+of|rather\s+than|unlike|similar\s+to|like|prefer|preferring|deprecated|alternatively|"
    r"alternative\s+to|see\s+also|same\s+(?:\w+\s+)?as|identical\s+to|counterpart|directs?\s+\w+\s+to)\b|\(\s*(?:use|try|see|call)\b)"
    r"[^.]{0,40}$|\bnot\b[^.]{0,20}$|(?:\be\.g\.|\bi\.e\.|\bfor\s+example\b|\bsuch\s+as\b)[^.]{0,25}$",
    re.I,
)
# ... a later step ("Call before using manage_agent_triggers"), or a tool that takes the value as input too ("the
# topic used in watch_topic")
_LATER_BEFORE = re.compile(
    r"\b(?:then|later|afterwards|next|(?:used|passed|given|sent|supplied|specified)\s+(?:in|to))\b[^.]{0,60}$"
    r"|\bbefore\s+(?:using|calling|running|invoking|executing)\s+(?:the\s+)?[`'\"]?$",
    re.I,
)
_OTHER_WAY_AFTER = re.compile(r"^[`'\"]?(?:\s+tool)?[^.]{0,25}?\b(?:instead|rather)\b", re.I)


@dataclass(frozen=True)
class Mention:
    """A tool named in a text: its full name, where, and the clause around it."""

    name: str
    clause: str
    start: int  # in the clause
    end: int


def _plain(short: str) -> bool:
    return re.fullmatch(r"[a-z]+", short) is not None


class ToolNames(dict[str, str]):
    """Short name -> full name of one server's tools, with the pattern that finds them in a text, compiled once.
    Built whole before the pattern is read."""

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(r"(?<![\w.\-])(" + name_trie(self) + r")(?![\w\-])")


def name_trie(names: Iterable[str]) -> str:
    """A pattern matching the longest of `names` the text allows first, as their alternation longest first does, but
    as a tree of their characters: one alternative per next character, so a position reads one path, not every name
    (thousands of them in a large catalog: the alternation took most of 10 s on 2,400 tools in one part). An empty
    name (`github__`'s tool part) names nothing: it would match between any two characters; without names, nothing matches."""
    root: dict = {}
    for name in filter(None, names):
        node = root
        for ch in name:
            node = node.setdefault(ch, {})
        node[None] = {}  # a name ends here
    return _branches(root) if root else "(?!)"


def _branches(node: dict) -> str:
    """The pattern of one node: its longer continuations first, then its end (the shorter name)."""
    out = ""
    while len(node) == 1 and None not in node:  # a chain of single characters
        ch, node = next(iter(node.items()))
        out += re.escape(ch)
    if list(node) == [None]:  # a leaf: the name ends here
        return out
    longer = [re.escape(ch) + _branches(child) for ch, child in node.items() if ch is not None]
    return out + "(?:" + "|".join(longer) + ("|" if None in node else "") + ")"


def mentions(text: str, names: dict[str, str]) -> list[Mention]:
    """The tools of `names` (short name -> full name) that `text` names, each with its clause, in text order."""
    if not text or not names:
        return []
    pattern = (names if isinstance(names, ToolNames) else ToolNames(names)).pattern
    out = []
    for clause in _CLAUSE_END.split(text):
        for m in pattern.finditer(clause):
            short = m.group(1)
            if clause[m.start() - 1 : m.start()] == "/" and clause[m.end() : m.end() + 1] != ")":
                continue  # inside a URL, unless the link's target is the tool's page: "[genres](/reference/get-genres)"
            if _plain(short) and not (clause[m.start() - 1 : m.start()] == "`" or _MARKED_AFTER.match(clause, m.end())):
                continue
            out.append(Mention(names[short], clause, m.start(), m.end()))
    return out


def another_way(m: Mention) -> bool:
    """The clause names the tool as an alternative, a later step, or a tool that takes the value too."""
    before = m.clause[max(0, m.start - 80) : m.start]
    return bool(
        _OTHER_WAY_BEFORE.search(before) or _LATER_BEFORE.search(before) or _OTHER_WAY_AFTER.match(m.clause[m.end :])
    )


def runs_before(m: Mention, others: Sequence[Mention] = ()) -> str | None:
    """The cue saying the named tool runs before the described one, else None. `others`: the
    mentions of the same clause ("Use search_papers to find papers, then download_paper ... before searching": only
    the last one before "before" runs before)."""
    if another_way(m):
        return None
    before, after = m.clause[max(0, m.start - 120) : m.start], m.clause[m.end :]
    if _FIRST_AFTER.match(after) or _FIRST_BEFORE.search(before):
        return "first"
    after_clause = _AFTER.search(before)
    if after_clause and not _AFTER_CLOSED.search(after_clause.group()):
        return "after"
    if _BEFORE_THIS.match(after) and not any(o.start > m.start for o in others):
        return "before this"
    if _MADE_BY.search(before) or _FROM_PREVIOUS.search(before):
        return "made by"
    return None


# "search_papers -> download_paper", "call `schema_converter` then `generate_data_access_layer`"
_STEP = re.compile(r"[`'\"\s)]*(?:->|→|=>|,?\s*(?:and\s+)?then(?:\s+(?:call|use|run))?)\s*[`'\"(]*(?:the\s+)?", re.I)


def steps(found: Sequence[Mention]) -> list[tuple[Mention, Mention]]:
    """(earlier, later) for two tools a workflow names one right after the other ("Workflow: search_papers ->
    download_paper -> read_paper", "call A then B"), in any tool's description."""
    return [
        (a, b) for a, b in zip(found, found[1:]) if a.clause is b.clause and _STEP.fullmatch(a.clause[a.end : b.start])
    ]


# A staging area (docs/dependencies.md, eighth session): a tool that puts changes into it ("Adds file contents to the
# staging area", "Stage files for the next commit") runs before the tool that records what is staged, named after
# the action the staging is for (`commit`, and what any description says changes are "staged for").
_STAGES = re.compile(r"\b(?:to|into|in)\s+the\s+staging\s+area\b|^\W*stages?\b", re.I)
_STAGED_FOR = re.compile(r"\bstaged\s+for\s+(?:the\s+)?(?:next\s+)?([a-z]+)", re.I)
STAGED_FOR = {"commit"}


def stages(description: str) -> bool:
    """The description says the tool puts things into a staging area."""
    return bool(_STAGES.search(description or ""))


def staged_for(descriptions: Sequence[str]) -> set[str]:
    """The actions that take what is staged: `commit`, and the word after "staged for" in any description."""
    return STAGED_FOR | {m.lower() for d in descriptions for m in _STAGED_FOR.findall(d or "")}
