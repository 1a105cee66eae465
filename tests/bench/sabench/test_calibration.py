"""Training the calibrated judge on an SA-Bench-layout dataset written here, with folds grouped by paper."""

from __future__ import annotations

import json
import shutil

import pytest

from sa_align.bench.sabench.calibration import _folds, train_sabench
from sa_align.calibrate.model import load_model
from sa_align.config import EvalConfig
from tests.bench.sabench.conftest import FIXTURE


def _two_papers(tmp_path):
    """The fixture plus a second paper, `tiny-adam`, made from `tiny-sgd`'s two evaluable runs."""
    root = tmp_path / "dataset"
    shutil.copytree(FIXTURE, root)
    for setup in ("alpha_basic", "beta_agent"):
        src, dest = root / "experiments/runs" / setup / "tiny-sgd", root / "experiments/runs" / setup / "tiny-adam"
        shutil.copytree(src, dest)
        for path in list(dest.rglob("*")):
            if path.is_file():
                path.write_text(path.read_text(encoding="utf-8").replace("tiny-sgd", "tiny-adam"), encoding="utf-8")
                if "tiny-sgd" in path.name:
                    path.rename(path.with_name(path.name.replace("tiny-sgd", "tiny-adam")))
    return root


def test_training_cross_validates_by_paper_and_writes_a_loadable_model(tmp_path):
    dataset = _two_papers(tmp_path)
    out = tmp_path / "train"
    result = train_sabench(dataset, EvalConfig(embeddings=False, cache_dir=tmp_path / "cache"), out,
                           papers=["tiny-sgd", "tiny-adam"], setups=["alpha_basic", "beta_agent"], folds=2)
    assert sorted(map(tuple, result.folds.values())) == [("tiny-adam",), ("tiny-sgd",)]
    model = load_model(out / "sabench.json")
    assert model.provenance.papers == ["tiny-adam", "tiny-sgd"] and model.provenance.claims == 20
    assert "CC-BY-4.0" in model.provenance.license and model.cross_validation["coverage"] is not None
    # Each fold's model was trained without the papers it judged.
    for k, held_out in enumerate(result.folds.values()):
        assert not set(load_model(out / "folds" / f"fold-{k}.json").provenance.papers) & set(held_out)
    cv = result.cross_validated
    assert cv.probability.claims == 20 and cv.overall.claims == 20
    assert result.uncalibrated.probability.claims == 0  # the features run has calibration off
    data = json.loads((out / "train.json").read_text())
    assert "optimistic" in data["note"] and (out / "train.md").read_text().startswith("# The calibrated judge")
    stored = (out / "features" / "runs" / "alpha_basic__tiny-sgd.json").read_text()
    assert "LEAKMARK" not in stored and '"features"' in stored
    # Benchmarking on the papers a model was trained on says the figures are in-sample.
    from sa_align.bench.sabench import run_sabench

    config = EvalConfig(embeddings=False, cache_dir=tmp_path / "cache", calibration={"model": out / "sabench.json"})
    again = run_sabench(dataset, config, papers=["tiny-sgd"], setups=["alpha_basic"])
    assert again.in_sample == ["tiny-sgd"] and "**In-sample:**" in again.markdown()


def test_folds_deal_papers_round_robin_and_need_two_papers():
    assert _folds(["a", "b", "c", "d", "e"], 2) == [["a", "c", "e"], ["b", "d"]]
    assert _folds(["a", "b"], 5) == [["a"], ["b"]]
    with pytest.raises(ValueError, match="two papers"):
        _folds(["a"], 5)


def test_the_recorded_command_names_no_local_path(monkeypatch, tmp_path):
    from sa_align.bench.sabench.calibration import _command

    out = tmp_path / "calibration"
    monkeypatch.setattr("sys.argv", ["sa-align", "bench", "/data/SA-Bench", "--sabench", "--train", str(out)])
    assert _command("/data/SA-Bench", out) == "sa-align bench DATASET --sabench --train OUT"
