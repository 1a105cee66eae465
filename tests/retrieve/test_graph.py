"""Call-graph expansion: ties and the seed named in `why` never depend on set order."""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx

from sa_align.retrieve.graph import _relation, expand


def _index(edges):
    g = nx.DiGraph()
    g.add_edges_from(edges)
    return SimpleNamespace(graph=g)


def test_symmetric_neighbours_are_ranked_by_id():
    index = _index([("m::train", "m::zeta"), ("m::train", "m::alpha"), ("m::train", "m::mid")])
    ranked = expand(index, index.graph.to_undirected(), {"m::train": 1.0}, 10)
    assert ranked[0] == ("m::train", "graph-seed")
    assert [n for n, _ in ranked[1:]] == ["m::alpha", "m::mid", "m::zeta"]
    assert all(why == "callee-of:train" for _, why in ranked[1:])


def test_a_node_near_several_seeds_names_the_strongest():
    g = _index([("m::a", "m::hub"), ("m::hub", "m::x"), ("m::b", "m::hub")]).graph
    seeds = {"m::b": 0.5, "m::a": 1.0}  # insertion order puts the weaker seed first
    assert _relation(g, "m::x", seeds) == "near:a"
    assert _relation(g, "m::hub", seeds) == "callee-of:a"
