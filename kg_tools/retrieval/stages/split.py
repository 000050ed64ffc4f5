"""Offline (LLM-less) decomposition of a request into sub-requests. Pure functions, no catalog knowledge.

Rules, in order:
1. Split into sentences (`.`, `!`, `?`, `;` followed by white space) and on explicit sequencers
   (`and then`, `then`, `after that`, `afterwards`, `and also`, `, also`).
2. Split on a bare `and` or a comma only when the words after it start a new action: an imperative verb from
   ACTION_VERBS (`... and reply to ...`) or a request opener (`please`, `can you`, `I want`, `I would
   like`, ...), and both sides keep at least two words. `between Paris and London`, `race and
   ethnicity`, `the UI and UX designs` stay whole.
3. Leading discourse markers (`First,`, `Finally,`, `Additionally,`, `Also`, ...) are removed.
4. A sentence that only describes something mentioned before (it starts with `The`, `This`, `It`,
   `Its`, `They`, ... and makes no request of its own) is appended to the previous sub-request as
   context instead of standing alone (`... from an IoT device. The device ID is 'Q1'`).
5. Courtesy pieces without content (`Thank you`, `Thanks in advance for your help`) are dropped.
6. Nothing is cut: when there are more pieces than `limit`, the two adjacent pieces with the fewest
   words between them are joined until `limit` remain.
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\s*;\s*")
_SEQUENCER = re.compile(r",?\s+(?:and then|then|after that|afterwards|and also)\s+|,\s*also\s+", re.I)
_AND = re.compile(r",?\s+and\s+|,\s+", re.I)
_MARKER = re.compile(
    r"^(?:(?:and then|and also|and|also|then|after that|afterwards|first(?:ly)?|second(?:ly)?|third(?:ly)?|"
    r"next|finally|lastly|last|additionally|furthermore|moreover|besides|in addition|meanwhile|"
    r"subsequently|once (?:that is|this is|it is) done|to begin(?: with)?|to start(?: with)?)\b[,:]?\s*)+",
    re.I,
)

ACTION_VERBS = frozenset(
    """
add analyze analyse assess book calculate cancel check compare compute convert create delete describe
detect download estimate evaluate explain fetch find forecast gather generate get give identify let list
load locate look make monitor obtain open order perform play post predict print provide read recommend
register remove reply report request reserve retrieve review run save schedule search send set share
show start stop submit suggest summarize summarise tell track translate turn update upload validate
verify
archive assign attach ban browse bump clear click close comment commit copy deploy dm draft edit email
file fill fork geocode go install invite kick label mark merge message move navigate pick pull push put
query reason remember rename reopen replace revoke scroll select stage store subscribe switch take tag type unstage visit
write
""".split()
)
_OPENER = re.compile(
    r"^(?:please|kindly|can you|could you|would you|i (?:also )?(?:want|need|would like|'d like)|"
    r"we (?:also )?(?:want|need|would like)|i am (?:also )?(?:looking|interested)|help me)\b",
    re.I,
)
_CONTINUATION = re.compile(r"^(?:the|this|these|that|those|it|its|it's|they|their|he|his|she|her)\b", re.I)
_COURTESY_WORDS = frozenset(
    """
thank thanks you your in advance for the a lot so much very help assistance support kind kindly please
appreciate appreciated it cooperation much regards all that's that is i
""".split()
)
_WORD = re.compile(r"[\w']+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _is_request(text: str) -> bool:
    words = _words(text)
    return bool(words) and (words[0] in ACTION_VERBS or bool(_OPENER.match(text)))


def _split_and(piece: str) -> list[str]:
    parts, joints = _AND.split(piece), _AND.findall(piece)
    out = [parts[0]]
    for part, joint in zip(parts[1:], joints):
        if _is_request(part) and len(_words(out[-1])) >= 2 and len(_words(part)) >= 2:
            out.append(part)
        else:
            out[-1] = f"{out[-1]}{joint}{part}"
    return out


def _is_courtesy(text: str) -> bool:
    return all(w in _COURTESY_WORDS for w in _words(text))


def _join_to_limit(parts: list[str], limit: int) -> list[str]:
    parts = list(parts)
    while len(parts) > max(limit, 1):
        i = min(range(len(parts) - 1), key=lambda j: (len(_words(parts[j])) + len(_words(parts[j + 1])), j))
        parts[i : i + 2] = [f"{parts[i]}; {parts[i + 1]}"]
    return parts


def split_request(text: str, limit: int) -> list[str]:
    """The request's sub-requests (one element when nothing splits); see the module docstring."""
    pieces: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence_pieces: list[str] = []
        for piece in _SEQUENCER.split(sentence):
            piece = _MARKER.sub("", piece.strip(" ,.;:!?")).strip(" ,.;:")
            if piece:
                sentence_pieces.extend(p.strip(" ,.;") for p in _split_and(piece))
        for n, piece in enumerate(sentence_pieces):
            if not piece or _is_courtesy(piece):
                continue
            if n == 0 and pieces and _CONTINUATION.match(piece) and not _is_request(piece):
                pieces[-1] = f"{pieces[-1]}. {piece}"
            else:
                pieces.append(piece)
    return _join_to_limit(pieces, limit)
