"""Which source (one MCP server, one API) each tool of a catalog comes from: a value flows between tools of one
source, so in a catalog that gathers many servers another server's reader is no provider.

A tool's source is, in this order: the `<server>__` of a gateway name (`github__get_issue`); a field of its record
that names it (`mcp_server`, `server`, `server_name`, `namespace`), servers of one product one source
(product_families: `aws_ecs`, `aws_eks`); else, only in a catalog too large to be one
server (MANY_TOOLS tools without either, and not HTTP operations), its name family: the catalog's tools in
listing order (as loaded: a stored catalog keeps each tool's place), cut where a run of FAMILY_RUN tools in a row
shares a name shape the tools before did not have (`linear_getProjects` … then `list_dashboards` …,
`atlas-list-projects` …). A name's shape is its source prefix (a first word that is no verb, followed by a verb:
`linear_get…`, `wp_list…`, `atlas-list…`) and its spelling (kebab-case, snake_case, camelCase, PascalCase; a
one-word name has none and cuts nothing). Tools gathered server by server keep their order; a catalog listed in
name order, or shuffled (in_server_order), has no order to read, and its families are its shapes (coarser: servers
of one spelling stay one).

Neighbouring servers of one shape share a family; in a listing in server order what a server writes the same way in
its own tools tells them apart (catalog_groups): the words its descriptions capitalise (its product's name) and its
parameters' names. A run of such a mark makes a group, and no value flows between two groups of one family; a
product's name that runs across two families joins them (one server whose names change shape), a parameter name
that runs across two products' spans does not join them (`@project` of two servers). A tool outside
every group takes no value across a product group (one holding a run of a capitalised word) that lies wholly between
it and the other tool: the listing keeps a server's tools together, so that group is a third server's (zoned)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

from kg_tools.deps.resources import ALL_VERBS
from kg_tools.gateway.names import operation_id, split_gateway_name
from kg_tools.tool_spec import split_name

SOURCE_FIELDS = ("mcp_server", "server", "server_name", "namespace")
MANY_TOOLS = 400  # tools without a named source: more than one MCP server exposes (the corpus's largest: 198)
FAMILY_RUN = 6  # tools in a row that start a new name family: a server's few odd names do not
LEAD_VERBS = ALL_VERBS | {"post", "put", "patch", "set", "run", "execute", "send", "manage", "check", "generate"}


def declared_source(name: str, record: object) -> str:
    """The server a gateway name or the tool's record names; '' when neither does."""
    if server := gateway_server(name, record):
        return server
    extra = getattr(record, "model_extra", None) or {}
    for key in SOURCE_FIELDS:
        value = extra.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


PROTOCOL_WORDS = frozenset({"mcp", "server", "servers"})  # a server key's first word that names no product
# a key of words joined by `_` or `-` (`aws_ecs`, `oci-identity`, `ñandú_x`); a scoped package or registry name
# (`@modelcontextprotocol/server-github`, `io.github.owner/server`) begins with its publisher or registry, no product
_PLAIN_KEY = re.compile(r"[^\W_]+(?:[-_]+[^\W_]+)*")


def product_families(servers: Iterable[str]) -> dict[str, str]:
    """declared source (one a tool) -> its product family: the first word of its key (`aws` of `aws_ecs`, `oci` of
    `oci-identity`) when two or more of the catalog's sources of two or more tools begin with it and it is no
    protocol word nor a verb, else the source itself (always for a key not of words joined by `_` or `-`: a scoped
    package's or a registry's name). A FastAPI operationId read as a gateway name (`read_flow__flows`,
    `export_recording__export`) begins with its verb and is one tool's. Servers of one product pass ids between them
    (OCI's compartments scope every other OCI server's lists), so a value flows inside a family as inside one
    server."""
    tools = Counter(s for s in servers if s)
    first = {s: re.split(r"[-_]", s)[0].lower() for s, n in tools.items() if n > 1 and _PLAIN_KEY.fullmatch(s)}
    shared = Counter(first.values())
    return {s: f"{w}*" if shared[w] > 1 and w not in PROTOCOL_WORDS | LEAD_VERBS else s for s, w in first.items()}


def gateway_server(name: str, record: object = None) -> str:
    """The `<server>` of a gateway name (`github__get_issue`); '' for another name and for an HTTP operation named by
    its own operationId (gateway.names.split_gateway_name)."""
    return split_gateway_name(name, operation_id(record))[0]


def short_name(name: str, record: object = None) -> str:
    """A gateway name's tool part (`get_issue` of `github__get_issue`); an operationId as it is."""
    return split_gateway_name(name, operation_id(record))[1]


def name_shape(name: str) -> tuple[str, str]:
    """(source prefix or '', spelling): `linear_getProjects` -> ('linear', 'snake'); `list-boards` -> ('', 'kebab');
    `projects` -> ('', '')."""
    ws = split_name(name).split()
    prefix = ws[0] if len(ws) > 2 and ws[0] not in LEAD_VERBS and ws[1] in LEAD_VERBS else ""
    if "-" in name:
        spelling = "kebab"
    elif "_" in name.strip("_"):
        spelling = "snake"
    elif re.search(r"[a-z0-9][A-Z]", name):
        spelling = "camel" if name[:1].islower() else "pascal"
    else:
        spelling = ""
    return prefix, spelling


def name_families(names: Sequence[str]) -> dict[str, str]:
    """name -> its family (`#0`, `#1` …) in listing order; a family starts where FAMILY_RUN shaped names in a row
    (one-word names skipped) share a shape other than the current family's. Names sorted alphabetically or shuffled
    say nothing by their order (one server's `get_…` and `list_…` far apart): then see shape_families."""
    if not keeps_server_order(names):
        return shape_families(names)
    shapes = [name_shape(n) for n in names]
    shaped = [i for i, s in enumerate(shapes) if s != ("", "")]
    out: dict[str, str] = {}
    family, current, k = 0, None, 0  # k: place of the next shaped name in `shaped`
    for i, name in enumerate(names):
        s = shapes[i]
        if s != ("", ""):
            run = [shapes[j] for j in shaped[k : k + FAMILY_RUN]]
            if current is None:
                current = s
            elif s != current and len(run) == FAMILY_RUN and all(r == s for r in run):
                family, current = family + 1, s
            k += 1
        out[name] = f"#{family}"
    return out


def keeps_server_order(names: Sequence[str]) -> bool:
    """Whether a listing's order says which tools are one server's: not sorted by name, and in_server_order."""
    return list(names) != sorted(names) and in_server_order([name_shape(n) for n in names])


def in_server_order(shapes: Sequence[tuple[str, str]]) -> bool:
    """Whether a listing keeps each server's tools together: neighbouring shaped names share their shape at least
    halfway from what a random order gives (the sum of the shapes' squared shares) to always. A catalog shuffled
    before it was loaded has no order to read; one where a shape holds most names (chance above one half) is read in
    order, as its runs of another shape are few."""
    shaped = [s for s in shapes if s != ("", "")]
    if len(shaped) < 2:
        return True
    same = sum(a == b for a, b in zip(shaped, shaped[1:])) / (len(shaped) - 1)
    chance = sum((n / len(shaped)) ** 2 for n in Counter(shaped).values())
    return chance > 0.5 or same - chance >= (1 - chance) / 2


def shape_families(names: Sequence[str]) -> dict[str, str]:
    """name -> its family wherever it is listed: its source prefix when FAMILY_RUN names share it, else its
    spelling; a name without either joins the commonest family."""
    shapes = {n: name_shape(n) for n in names}
    prefixes = Counter(prefix for prefix, _ in shapes.values() if prefix)
    out = {
        n: f"#{prefix}" if prefixes[prefix] >= FAMILY_RUN else f"#{spelling}"
        for n, (prefix, spelling) in shapes.items()
    }
    common = Counter(f for f in out.values() if f != "#").most_common(1)
    return {n: common[0][0] if f == "#" and common else f for n, f in out.items()}


def catalog_sources(
    names: Sequence[str], declared: dict[str, str], operations: set[str], several: bool = False
) -> dict[str, str]:
    """name -> source for a catalog's names in listing order (as loaded): the declared source, else the name family
    when MANY_TOOLS tools (not HTTP `operations`, whose specs are not cut) have none, or fewer that are `several`
    products' (several_products), else ''."""
    unnamed = [n for n in names if not declared.get(n) and n not in operations]
    families = name_families(unnamed) if several or len(unnamed) >= MANY_TOOLS else {}
    return {n: declared.get(n) or families.get(n, "") for n in names}


MARK_GAP = 40  # a mark's tools further apart than this are two runs (dev union: 6 / 25 / 40 / 60 tried)
JOIN = 3  # tools of one product's run in each of two name families: one server (dev union: 3 / 5 / 8 tried)
PRODUCT_SPANS = 3  # product names' runs apart: several products (a server's own name and one section's word are 2)
MARK_SHARE = 0.8  # of a mark's tools in its longest run: a server's own word, not one every server writes
_SENTENCE = re.compile(r"(?<=[.!?:;\n])\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def capitalised_words(text: str) -> set[str]:
    """The words a description capitalises inside a sentence (`Freshdesk`, `GitLab`), lowercased; not a sentence's
    first word, nor one all in capitals (`JSON`, `ID`) or a plural of one (`IDs`, `URLs`: every server writes it)."""
    out = set()
    for sentence in _SENTENCE.split(text or ""):
        for w in _WORD.findall(sentence)[1:]:
            if w[0].isupper() and not w.isupper() and not (w.endswith("s") and w[:-1].isupper()):
                out.add(w.lower())
    return out


def mark_runs(names: Sequence[str], marks: dict[str, set[str]]) -> list[list[int]]:
    """The places of each mark's run in a listing in server order (a mark: what a server writes the same way in its
    own tools, capitalised_words and parameter_marks): at least three tools, each at most MARK_GAP places after the
    one before, that hold MARK_SHARE of the mark's tools (a server names its product in its own tools; `Example`,
    `limit` are written everywhere) and span fewer than MANY_TOOLS places, more than one server exposes (a word or
    parameter every server of a long stretch writes is boilerplate, no server's)."""
    where: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        for w in marks.get(n, ()):
            where.setdefault(w, []).append(i)
    out = []
    for places in where.values():
        runs, start = [], 0
        for k in range(1, len(places) + 1):
            if k == len(places) or places[k] - places[k - 1] > MARK_GAP:
                runs.append(places[start:k])
                start = k
        best = max(runs, key=len)
        if len(best) >= 3 and len(best) >= MARK_SHARE * len(places) and best[-1] - best[0] < MANY_TOOLS:
            out.append(best)
    return out


def mark_groups(names: Sequence[str], marks: dict[str, set[str]]) -> dict[str, str]:
    """name -> its group, for the tools that lie within a mark's run (mark_runs); runs that overlap are one group,
    with every tool between their ends; other tools have none. A run of a parameter name (`@project`) that overlaps
    two products' spans (overlapping runs of capitalised words, one of FAMILY_RUN tools at least) is a name two
    servers write: it joins nothing."""
    words = mark_runs(names, {n: {m for m in ms if not m.startswith("@")} for n, ms in marks.items()})
    spans = _spans([r for r in words if len(r) >= FAMILY_RUN])
    params = mark_runs(names, {n: {m for m in ms if m.startswith("@")} for n, ms in marks.items()})
    runs = words + [r for r in params if sum(r[0] <= e and s <= r[-1] for s, e in spans) < 2]
    group: dict[int, int] = {}  # place -> group number
    for number, (start, end) in enumerate(_spans(runs)):
        for i in range(start, end + 1):
            group[i] = number
    return {names[i]: f"%{g}" for i, g in group.items()}


def _spans(runs: list[list[int]]) -> list[tuple[int, int]]:
    """(first, last) place of each set of overlapping runs, in listing order."""
    out: list[tuple[int, int]] = []
    for run in sorted(runs):
        if out and run[0] <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], run[-1]))
        else:
            out.append((run[0], run[-1]))
    return out


def catalog_groups(
    names: Sequence[str], declared: dict[str, str], operations: set[str], tools: dict[str, object]
) -> tuple[dict[str, str], dict[str, str]]:
    """(name -> source, name -> group): catalog_sources, and when the tools without a declared source are listed in
    server order and make several name families, their families joined where one product's name runs across two
    (joined_families) and their groups (mark_groups): a value flows between two tools of one family only when they
    are not in two groups. One family says nothing of several servers (ToolLinkOS: 573 tools, its core tools shared
    by all): no groups, unless several_products says so by its product names. A catalog of one server's size has
    two groups only when it has a product prefix (prefix_groups) or is several_products'."""
    unnamed = [n for n in names if not declared.get(n) and n not in operations]
    words = {n: capitalised_words(getattr(tools[n], "description", "") or "") for n in unnamed}
    several = len(unnamed) < MANY_TOOLS and several_products(unnamed, words)
    source = catalog_sources(names, declared, operations, several)
    if len(unnamed) < MANY_TOOLS and not several:
        return source, prefix_groups(unnamed, {n: getattr(tools[n], "description", "") or "" for n in unnamed})
    if not keeps_server_order(unnamed) or (len({source[n] for n in unnamed}) < 2 and not several):
        return source, {}
    source |= joined_families(unnamed, source, words)
    groups = mark_groups(unnamed, {n: words[n] | parameter_marks(tools[n]) for n in unnamed})
    return source, zoned(unnamed, groups, words)


def several_products(names: Sequence[str], words: dict[str, set[str]]) -> bool:
    """Whether a catalog of one server's size (fewer than MANY_TOOLS tools without a source) gathers several
    products: listed in server order, with two name families (joined where one product's name runs across two,
    joined_families) of FAMILY_RUN tools at least that each hold a product's name (a run of a capitalised word,
    mark_runs, wholly in it). One server's odd names (a handful of another shape) hold no product name of their own.
    Or, whatever the families (servers of one spelling), PRODUCT_SPANS such runs of FAMILY_RUN tools that lie apart:
    one server's sub-products' words (Loki, Prometheus) lie inside its own name's run."""
    if not keeps_server_order(names):
        return False
    if len(_spans([r for r in mark_runs(names, words) if len(r) >= FAMILY_RUN])) >= PRODUCT_SPANS:
        return True
    family = joined_families(names, name_families(names), words)
    size = Counter(family.values())
    named = set()
    for run in mark_runs(names, words):
        held = {family[names[i]] for i in run}
        if len(held) == 1 and size[next(iter(held))] >= FAMILY_RUN:
            named |= held
    return len(named) >= 2


def zoned(names: Sequence[str], groups: dict[str, str], words: dict[str, set[str]]) -> dict[str, str]:
    """name -> `<group>|<started>|<ended>` for a listing in server order: its mark group ('' outside every one) and
    how many product groups start at or before its place and end before it. A product group is a mark group that
    holds a run of a capitalised word (mark_runs of `words`: a product's name); a group of parameter names alone can
    be one server's part (`@cycle_id`), no server's whole. See apart."""
    product = {groups[names[run[0]]] for run in mark_runs(names, words)}
    places: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        if groups.get(n) in product:
            places.setdefault(groups[n], []).append(i)
    starts = sorted(p[0] for p in places.values())
    ends = sorted(p[-1] for p in places.values())
    return {n: f"{groups.get(n, '')}|{bisect_right(starts, i)}|{bisect_left(ends, i)}" for i, n in enumerate(names)}


@cache
def apart(a: str, b: str) -> bool:
    """Whether no value flows between two tools of one source by their groups (catalog_groups): two groups, or a
    product group wholly between them (zoned: the product groups ended before the later one less those started at
    or before the earlier one)."""
    group_a, *zone_a = a.split("|")
    group_b, *zone_b = b.split("|")
    if group_a and group_b and group_a != group_b:
        return True
    if not zone_a or not zone_b:
        return False
    (started_a, ended_a), (started_b, ended_b) = map(int, zone_a), map(int, zone_b)
    return ended_a > started_b or ended_b > started_a


def parameter_marks(tool: object) -> set[str]:
    """A tool's parameters' names as marks (`@projectIdOrKey`: servers reuse their own parameter shapes)."""
    names = [p.get("name", "") for p in getattr(tool, "parameters", ()) if isinstance(p, dict)]
    return {f"@{n}" for n in names if isinstance(n, str)}


def joined_families(names: Sequence[str], source: dict[str, str], words: dict[str, set[str]]) -> dict[str, str]:
    """name -> source, the tools of a run of one capitalised word (mark_runs of `words`: a product's name) that has
    JOIN tools in each of two name families moved to the family that holds most of the run: one server whose names
    change shape (`list_stories` … then `getStory` …, "Shortcut" in both)."""
    out = {n: source[n] for n in names}
    for run in sorted(mark_runs(names, words), key=len):
        counts = Counter(source[names[i]] for i in run)
        joined = [f for f, n in counts.items() if n >= JOIN]
        if len(joined) > 1:
            to = max(joined, key=lambda f: counts[f])
            for i in range(run[0], run[-1] + 1):
                if source[names[i]] in joined:
                    out[names[i]] = to
    return out


def product_prefix(names: Sequence[str], descriptions: dict[str, str]) -> str:
    """The product a name prefix says most of a catalog's tools are about: the first word of more than half its names
    (and of at least FAMILY_RUN, not of all), no verb and no later word of any name, that MARK_SHARE of those tools'
    descriptions write (`awx_…` "AWX", `jira_…` "Jira"); '' when none. A resource word as a prefix (`project_…`)
    is a later word somewhere else; a tool family's own word its descriptions do not say (`kubectl_…`) is no product."""
    words = {n: split_name(n).split() for n in names}
    later = {w for ws in words.values() for w in ws[1:]}
    for word, count in Counter(ws[0] for ws in words.values() if len(ws) > 1).items():
        held = [n for n in names if _prefixed(words[n], word)]
        said = sum(word in {w.lower() for w in _WORD.findall(descriptions.get(n, ""))} for n in held)
        if (
            FAMILY_RUN <= count < len(names) < 2 * count
            and word not in LEAD_VERBS | later
            and said >= MARK_SHARE * count
        ):
            return word
    return ""


def prefix_groups(names: Sequence[str], descriptions: dict[str, str]) -> dict[str, str]:
    """name -> group in a catalog of one server's size (fewer than MANY_TOOLS tools): with a product prefix, its tools
    and the others are two products' (an API's tools and a server's local ones; Jira's and Confluence's) and no
    value flows between them; {} without one."""
    prefix = product_prefix(names, descriptions)
    if not prefix:
        return {}
    return {n: f"^{prefix}" if _prefixed(split_name(n).split(), prefix) else "^" for n in names}


def _prefixed(words: list[str], prefix: str) -> bool:
    return len(words) > 1 and words[0] == prefix
