"""Call-graph expansion: rank symbols near the hits by personalized PageRank.

The seeds are the best hits of the other signals; their callers and callees
are the places an implementation often continues (the loss a training step
calls, the step a training loop calls). PageRank personalized on the seeds
over the undirected call graph turns "near the hits" into a ranking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

    from sa_align.index.model import RepoIndex


def undirected(index: "RepoIndex") -> "nx.Graph":
    """The call graph without direction (built once per index by the caller)."""
    return index.graph.to_undirected(as_view=False)


def expand(
    index: "RepoIndex", ugraph: "nx.Graph", seeds: dict[str, float], limit: int
) -> list[tuple[str, str]]:
    """Symbols ranked by PageRank personalized on `seeds`, each with why it was reached.

    The seeds are ranked too (personalized PageRank puts them first): leaving
    them out would hand every neighbour a bonus the hits themselves lack.
    """
    import networkx as nx

    present = {s: w for s, w in seeds.items() if s in ugraph and w > 0}
    if not present:
        return []
    # PageRank over the whole graph costs O(edges) per iteration; the 2-hop
    # neighbourhood of the seeds carries almost all of the personalized mass.
    nodes = set(present)
    for s in present:
        for n in ugraph.neighbors(s):
            nodes.add(n)
            nodes.update(ugraph.neighbors(n))
    sub = _ordered_subgraph(ugraph, nodes)
    if sub.number_of_edges() == 0:
        return []
    try:
        ranks = nx.pagerank(sub, alpha=0.85, personalization=present, max_iter=300, tol=1e-5)
    except (nx.PowerIterationFailedConvergence, ImportError):
        # No convergence (or no scipy under networkx): closeness in hops, direct neighbours first.
        ranks = {n: 1.0 / (1 + min(nx.shortest_path_length(sub, s, n) for s in present if nx.has_path(sub, s, n)))
                 for n in sub if any(nx.has_path(sub, s, n) for s in present)}
    directed = index.graph
    out: list[tuple[str, str]] = []
    # Ties (symmetric neighbours of one seed) are common: break them by id, not by set order.
    for node, _score in sorted(ranks.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append((node, "graph-seed" if node in present else _relation(directed, node, present)))
        if len(out) >= limit:
            break
    return out


def _ordered_subgraph(ugraph: "nx.Graph", nodes: set[str]) -> "nx.Graph":
    """The induced subgraph with nodes and edges in sorted order.

    `Graph.subgraph` iterates a small node set in set order, which follows
    `PYTHONHASHSEED`; PageRank's matrix (and so its floating-point sums and
    its ties) follows node order, so a view would make scores vary between runs.
    """
    import networkx as nx

    order = sorted(nodes)
    sub = nx.Graph()
    sub.add_nodes_from(order)
    sub.add_edges_from(sorted((a, b) if a <= b else (b, a) for a, b in ugraph.subgraph(order).edges()))
    return sub


def _by_rank(seeds: dict[str, float]) -> list[str]:
    """Seeds strongest first (ties by id)."""
    return sorted(seeds, key=lambda s: (-seeds[s], s))


def _relation(g: "nx.DiGraph", node: str, seeds: dict[str, float]) -> str:
    """`callee-of:<seed>`, `caller-of:<seed>` or `near:<seed>` for the report, naming the strongest seed."""
    ranked = _by_rank(seeds)
    for seed in ranked:
        if g.has_edge(seed, node):
            return f"callee-of:{_short(seed)}"
        if g.has_edge(node, seed):
            return f"caller-of:{_short(seed)}"
    return f"near:{_short(ranked[0])}"


def _short(symbol_id: str) -> str:
    return symbol_id.split("::", 1)[-1]
