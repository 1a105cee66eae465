"""Retrieval on a real indexed repository: lexical, parameter, graph and embedding signals."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sa_align.config import EvalConfig
from sa_align.index import build_index
from sa_align.models import Param, Unit
from sa_align.retrieve import build_retriever
from sa_align.retrieve.embed import available

REPO = Path(__file__).resolve().parent.parent / "fixtures" / "judge_repos" / "trainer"


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    dest = tmp_path_factory.mktemp("repo") / "trainer"
    shutil.copytree(REPO, dest)
    return build_index(dest)


def top(retriever, unit: Unit, k: int = 5) -> list[str]:
    return [f"{c.span.path}::{c.span.symbol}" for c in retriever.retrieve(unit)[:k]]


@pytest.mark.parametrize("unit, expected", [
    (Unit(id="a", kind="method", claim="The loss smooths the one-hot targets toward a uniform distribution."),
     "trainer/loss.py::smoothed_cross_entropy"),
    (Unit(id="b", kind="method", claim="Easy examples are down-weighted by a focusing term.", hints=["focal"]),
     "trainer/loss.py::focal_weighting"),
    (Unit(id="c", kind="ordering", claim="Images are cropped, flipped and then normalized.",
          order=["random crop", "horizontal flip", "normalize"]), "trainer/data.py::preprocess"),
    (Unit(id="d", kind="method", claim="Each residual block adds the identity to the output of its two convolutions."),
     "trainer/model.py::ResidualBlock.forward"),
])
def test_right_function_in_top5(index, unit, expected):
    retriever = build_retriever(index, EvalConfig(embeddings=False))
    assert expected in top(retriever, unit)


def test_param_signal_matches_values_across_notations(index):
    retriever = build_retriever(index, EvalConfig(embeddings=False))
    unit = Unit(id="lr", kind="numerical", claim="The step size is three times ten to the minus four.",
                params=[Param(name="learning_rate", value="3 × 10^-4")])
    first = retriever.retrieve(unit)[0]
    assert first.span.path == "configs/base.yaml"
    assert "param:learning_rate=0.0003" in first.why
    assert "lr: 0.0003" in first.snippet
    assert index.lines(first.span.path, first.focus_line, first.focus_line) == ["  lr: 0.0003"]


def test_focus_line_is_the_line_sharing_the_rarest_query_terms(index):
    retriever = build_retriever(index, EvalConfig(embeddings=False))
    unit = Unit(id="ls", kind="method", claim="The loss smooths the targets with label smoothing.",
                hints=["smoothed_cross_entropy"])
    call = next(c for c in retriever.retrieve(unit) if c.span.symbol == "train_epoch")
    assert call.span.start_line <= call.focus_line <= call.span.end_line
    assert "smoothed_cross_entropy(" in index.lines(call.span.path, call.focus_line, call.focus_line)[0]


def test_candidates_carry_snippets_and_why(index):
    cfg = EvalConfig(embeddings=False, top_k=3)
    retriever = build_retriever(index, cfg)
    cands = retriever.retrieve(Unit(id="x", kind="method", claim="Gradients are clipped to a maximum norm."))
    assert 0 < len(cands) <= 3
    for c in cands:
        assert c.why and c.snippet.splitlines() == index.lines(c.span.path, c.span.start_line, c.span.end_line)
    assert [c.score for c in cands] == sorted((c.score for c in cands), reverse=True)


def test_graph_expansion_adds_callees(index):
    retriever = build_retriever(index, EvalConfig(embeddings=False, top_k=8))
    cands = retriever.retrieve(Unit(id="g", kind="method", claim="Every training epoch runs train_epoch over the loader.",
                                    hints=["train_epoch"]))
    reasons = [w for c in cands for w in c.why]
    assert any(w.startswith(("callee-of:", "caller-of:")) for w in reasons)


@pytest.mark.slow
@pytest.mark.skipif(not available(), reason="sentence-transformers is not installed")
def test_embeddings_are_used_and_cached(index, tmp_path):
    cfg = EvalConfig(embeddings=True, cache_dir=tmp_path)
    retriever = build_retriever(index, cfg)
    unit = Unit(id="e", kind="method", claim="Penalize confident predictions by mixing in a uniform target distribution.")
    cands = retriever.retrieve(unit)
    assert any(w.startswith("embedding:") for c in cands for w in c.why)
    cached = list((tmp_path / "embeddings").rglob("*.npy"))
    assert cached
    again = build_retriever(index, cfg)
    assert (again.matrix == retriever.matrix).all()


@pytest.mark.slow
@pytest.mark.skipif(not available(), reason="sentence-transformers is not installed")
def test_each_candidate_keeps_its_score_fused_without_the_embedding(index, tmp_path):
    from sa_align.calibrate.features import without_embedding

    unit = Unit(id="n", kind="numerical", claim="Label smoothing of 0.1 and a learning rate of 0.1")
    plain = build_retriever(index, EvalConfig(embeddings=False, top_k=8)).retrieve(unit)
    embedded = build_retriever(index, EvalConfig(embeddings=True, cache_dir=tmp_path, top_k=8)).retrieve(unit)
    assert all(c.score_without_embedding is None for c in plain)
    assert any(w.startswith("embedding:") for c in embedded for w in c.why)
    assert all(c.score_without_embedding is not None and c.score_without_embedding <= c.score for c in embedded)
    # Read without the embedding, a candidate both runs found has the score and reasons of the run without it.
    before = {(c.span.path, c.span.start_line): c for c in plain}
    shared = [c for c in without_embedding(embedded) if (c.span.path, c.span.start_line) in before]
    assert shared
    for c in shared:
        assert c.score == before[c.span.path, c.span.start_line].score
        assert c.why == before[c.span.path, c.span.start_line].why
