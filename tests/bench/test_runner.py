"""The benchmark runner with a stand-in evaluator: gold is hidden from it and scored after."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from sa_align.bench.runner import run_bench
from sa_align.bench.table import render_table
from sa_align.config import EvalConfig
from sa_align.models import Label

from .fakes import FakeEvaluator

TINY = Path(__file__).resolve().parents[1] / "fixtures" / "bench" / "tiny"


def test_runs_clean_and_variants_and_scores_against_gold(tmp_path: Path):
    fake = FakeEvaluator(lambda unit, repo: Label.ALIGNED)
    out = tmp_path / "bench.json"
    result = run_bench(TINY, EvalConfig(), variants=6, seed=1, out=out, evaluator=fake)
    assert len(result.runs) == 7 and len(fake.seen) == 7
    assert all(u.gold is None for units in fake.seen for u in units)
    # always answering `aligned` is right exactly on the aligned gold units
    aligned = sum(o.gold == Label.ALIGNED for o in result.outcomes)
    assert result.metrics.accuracy == aligned / len(result.outcomes)
    assert result.clean_metrics.accuracy == 1.0
    assert result.target_metrics.n == 6 and result.target_metrics.accuracy == 0.0
    assert result.metrics.recall_at_k["1"] > 0  # train.py:1-60 overlaps every train.py gold span
    data = json.loads(out.read_text())
    assert data["metrics"]["n"] == len(result.outcomes) == data["counts"]["units"]
    assert "outcomes" not in data and "runs" not in data  # a summary of a few KB, not a per-unit dump
    assert len(out.read_bytes()) < 64_000
    full = json.loads(result.write(out.with_suffix(".full.json"), full=True).read_text())
    assert len(full["outcomes"]) == len(result.outcomes)
    buf = io.StringIO()
    render_table(result, Console(file=buf, width=120))
    assert "accuracy" in buf.getvalue() and "per label" in buf.getvalue()


def test_a_failing_evaluation_is_recorded_and_counted_undecided():
    fake = FakeEvaluator(lambda unit, repo: Label.ALIGNED, fail_on="stub--meth-002")
    result = run_bench(TINY, EvalConfig(), variants=None, seed=0, evaluator=fake)
    assert len(result.errors) == 1 and "evaluator exploded" in result.errors[0]
    failed = [o for o in result.outcomes if o.variant_id == "tiny--stub--meth-002"]
    assert failed and all(o.pred == Label.UNDECIDED for o in failed)


def test_zero_variants_runs_clean_cases_only():
    fake = FakeEvaluator(lambda unit, repo: Label.UNDECIDED)
    result = run_bench(TINY, EvalConfig(), variants=0, evaluator=fake)
    assert [r.id for r in result.runs] == ["tiny"]
    assert result.metrics.undecided_share == 1.0
