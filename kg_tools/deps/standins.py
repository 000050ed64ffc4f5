"""Stand-in servers for a large catalog in no server order (kg_tools/deps/unordered.py): its tools clustered into
products by what one server's tools share and few others write, so that inference runs inside each cluster as it
does for servers listed in order (producers.sourced_parts).

Two tools are alike by the rare marks they share, each weighted by its inverse tool frequency log(N / n): the words
of their descriptions (the tool's and its parameters'), the words of their names (`n:freshdesk`) and their
parameters' names (`@projectIdOrKey`), a mark rare when 2 to RARE_TOOLS tools hold it (a product's name, a
domain's noun, a server's own parameter shape; `id`, `limit` are everyone's). RARE_TOOLS is a count, not a share:
a server's own name is written by about as many of its tools in a catalog of 2,400 tools as in one of 6,900. The clusters are the communities of
that graph by the Louvain method (Blondel et al. 2008: nodes moved to the neighbouring community of the best
modularity gain, communities merged into nodes, again until nothing moves), with RESOLUTION above 1 for
communities of about a server's size rather than of a domain's (lower in a catalog of few servers). Nodes are visited in name order: the same tools give
the same clusters, whatever order they came in."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

from kg_tools.deps.unordered import text_words
from kg_tools.tool_spec import split_name

RARE_TOOLS = 70  # the most tools that hold a rare mark (dev union shuffled, 6,927 and 2,401 tools: 40 / 70 / 100)
RESOLUTION = 4.0  # modularity's resolution (dev union shuffled: 2 / 3 / 4 / 6 / 8 tried)
LARGEST_SERVER = 200  # tools of one server at most (the corpus's largest: 198; sources.MANY_TOOLS)
LEVELS = 10  # Louvain's levels at most (the dev union stops after 3 to 4)

Graph = dict[str, dict[str, float]]


def marks(tool: object) -> set[str]:
    """A tool's marks: its descriptions' words, `n:` its name's words, `@` its parameters' names."""
    params = [p for p in getattr(tool, "parameters", None) or [] if isinstance(p, dict)]
    return (
        text_words(tool)
        | {f"n:{w.lower()}" for w in split_name(str(getattr(tool, "name", ""))).split()}
        | {f"@{p.get('name')}" for p in params if isinstance(p.get("name"), str)}
    )


def alike(tools: dict[str, object]) -> Graph:
    """name -> {name: weight}: the summed inverse frequencies of the rare marks two tools share (symmetric)."""
    own = {n: marks(t) for n, t in tools.items()}
    count = Counter(m for ms in own.values() for m in ms)
    weight = {m: math.log(len(tools) / c) for m, c in count.items() if 2 <= c <= RARE_TOOLS}
    holders: dict[str, list[str]] = defaultdict(list)
    for n in sorted(own):
        for m in own[n]:
            if m in weight:
                holders[m].append(n)
    graph: Graph = defaultdict(lambda: defaultdict(float))
    for m, names in holders.items():
        w = weight[m]
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                graph[a][b] += w
                graph[b][a] += w
    return {n: dict(ws) for n, ws in graph.items()}


def stand_in_servers(tools: dict[str, object]) -> dict[str, str]:
    """name -> its stand-in server (`~0`, `~1` …, numbered in name order of their first tool); a tool that shares no
    rare mark with another is a server of its own."""
    cluster = communities(sorted(tools), alike(tools))
    number: dict[int, str] = {}
    for n in sorted(tools):
        number.setdefault(cluster[n], f"~{len(number)}")
    return {n: number[cluster[n]] for n in tools}


def communities(nodes: Sequence[str], graph: Graph, resolution: float = 0.0) -> dict[str, int]:
    """node -> its community (Louvain, at `resolution` or else RESOLUTION), nodes visited in the order given. At a
    resolution gamma a community holds about 1 / gamma of the graph's weight at most, so RESOLUTION is lowered to
    len(nodes) / LARGEST_SERVER (not below 1, plain modularity) for a catalog of few servers: 400 tools may be two."""
    gamma = resolution or max(1.0, min(RESOLUTION, len(nodes) / LARGEST_SERVER))
    place = {n: i for i, n in enumerate(nodes)}
    adjacency = [{place[m]: w for m, w in graph.get(n, {}).items() if m != n} for n in nodes]
    loops = [0.0] * len(nodes)  # a merged node's inner weight, each inner edge once
    member = list(range(len(nodes)))  # node -> its merged node
    for _ in range(LEVELS):
        community = _local_moves(adjacency, loops, gamma)
        if community is None:
            break
        adjacency, loops, renumber = _merged(adjacency, loops, community)
        member = [renumber[community[m]] for m in member]
    return {n: member[i] for i, n in enumerate(nodes)}


def _local_moves(adjacency: list[dict[int, float]], loops: list[float], gamma: float) -> list[int] | None:
    """Each node moved, in turn and again until none moves, to the neighbouring community of the best modularity
    gain (w(i, C) - gamma * tot(C) * k_i / 2m); None when no node moved."""
    degree = [sum(a.values()) + 2 * loop for a, loop in zip(adjacency, loops)]
    two_m = sum(degree)
    if not two_m:
        return None
    community = list(range(len(adjacency)))
    total = degree[:]
    moved = False
    while True:
        moves = 0
        for i, links_i in enumerate(adjacency):
            c = community[i]
            total[c] -= degree[i]
            links: dict[int, float] = defaultdict(float)
            for j, w in links_i.items():
                links[community[j]] += w
            best, gain = c, links.get(c, 0.0) - gamma * total[c] * degree[i] / two_m
            for d, w in links.items():
                g = w - gamma * total[d] * degree[i] / two_m
                if g > gain + 1e-12:
                    best, gain = d, g
            total[best] += degree[i]
            if best != c:
                community[i] = best
                moves += 1
        if not moves:
            return community if moved else None
        moved = True


def _merged(
    adjacency: list[dict[int, float]], loops: list[float], community: list[int]
) -> tuple[list[dict[int, float]], list[float], dict[int, int]]:
    """The graph of the communities (one node each, numbered in order of first appearance), their inner weights,
    and community -> its new node."""
    renumber: dict[int, int] = {}
    for c in community:
        renumber.setdefault(c, len(renumber))
    merged: list[dict[int, float]] = [defaultdict(float) for _ in renumber]
    inner = [0.0] * len(renumber)
    for i, links in enumerate(adjacency):
        ci = renumber[community[i]]
        inner[ci] += loops[i]
        for j, w in links.items():
            cj = renumber[community[j]]
            if ci == cj:
                inner[ci] += w / 2
            else:
                merged[ci][cj] += w
    return [dict(m) for m in merged], inner, renumber
