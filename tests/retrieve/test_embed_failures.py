"""An embedding failure drops that signal (auto mode) or is a clear error (`embeddings: true`); the hub
is switched off only while the model loads."""

from __future__ import annotations

import os
import sys
import types

import numpy as np
import pytest

import sa_align
from sa_align.config import EvalConfig
from sa_align.errors import RetrievalError
from sa_align.index import build_index
from sa_align.models import Unit
from sa_align.retrieve import build_retriever, embed
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"
UNIT = Unit(id="meth-x", kind="method", claim="The loss down-weights easy examples with a focusing term.")


class _FakeEmbedder:
    """Encodes the repository unless told to fail there; encodes queries unless told to fail there."""

    model_name = "fake"

    def __init__(self, fail_repo: bool = False, fail_query: bool = False) -> None:
        self.fail_repo, self.fail_query = fail_repo, fail_query

    def encode_groups(self, groups):
        if self.fail_repo:
            raise RuntimeError("encoder exploded")
        return [np.ones((len(g), 4), np.float32) / 2 for g in groups]

    def encode(self, texts):
        if self.fail_query:
            raise RuntimeError("query encoder exploded")
        return np.ones((len(texts), 4), np.float32) / 2


@pytest.fixture(scope="module")
def index():
    return build_index(EX / "repo")


def _use(monkeypatch, fake: _FakeEmbedder) -> None:
    monkeypatch.setattr(embed, "available", lambda: True)
    monkeypatch.setattr(embed, "make_embedder", lambda *a, **k: fake)


def test_auto_mode_drops_the_signal_when_the_repository_cannot_be_encoded(index, monkeypatch):
    _use(monkeypatch, _FakeEmbedder(fail_repo=True))
    retriever = build_retriever(index, EvalConfig())
    assert retriever.matrix is None and "embedding" not in retriever.signals
    assert retriever.errors == retriever.notes and "encoder exploded" in retriever.errors[0]
    assert retriever.retrieve(UNIT)  # the other signals still rank


def test_required_embeddings_fail_with_a_typed_error(index, monkeypatch):
    _use(monkeypatch, _FakeEmbedder(fail_repo=True))
    with pytest.raises(RetrievalError, match="required.*encoder exploded"):
        build_retriever(index, EvalConfig(embeddings=True))


def test_a_failing_query_disables_the_signal_once(index, monkeypatch):
    _use(monkeypatch, _FakeEmbedder(fail_query=True))
    retriever = build_retriever(index, EvalConfig())
    assert "embedding" in retriever.signals
    assert retriever.retrieve(UNIT) and retriever.retrieve(UNIT.model_copy(update={"id": "meth-y"}))
    assert len(retriever.errors) == 1 and "from meth-x on" in retriever.errors[0]
    assert "embedding" not in retriever.signals
    strict = build_retriever(index, EvalConfig(embeddings=True))
    with pytest.raises(RetrievalError, match="meth-x"):
        strict.retrieve(UNIT)


def test_evaluate_reports_a_dropped_signal_instead_of_failing(monkeypatch):
    _use(monkeypatch, _FakeEmbedder(fail_repo=True))
    report = sa_align.evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml")
    assert report.config["embeddings"] is None and len(report.results) == 22
    assert report.retrieval.embeddings is False and "embedding" not in report.retrieval.signals
    assert any("encoder exploded" in e for e in report.errors)
    assert report.retrieval.notes == [e for e in report.errors if e.startswith("embedding")]
    with pytest.raises(RetrievalError):
        sa_align.evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml", config=EvalConfig(embeddings=True))


def test_a_retriever_that_cannot_be_built_degrades_every_unit(monkeypatch):
    import sa_align.retrieve as retrieve

    def broken(*_a, **_k):
        raise ValueError("no chunks today")

    monkeypatch.setattr(retrieve, "build_retriever", broken)
    units = sa_align.load_units(EX / "units.yaml")[:3]
    report = sa_align.evaluate(EX / "paper.md", EX / "repo", units=units)
    assert len(report.results) == 3 and all(not r.candidates for r in report.results)
    assert any("no chunks today" in e for e in report.errors) and report.retrieval.signals == []


def test_the_report_says_which_signals_ran_when_embeddings_are_off():
    units = sa_align.load_units(EX / "units.yaml")[:2]
    report = sa_align.evaluate(EX / "paper.md", EX / "repo", units=units, config=EvalConfig(embeddings=False))
    assert report.retrieval.signals == ["bm25", "param", "name", "signature", "graph"]
    assert report.retrieval.embeddings is False and report.retrieval.embedding_model is None
    assert "switched off" in report.retrieval.notes[0] and report.errors == []


@pytest.mark.slow
@pytest.mark.skipif(not embed.available(), reason="sentence-transformers is not installed")
def test_a_real_encoder_failure_in_auto_mode(monkeypatch):
    def boom(self, texts):
        raise RuntimeError("encoder exploded")

    monkeypatch.setattr(embed.Embedder, "encode", boom)
    report = sa_align.evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml")
    assert report.retrieval.embeddings is False and any("encoder exploded" in e for e in report.errors)
    monkeypatch.undo()
    ok = sa_align.evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml")
    assert ok.retrieval.embeddings is True and ok.retrieval.embedding_model == "packaged-minilm"
    assert "embedding" in ok.retrieval.signals and ok.errors == []


# --------------------------------------------------------------------------- the hub switch


def test_hub_offline_only_inside_the_block(monkeypatch):
    for key in embed._OFFLINE_VARS:
        monkeypatch.delenv(key, raising=False)
    constants = types.SimpleNamespace(HF_HUB_OFFLINE=False)
    monkeypatch.setitem(sys.modules, "huggingface_hub.constants", constants)
    with embed.hub_offline():
        assert os.environ["HF_HUB_OFFLINE"] == "1" and constants.HF_HUB_OFFLINE is True
    assert "HF_HUB_OFFLINE" not in os.environ and "TRANSFORMERS_OFFLINE" not in os.environ
    assert constants.HF_HUB_OFFLINE is False


def test_hub_offline_leaves_a_users_setting_alone(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    with embed.hub_offline():
        assert os.environ["HF_HUB_OFFLINE"] == "0" and "TRANSFORMERS_OFFLINE" not in os.environ
    assert os.environ["HF_HUB_OFFLINE"] == "0"


def test_load_model_is_offline_while_loading_and_restores_after(monkeypatch):
    for key in embed._OFFLINE_VARS:
        monkeypatch.delenv(key, raising=False)
    seen = {}

    class FakeST:
        def __init__(self, path, device):
            seen.update(path=path, offline=os.environ.get("HF_HUB_OFFLINE"), device=device)

    state = {"bars": True, "level": 30}
    hf_logging = types.SimpleNamespace(
        is_progress_bar_enabled=lambda: state["bars"], get_verbosity=lambda: state["level"],
        disable_progress_bar=lambda: state.update(bars=False), enable_progress_bar=lambda: state.update(bars=True),
        set_verbosity_error=lambda: state.update(level=40), set_verbosity=lambda v: state.update(level=v),
    )
    monkeypatch.setitem(sys.modules, "sentence_transformers", types.SimpleNamespace(SentenceTransformer=FakeST))
    monkeypatch.setitem(sys.modules, "transformers", types.SimpleNamespace())
    monkeypatch.setitem(sys.modules, "transformers.utils", types.SimpleNamespace(logging=hf_logging))
    embed.load_model.__wrapped__("some/model")
    assert seen == {"path": "some/model", "offline": "1", "device": "cpu"}
    assert "HF_HUB_OFFLINE" not in os.environ and state == {"bars": True, "level": 30}
