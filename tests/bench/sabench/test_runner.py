from __future__ import annotations

import json

from sa_align.bench.sabench import run_sabench
from sa_align.bench.sabench.runner import run_all
from sa_align.config import EvalConfig
from sa_align.models import Label
from tests.bench.sabench.conftest import FIXTURE


def _config(tmp_path) -> EvalConfig:
    return EvalConfig(cache_dir=tmp_path / "cache", embeddings=False)


def test_runs_are_evaluated_skipped_with_reasons_and_never_see_the_answer(tmp_path, sabench_git):
    result = run_sabench(sabench_git, _config(tmp_path), out=tmp_path / "out", papers=["tiny-sgd"])
    runs = {r.id: r for r in result.runs}
    assert runs["alpha_basic/tiny-sgd"].skipped is None and runs["alpha_basic/tiny-sgd"].python_lines > 10
    # A repository holding only an empty file is evaluated (SA-Bench scores it 0), not skipped.
    assert runs["beta_agent/tiny-sgd"].skipped is None
    assert "no score file" in runs["gamma_agent/tiny-sgd"].skipped
    assert "unknown dimension" in runs["delta_agent/tiny-sgd"].skipped
    stored = (tmp_path / "out" / "runs" / "alpha_basic__tiny-sgd.json").read_text()
    assert "LEAKMARK" not in stored
    assert (tmp_path / "out" / "sabench.md").read_text().startswith("# Agreement with SA-Bench's judge")
    assert set(result.by_model) == {"judge-a", "judge-b"}


def test_the_learning_rate_claim_is_checked_from_free_text(tmp_path):
    records = run_all(FIXTURE, _config(tmp_path), None, papers=["tiny-sgd"], setups=["alpha_basic"])
    outcomes = {o.claim_id: o for o in records[0].outcomes}
    assert outcomes["tiny-sgd-D1-001"].label == Label.ALIGNED
    assert outcomes["tiny-sgd-D1-001"].score == 1.0


def test_the_judge_never_sees_the_result_folder(tmp_path):
    seen = {}

    def spy(paper, repo, *, units, config):
        from sa_align.pipeline import evaluate

        seen["files"] = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
        report = evaluate(paper, repo, units=units, config=config)
        seen["report"] = report.model_dump_json()
        return report

    from sa_align.bench.sabench.runner import evaluate_run
    from sa_align.bench.sabench.dataset import RunRef
    from sa_align.bench.sabench.source import open_source

    evaluate_run(open_source(FIXTURE), RunRef(setup="alpha_basic", paper="tiny-sgd"), _config(tmp_path), tmp_path, evaluator=spy)
    assert seen["files"] == ["train.py"]
    assert "LEAKMARK" not in seen["report"] and "sau-score" not in seen["report"]


def test_a_finished_run_is_resumed_not_recomputed(tmp_path, monkeypatch):
    calls = []

    def counting(paper, repo, *, units, config):
        from sa_align.pipeline import evaluate

        calls.append(repo)
        return evaluate(paper, repo, units=units, config=config)

    from sa_align.bench.sabench import runner

    out = tmp_path / "out"
    original = runner._default_evaluator
    runner._default_evaluator = lambda: counting
    try:
        first = run_all(FIXTURE, _config(tmp_path), out, papers=["tiny-sgd"], setups=["alpha_basic"])
        second = run_all(FIXTURE, _config(tmp_path), out, papers=["tiny-sgd"], setups=["alpha_basic"])
        # Edited judges or rule tables under the same version number: the stored run is stale.
        monkeypatch.setattr("sa_align.resources.code_fingerprint", lambda: "edited")
        third = run_all(FIXTURE, _config(tmp_path), out, papers=["tiny-sgd"], setups=["alpha_basic"])
    finally:
        runner._default_evaluator = original
    assert len(calls) == 2 and first[0].outcomes == second[0].outcomes == third[0].outcomes
    assert third[0].stamp != first[0].stamp
    assert json.loads((out / "runs" / "alpha_basic__tiny-sgd.json").read_text())["stamp"] == third[0].stamp
