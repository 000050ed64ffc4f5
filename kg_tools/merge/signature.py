"""What the offline merger knows about a tool: its name as verb + object, and its parameter signature.

Name: `split_name` words; the first word is the verb when it is a known action verb (synonyms
share a class: get/fetch/retrieve/... -> "get"); the rest is the object, with generic words
(info, details, data ...) dropped, simple plurals singularised and a few synonyms folded (movie ->
film). Parameters align when their JSON types are compatible and their names or descriptions share
a content word (title "The title of the film" ~ film_name "The name of the film": "film").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from kg_tools.retrieval.functions import json_type
from kg_tools.tool_spec import ToolSpec, split_name

VERB_CLASSES: dict[str, str] = {}
for _cls, _words in {
    "get": "get fetch retrieve obtain lookup query read show view display access pull",
    "search": "search find discover browse explore",
    "list": "list enumerate",
    "create": "create add make generate new build register insert",
    "update": "update modify edit change set adjust configure",
    "delete": "delete remove cancel drop erase",
    "calculate": "calculate compute estimate determine measure evaluate calc",
    "analyze": "analyze analyse assess examine inspect review",
    "check": "check verify validate test confirm",
    "send": "send post submit notify email message",
    "book": "book reserve schedule",
    "track": "track monitor",
    "convert": "convert translate transform",
    "predict": "predict forecast",
    "recommend": "recommend suggest",
    "play": "play stream",
}.items():
    for _w in _words.split():
        VERB_CLASSES[_w] = _cls

GENERIC = {
    "info",
    "information",
    "details",
    "detail",
    "data",
    "by",
    "of",
    "for",
    "the",
    "a",
    "an",
    "to",
    "from",
    "and",
    "on",
    "in",
    "with",
    "all",
}
SYNONYMS = {
    "movie": "film",
    "movies": "film",
    "song": "music",
    "track": "music",
    "tv": "television",
    "weather": "weather",
    "temp": "temperature",
    "stats": "statistic",
    "statistics": "statistic",
    "cost": "price",
    "pricing": "price",
    "fee": "price",
    "location": "place",
    "img": "image",
    "picture": "image",
    "photo": "image",
    "doc": "document",
    "num": "number",
    "qty": "quantity",
    "calc": "calculate",
    "ratio": "rate",
}
STOP = GENERIC | {
    "is",
    "be",
    "are",
    "it",
    "this",
    "that",
    "or",
    "as",
    "at",
    "e",
    "g",
    "eg",
    "etc",
    "which",
    "should",
    "will",
    "can",
    "given",
    "specific",
    "type",
    "name",
    "value",
    "id",
    "optional",
    "default",
    "number",
    "specified",
    "provided",
    "want",
    "you",
    "user",
    "used",
    "use",
}
_TOKEN = re.compile(r"[a-z0-9]+")


def singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def norm_word(word: str) -> str:
    word = SYNONYMS.get(word, word)
    return SYNONYMS.get(singular(word), singular(word))


def content_words(text: str) -> set[str]:
    return {norm_word(w) for w in _TOKEN.findall(split_name(text or "")) if w not in STOP and len(w) > 1}


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    required: bool
    words: frozenset[str]  # content words of the name
    desc_words: frozenset[str]


@dataclass
class ToolSignature:
    """A tool as the offline classifier sees it."""

    name: str
    description: str
    spec: dict
    params: list[Param] = field(default_factory=list)

    @classmethod
    def from_spec(cls, spec: dict) -> ToolSignature:
        model = ToolSpec.model_validate(spec)
        params = [
            Param(
                p.name,
                json_type(p.type),
                bool(p.required),
                frozenset(content_words(p.name)),
                frozenset(content_words(p.description)),
            )
            for p in model.parameters
        ]
        return cls(model.name, model.description, spec, params)

    @cached_property
    def words(self) -> list[str]:
        return split_name(self.name).split()

    @cached_property
    def verb(self) -> str | None:
        return VERB_CLASSES.get(self.words[0]) if self.words else None

    @cached_property
    def object(self) -> frozenset[str]:
        rest = self.words[1:] if self.verb else self.words
        return frozenset(norm_word(w) for w in rest if w not in GENERIC)

    @cached_property
    def required(self) -> list[Param]:
        return [p for p in self.params if p.required]


def params_align(a: Param, b: Param) -> bool:
    """Same JSON type and a shared content word in the names, or in name + description."""
    if a.type != b.type and {a.type, b.type} != {"integer", "number"}:
        return False
    if a.name == b.name or a.words & b.words:
        return True
    return bool((a.words | a.desc_words) & (b.words | b.desc_words))


def _matching(needed: list[Param], offered: list[Param]) -> dict[str, str] | None:
    """A one-to-one assignment of every `needed` parameter to an aligned `offered` one (None if impossible)."""
    assignment: dict[str, str] = {}
    used: set[str] = set()

    def place(i: int) -> bool:
        if i == len(needed):
            return True
        p = needed[i]
        # exact names first, then the others in listing order
        for q in sorted(offered, key=lambda q: q.name != p.name):
            if q.name not in used and params_align(p, q):
                used.add(q.name)
                assignment[p.name] = q.name
                if place(i + 1):
                    return True
                used.discard(q.name)
                del assignment[p.name]
        return False

    return assignment if place(0) else None


def signatures_align(a: ToolSignature, b: ToolSignature) -> bool:
    """Each tool's required parameters can be matched one-to-one to aligned parameters of the other."""
    return _matching(a.required, b.params) is not None and _matching(b.required, a.params) is not None
