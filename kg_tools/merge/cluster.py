"""Clusters = connected components of accepted pairs; representative = shortest name (ties: alphabetical)."""

from __future__ import annotations

from kg_tools.errors import MergeIntegrityError


def components(pairs: list[tuple[str, str]]) -> list[list[str]]:
    """Connected components with >= 2 tools, each sorted representative-first, in a stable order."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[str]] = {}
    for x in list(parent):
        groups.setdefault(find(x), []).append(x)
    return sorted((order(g) for g in groups.values() if len(g) > 1), key=lambda g: g[0])


def order(names) -> list[str]:
    """Representative first, then the others by (length, name)."""
    return sorted(set(names), key=lambda n: (len(n), n))


def check_integrity(clusters: list[list[str]], all_names: set[str]) -> dict[str, str]:
    """Check the clusters (canonical first) and return the total mapping phi: tool -> canonical tool."""
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, cluster in enumerate(clusters):
        if len(cluster) < 2:
            problems.append(f"cluster {i} has fewer than two tools: {cluster}")
        for name in cluster:
            if name in seen:
                problems.append(f"{name} is in clusters {seen[name]} and {i}")
            seen[name] = i
            if name not in all_names:
                problems.append(f"{name} is not a tool of this plan")
    phi = {n: n for n in all_names}
    for cluster in clusters:
        for member in cluster[1:]:
            phi[member] = cluster[0]
    kept = {v for v in phi.values()}
    for name in kept:
        if phi.get(name) != name:
            problems.append(f"{name} is both kept (canonical) and merged")
    missing = [n for n in all_names if n not in phi or phi[n] not in all_names]
    if missing:
        problems.append(f"phi is not total: {missing[:5]}")
    if problems:
        raise MergeIntegrityError("merge plan failed its integrity checks:\n" + "\n".join(f"  - {p}" for p in problems))
    return phi
