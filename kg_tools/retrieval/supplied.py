"""Which parameters does the request itself supply a value for?

ToolLinkOS's generation rule says a PARAMETER_* dependency is only needed when the user did not
give the value ("email my location to ann@example.com" needs no tool to find the address). Values
are found offline by kind -- e-mail, phone, URL, IP address, coordinates, dates, years, times,
amounts of money, measures with a unit, quoted strings, place names, explicit ids -- and each kind
is tied to the parameters it can fill by the parameter's name and description. Relative dates and
times ("tomorrow", "last year") are not values: they need the current date or time.

Used by the default ordering (kg_tools/retrieval/ordering.py: a seed's dependencies through a
supplied parameter go after its other dependencies), by `skip_supplied_parameters` (Cypher:
`supplied_parameter_patterns`, parameter names only) and by the seed rescoring (a tool that takes
the values the query gives). The word lists were written from our dev sets and the ToolLinkOS dev
half (benchmarks/data/), never from the test half.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from kg_tools.retrieval import places

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_NUMBER = r"\d[\d,]*(?:\.\d+)?"


@dataclass(frozen=True)
class ValueKind:
    name: str
    value: re.Pattern  # finds a value of this kind in the query
    parameter: str  # regular expression over parameter names it fills (also Neo4j `=~` syntax)
    describes: re.Pattern | None = None  # words in a parameter's description that tie it to this kind
    # `parameter` compiled once: re.fullmatch(str) relies on `re`'s cache of 512, which other patterns cycle
    parameter_rx: re.Pattern = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameter_rx", re.compile(self.parameter))

    def fills(self, name: str, description: str = "") -> bool:
        if self.parameter_rx.fullmatch(name):
            return True
        return bool(self.describes and description and self.describes.search(description))


def _kind(name: str, value: str, parameter: str, describes: str | None = None, flags=re.I) -> ValueKind:
    return ValueKind(name, re.compile(value, flags), parameter, re.compile(describes, re.I) if describes else None)


UNITS = {  # unit words after a number -> parameter-name words the measure fills
    r"km|kilomet(?:er|re)s?|miles?|mi": r"km|kilomet|mile|distance",
    r"m2|m²|sq\.? ?m|square met(?:er|re)s?": r"m2|area|size",
    r"sq\.? ?ft|square f(?:ee|oo)t": r"sqft|sq_ft|area|size",
    r"kg|kilos?|kilograms?|lbs?|pounds": r"kg|lb|weight",
    r"l|liters?|litres?|gallons?": r"liter|litre|gallon|volume",
    r"db|decibels?": r"db|decibel|noise",
    r"bpm|beats per minute": r"bpm|heart",
    r"steps": r"steps",
    r"hours?|hrs?": r"hours|duration|uptime",
    r"days?": r"days|interval|duration|uptime",
    r"minutes?|mins?": r"minutes|duration",
    r"°\s?[cf]|degrees?(?: celsius| fahrenheit)?": r"temperature|temp",
    r"calories|kcal": r"calories|kcal",
}

KINDS: tuple[ValueKind, ...] = (
    _kind("email", r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b", r"(?i).*e-?mail.*"),
    _kind(
        "url",
        r"\bhttps?://\S+|\bwww\.\S+|\b[\w-]+\.(?:com|org|net|io|dev)(?:/\S*)?\b",
        r"(?i).*(url|link|website|domain|page).*",
    ),
    _kind(
        "ip_address",
        r"\b(?:\d{1,3}\.){3}\d{1,3}\b|\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\b",
        r"(?i)(.*_)?ip(_.*)?|.*ip_?address.*",
    ),
    _kind(
        "coordinates",
        r"-?\d{1,3}\.\d+\s*,\s*-?\d{1,3}\.\d+",
        r"(?i).*(latitude|longitude|lat|lon|coordinates|location).*",
    ),
    _kind(
        "phone",
        r"(?<![\w.])\+?(?!\d{4}-\d{2}-\d{2}\b)\d[\d\s()-]{7,}\d\b",
        r"(?i).*phone.*|(.*_)?(mobile|cell)_?number(_.*)?",
    ),
    _kind(
        "date",
        rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b|\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?\b|"
        rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH}",
        r"(?i)(.*_)?(date|day|deadline)(_.*)?",
    ),
    _kind("year", r"\b(?:19|20)\d{2}\b", r"(?i)(.*_)?year(_.*)?"),
    _kind(
        "time",
        r"\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?\b|\b\d{1,2}\s*(?:am|pm)\b",
        r"(?i)(.*_)?(time|showtime|hour)(_.*)?",
    ),
    _kind(
        "money",
        rf"[$€£¥]\s?{_NUMBER}|\b{_NUMBER}\s?(?:dollars|euros?|pounds|usd|eur|gbp|yen|bucks)\b",
        r"(?i).*(amount|price|cost|value|rent|income|salary|budget|fee|payment).*",
    ),
    _kind(
        "quoted",
        r"(?<!\w)\"[^\"]{2,}\"|(?<!\w)'[^']{2,}'(?!\w)|“[^”]{2,}”",
        r"(?i).*(name|title|query|content|message|text|notes?|subject|term)s?",
    ),
    _kind(
        "id",
        r"#\s?\w*\d\w*|\b(?=[A-Z-]*\d)(?=\w*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)+\b|\b[A-Z]{1,3}\s?\d{2,6}\b|"
        r"\b(?i:order|case|id|tag|pin|number|no\.?|site|device|camera)\s*#?:?\s*[\w-]*\d[\w-]*",
        r"(?i).*(_id|^id|number|tag|code|pin)$",
        flags=0,
    ),
    _kind("ticker", r"\b[A-Z]{2,5}\b", r"(?i).*(ticker|symbol).*", flags=0),
)
_MEASURES = [
    (re.compile(rf"\b{_NUMBER}\s?(?:{unit})(?![\w])", re.I), re.compile(rf"(?i)({words})"))
    for unit, words in UNITS.items()
]
# Values a user never types: they come from another tool (a login's session, a hash).
_PRODUCED_BY_TOOLS = re.compile(r"(?i)session|token|hash")
_NUMBER_WORDS = r"one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a dozen"
_GENERIC_NAME_WORDS = {
    "id",
    "number",
    "of",
    "the",
    "a",
    "current",
    "new",
    "total",
    "num",
    "value",
    "type",
    "name",
    "data",
    "level",
    "is",
    "to",
    "by",
    "for",
    "in",
}
# A landmark or area named after a locative word: "near Fenway Park", "in the Pacific Northwest".
_NAMED_PLACE = re.compile(r"\b(?:near|around|close to|next to|by|in the|at the)\s+(?:[A-Z][\w'-]+\s?){1,4}")
_LANGUAGE_PARAMETER = re.compile(r"(?i)language")
_PLACE_PARAMETER = re.compile(
    r"(?i)^(?!.*(_code|_id)$)(?!.*(mail|ip_)).*(location|address|region|city|place|destination|origin|area|country)"
)


def supplied_parameter_patterns(query: str) -> list[str]:
    """Regular expressions (Neo4j `=~` syntax) over parameter names the query supplies (name only)."""
    return [k.parameter for k in KINDS if k.value.search(query)]


def supplied_parameters(query: str, parameters: Iterable[tuple[str, str]]) -> set[str]:
    """Names of the given (name, description) parameters whose value the query states."""
    parameters = list(parameters)
    if not parameters:
        return set()
    found, measures, numbered = query_values(query)
    place = None
    out = set()
    for name, description in parameters:
        if _PRODUCED_BY_TOOLS.search(name):
            continue
        if (
            any(k.fills(name, description) for k in found)
            or any(w.search(name) for w in measures)
            or (numbered and _named_number(query, name))
        ):
            out.add(name)
        elif _PLACE_PARAMETER.search(name):
            if place is None:
                place = places.mentions_place(query) or bool(_NAMED_PLACE.search(query))
            if place:
                out.add(name)
        elif _LANGUAGE_PARAMETER.search(name) and places.mentions_language(query):
            out.add(name)
    return out


@lru_cache(maxsize=64)
def query_values(query: str) -> tuple[tuple[ValueKind, ...], tuple[re.Pattern, ...], bool]:
    """What supplied_parameters looks for in the query, searched once per query (the ordering asks
    for each seed's parameters, the rescoring for the kinds): the kinds of values it states, the
    parameter-name words of the measures it states, whether it holds a number."""
    return (
        tuple(k for k in KINDS if k.value.search(query)),
        tuple(words for unit, words in _MEASURES if unit.search(query)),
        bool(_ANY_NUMBER.search(query)),
    )


# What every pattern of _named_number needs in the query: a digit, or a number word and a space. A query
# without one (most) compiles and runs none of them.
_ANY_NUMBER = re.compile(rf"(?i)\d|\b(?:{_NUMBER_WORDS})\s")


def _named_number(query: str, parameter: str) -> bool:
    """A number next to a word of the parameter's name: "EPS is 6.13", "recipe 248817", "3 tickets"."""
    lowered = query.lower() if query.isascii() else None
    for word in _name_words(parameter):
        # both patterns need the word, case-insensitively: in ASCII, a substring of the lower-case query
        if lowered is not None and word.isascii() and word not in lowered:
            continue
        if any(pattern.search(query) for pattern in _named_number_patterns(word)):
            return True
    return False


@lru_cache(maxsize=8192)
def _name_words(parameter: str) -> tuple[str, ...]:
    """The words of a parameter name that _named_number looks for."""
    return tuple(w for w in re.split(r"[_\W]+", parameter.lower()) if w and w not in _GENERIC_NAME_WORDS and len(w) > 1)


@lru_cache(maxsize=8192)
def _named_number_patterns(word: str) -> tuple[re.Pattern, ...]:
    """The patterns of _named_number for one word, compiled once (per request they would overflow
    `re`'s own cache of 512 and be compiled again)."""
    w = re.escape(word) + r"s?"
    return (
        re.compile(rf"(?i)\b{w}\b(?:\s+(?:is|was|of|=|:|at|#))?\s*#?\d"),
        re.compile(rf"(?i)(?:\b\d[\d,.]*|\b(?:{_NUMBER_WORDS}))\s+(?:\w+\s+)?{w}\b"),
    )
