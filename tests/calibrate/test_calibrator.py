"""The calibrator in a real evaluation: model loading, LLM calls only where it cannot settle a unit, bad model files."""

from __future__ import annotations

import math

import pytest

import sa_align
from sa_align.calibrate.features import FEATURE_VERSION, feature_names
from sa_align.calibrate.model import CalibrationModel, LogisticHead, Provenance
from sa_align.errors import CalibrationError
from sa_align.models import Label, Paper
from tests.support.llm_server import llm_server  # noqa: F401
from tests.test_pipeline import LLM_UNITS, _trainer, _vote


def constant_model(path, p: float):
    """A model that gives every unit probability `p` (all coefficients zero)."""
    names = feature_names()
    zeros = [0.0] * len(names)
    model = CalibrationModel(
        feature_version=FEATURE_VERSION, features=names, fill=zeros, center=zeros, scale=[1.0] * len(names),
        faithful=LogisticHead(classes=[0.0, 1.0], intercept=[math.log(p / (1 - p))], coef=[zeros]),
        levels=LogisticHead(classes=[0.0, 1.0], intercept=[0.0, 0.0], coef=[zeros, zeros]),
        provenance=Provenance(dataset="constant", commit="none", license="none"),
    )
    path.write_text(model.model_dump_json(), encoding="utf-8")
    return path


def _config(server, tmp_path, p: float, samples: int = 1) -> sa_align.EvalConfig:
    spec = server.spec("model-a").model_copy(update={"samples": samples})
    return sa_align.EvalConfig(judges=[spec], embeddings=False, max_retries=0, cache_dir=tmp_path / "cache",
                               rules={"preview": True},  # the LLM's votes decide (LLM001 is unmeasured here)
                               calibration={"model": constant_model(tmp_path / "m.json", p), "band": (0.2, 0.5)})


def test_llm_judges_run_only_on_units_inside_the_band(tmp_path, llm_server):
    llm_server.always(_vote)
    paper = Paper(title="Trainer", text="label smoothing")
    report = sa_align.evaluate(paper, _trainer(tmp_path), units=LLM_UNITS, config=_config(llm_server, tmp_path, 0.35))
    assert len(llm_server.requests) == 2 and report.calibration.llm_units_skipped == 0
    assert all(r.calibration.in_band and r.calibration.applied == "llm" for r in report.results)
    assert report.results[0].label == Label.ALIGNED


def test_units_outside_the_band_save_their_llm_calls_and_the_report_says_so(tmp_path, llm_server):
    llm_server.always(_vote)
    paper = Paper(title="Trainer", text="label smoothing")
    report = sa_align.evaluate(paper, _trainer(tmp_path), units=LLM_UNITS,
                               config=_config(llm_server, tmp_path, 0.9, samples=3))
    assert llm_server.requests == []
    assert (report.calibration.llm_units_skipped, report.calibration.llm_calls_saved) == (2, 6)
    assert report.calibration.model == "m.json" and report.calibration.band == [0.2, 0.5]
    assert all(r.calibration.llm_skipped and r.calibration.probability == 0.9 for r in report.results)
    # Both units have located candidates and no failure: lifted, citing the candidate.
    assert all(r.label == Label.ALIGNED and r.evidence for r in report.results)


def test_units_below_the_band_go_to_the_llm_only_when_the_static_evidence_leaves_them_undecided(tmp_path, llm_server):
    from sa_align.models import Unit

    llm_server.always(_vote)
    paper = Paper(title="Trainer", text="label smoothing")
    # A named identifier that the code lacks is a failure the static judges show (the trainer's
    # placeholder body may be where it was deferred).
    absent = Unit(id="absent", kind="method", claim="Gradients are clipped by a global norm.", hints=["clip_by_global_norm_xyz"])
    report = sa_align.evaluate(paper, _trainer(tmp_path), units=[*LLM_UNITS, absent],
                               config=_config(llm_server, tmp_path, 0.05))
    by_id = {r.unit.id: r for r in report.results}
    # Nothing static shows a failure for the two method units: only an LLM judge can settle them.
    assert len(llm_server.requests) == 2 and report.calibration.llm_units_skipped == 1
    assert by_id["ls"].calibration.applied == "llm" and by_id["ls"].label == Label.ALIGNED
    absent_result = by_id["absent"]
    assert absent_result.label in (Label.MISSING, Label.STUBBED) and absent_result.decided_by == "static"
    assert absent_result.calibration.llm_skipped


def test_the_shipped_model_runs_by_default_and_is_named_in_the_report(tmp_path):
    report = sa_align.evaluate(Paper(title="Trainer", text="label smoothing"), _trainer(tmp_path), units=LLM_UNITS,
                               config=sa_align.EvalConfig(embeddings=False, cache_dir=tmp_path / "cache"))
    assert report.calibration.model == "sabench.json" and report.calibration.uncalibrated is None
    assert "SA-Bench" in report.calibration.trained_on
    assert all(0.0 <= r.calibration.probability <= 1.0 for r in report.results)
    assert all(r.calibration.features == {} for r in report.results)  # recorded only when asked


def test_a_stale_model_fails_clearly_unless_the_uncalibrated_aggregate_is_allowed(tmp_path):
    stale = constant_model(tmp_path / "stale.json", 0.5)
    stale.write_text(stale.read_text().replace(f'"feature_version":"{FEATURE_VERSION}"', '"feature_version":"0"'))
    paper, repo = Paper(title="Trainer", text="label smoothing"), _trainer(tmp_path)
    with pytest.raises(CalibrationError, match="stale.json"):
        sa_align.evaluate(paper, repo, units=LLM_UNITS,
                          config=sa_align.EvalConfig(embeddings=False, calibration={"model": stale}))
    report = sa_align.evaluate(paper, repo, units=LLM_UNITS, config=sa_align.EvalConfig(
        embeddings=False, calibration={"model": stale, "allow_uncalibrated": True}))
    assert "stale.json" in report.calibration.uncalibrated and report.calibration.model is None
    assert any(f.kind == "uncalibrated" and "stale.json" in f.message for f in report.flags)
    assert all(r.calibration is not None and r.calibration.probability is None for r in report.results)


def test_switched_off_the_report_says_so_and_results_carry_no_calibration(tmp_path):
    report = sa_align.evaluate(Paper(title="Trainer", text="label smoothing"), _trainer(tmp_path), units=LLM_UNITS,
                               config=sa_align.EvalConfig(embeddings=False, calibration={"enabled": False}))
    assert report.calibration.uncalibrated == "calibration is switched off"
    assert all(r.calibration is None for r in report.results)


def test_a_calibration_that_fails_on_one_unit_leaves_it_its_hand_set_result(tmp_path, monkeypatch):
    from sa_align.calibrate import Calibrator

    real = Calibrator.decide

    def flaky(self, hand, cal):
        if hand.unit.id == "res":
            raise RuntimeError("policy exploded")
        return real(self, hand, cal)

    monkeypatch.setattr(Calibrator, "decide", flaky)
    report = sa_align.evaluate(Paper(title="Trainer", text="label smoothing"), _trainer(tmp_path), units=LLM_UNITS,
                               config=sa_align.EvalConfig(embeddings=False, cache_dir=tmp_path / "cache"))
    ls, res = report.results
    assert ls.calibration is not None and res.calibration is None
    assert any("calibration failed for res: RuntimeError: policy exploded" in e for e in report.errors)
