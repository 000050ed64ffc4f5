"""Which parameters does the request itself supply? (option: skip_supplied_parameters)

ToolLinkOS's generation rules say a PARAMETER_* dependency is only needed when the user did not
give the value. Offline, typed values are detected with patterns; each detected kind maps to a
regular expression over dependency `parameter_name`s that such a value supplies.
"""
from __future__ import annotations

import re

# kind -> (pattern that finds the value in the query, pattern over parameter names it supplies)
VALUE_KINDS: dict[str, tuple[re.Pattern, str]] = {
    "ip_address": (re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b|\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\b", re.I),
                   r"(?i)(.*_)?ip(_.*)?|.*ip_?address.*"),
    "email": (re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"), r"(?i).*e?-?mail.*"),
    "url": (re.compile(r"\bhttps?://\S+|\bwww\.\S+", re.I), r"(?i).*(url|link|website|domain).*"),
    "date": (re.compile(
        r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|"
        r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?(?:,? \d{4})?\b|"
        r"\b\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", re.I),
        r"(?i)(.*_)?date(_.*)?"),
    "time": (re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?\b|\b\d{1,2}\s*(?:am|pm)\b", re.I),
             r"(?i)(.*_)?time(_.*)?"),
    # A phone number: 8+ digits with separators, not a date (2024-01-01) or a dotted IP/coordinate.
    "phone": (re.compile(r"(?<![\w.])\+?(?!\d{4}-\d{2}-\d{2}\b)\d[\d\s()-]{7,}\d\b"),
              r"(?i).*phone.*|(.*_)?(mobile|cell)_?number(_.*)?"),
    "coordinates": (re.compile(r"-?\d{1,3}\.\d+\s*,\s*-?\d{1,3}\.\d+"),
                    r"(?i).*(latitude|longitude|lat|lon|coordinates|location).*"),
}


def supplied_kinds(query: str) -> list[str]:
    return [kind for kind, (finder, _) in VALUE_KINDS.items() if finder.search(query)]


def supplied_parameter_patterns(query: str) -> list[str]:
    """Regular expressions (Neo4j `=~` syntax) over parameter names the query supplies."""
    return [VALUE_KINDS[k][1] for k in supplied_kinds(query)]
