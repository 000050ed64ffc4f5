"""Long requests (issue 19 item 6): agents pass whole user messages, some with pasted data. What is
searched (embedded, and sent to the fulltext index) is a cleaned, bounded text: data URIs, base64
and hex blobs and long code/data blocks are cut out, and the rest is bounded to MAX_WORDS words (the
embedder truncates at a few hundred tokens anyway, so the head of a long message is what it sees;
we choose the head and the tail, where tasks state what they want). Short plain requests pass
unchanged at the cost of one length check."""

from __future__ import annotations

import re
from dataclasses import dataclass

CLEAN_ABOVE = 600  # characters: shorter requests are searched as they are (unless they carry a data URI)
MAX_WORDS = 160  # words kept: the first HEAD_WORDS and the last MAX_WORDS - HEAD_WORDS
HEAD_WORDS = 120
LONG_BLOCK = 400  # characters: a fenced code block or a data-like line longer than this is cut out

_DATA_URI = re.compile(r"data:[\w.+-]+/[\w.+-]+(?:;[\w=.+-]+)*,[A-Za-z0-9+/=%_-]*", re.I)
_BLOB = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/_-]{120,}={0,2}")  # base64 / hex / keys with no spaces
_FENCE = re.compile(r"```[^\n]*\n.*?(?:```|\Z)", re.S)
_LETTERS = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class CleanedQuery:
    text: str
    detail: str  # what was done, for `stages` ("" when the request passed unchanged)


def _data_like(line: str) -> bool:
    """Mostly not words: CSV rows, JSON, numbers, minified code."""
    stripped = line.strip()
    return bool(stripped) and len(_LETTERS.findall(stripped)) < 0.5 * len(stripped)


def _drop_data_blocks(text: str) -> tuple[str, int]:
    """Runs of consecutive data-like lines longer than LONG_BLOCK characters in all are cut out."""
    lines, dropped = text.splitlines(), 0
    out: list[str] = []
    run: list[str] = []

    def flush():
        nonlocal dropped
        if sum(len(x) for x in run) > LONG_BLOCK:
            dropped += len(run)
        else:
            out.extend(run)
        run.clear()

    for line in lines:
        if _data_like(line):
            run.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out), dropped


def clean_query(text: str) -> CleanedQuery:
    if len(text) <= CLEAN_ABOVE and "data:" not in text:
        return CleanedQuery(text, "")
    removed: list[str] = []

    def cut(pattern, label, s, keep=lambda m: False):
        n = 0

        def sub(m):
            nonlocal n
            if keep(m):
                return m.group(0)
            n += 1
            return " "

        out = pattern.sub(sub, s)
        if n:
            removed.append(f"{n} {label}")
        return out

    out = cut(_DATA_URI, "data URI(s)", text)
    out = cut(_FENCE, "long code block(s)", out, keep=lambda m: len(m.group(0)) <= LONG_BLOCK)
    out = cut(_BLOB, "base64/hex blob(s)", out)
    out, dropped = _drop_data_blocks(out)
    if dropped:
        removed.append(f"{dropped} data line(s)")
    words = out.split()
    bounded = len(words) > MAX_WORDS
    if bounded:
        words = words[:HEAD_WORDS] + words[len(words) - (MAX_WORDS - HEAD_WORDS) :]
    cleaned = " ".join(words) or text[:CLEAN_ABOVE].strip()
    if cleaned == " ".join(text.split()):
        return CleanedQuery(text, "")
    parts = [f"request of {len(text):,} characters"]
    if removed:
        parts.append("removed " + ", ".join(removed))
    if bounded:
        parts.append(f"bounded to {MAX_WORDS} words (first {HEAD_WORDS}, last {MAX_WORDS - HEAD_WORDS})")
    return CleanedQuery(cleaned, "; ".join(parts) + f": {len(cleaned):,} characters searched")
