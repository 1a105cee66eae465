from __future__ import annotations

import pytest

from sa_align.bench.sabench.metrics import claim_metrics, confusion, run_metrics, run_score
from sa_align.bench.sabench.runner import ClaimOutcome, RunRecord
from sa_align.models import Label


def _o(dim, ref, label, score):
    return ClaimOutcome(claim_id="c", dimension=dim, reference=ref, label=label, score=score)


def test_kappa_is_computed_over_decided_claims_only():
    outcomes = [
        _o("D1", 1.0, Label.ALIGNED, 1.0),
        _o("D1", 0.75, Label.ALIGNED, 1.0),
        _o("D1", 0.25, Label.MISMATCHED, 0.25),
        _o("D1", 0.0, Label.MISSING, 0.0),
        _o("D1", 0.0, Label.ALIGNED, 1.0),
        _o("D2", 1.0, Label.UNDECIDED, None),
    ]
    m = claim_metrics(outcomes)
    assert (m.claims, m.decided, m.coverage) == (6, 5, pytest.approx(5 / 6, abs=1e-4))
    # truth 1,1,0,0,0 vs pred 1,1,0,0,1: po = 0.8, pe = 0.4*0.6 + 0.6*0.4 = 0.48
    assert m.kappa_label == pytest.approx((0.8 - 0.48) / 0.52, abs=1e-4)
    assert m.roc_auc == pytest.approx(5 / 6, abs=1e-4)
    assert m.mean_abs_error == pytest.approx((0 + 0.25 + 0 + 0 + 1) / 5, abs=1e-4)


def test_a_judge_that_never_says_aligned_gets_no_credit_for_plain_agreement():
    outcomes = [_o("D3", 0.25, Label.MISSING, 0.0)] * 9 + [_o("D3", 1.0, Label.MISSING, 0.0)]
    m = claim_metrics(outcomes)
    assert m.accuracy == 0.9 and m.kappa_label == 0.0 and m.roc_auc == 0.5


def test_run_score_is_the_mean_of_dimension_means_and_ranks_against_line_count():
    outcomes = [_o("D1", 1, Label.ALIGNED, 1.0), _o("D1", 1, Label.MISSING, 0.0), _o("D2", 1, Label.ALIGNED, 1.0),
                _o("D3", 1, Label.UNDECIDED, None)]
    assert run_score(outcomes) == pytest.approx(0.75)
    records = [
        RunRecord(id=f"s{i}/p", setup=f"s{i}", paper="p", reference_score=ref, python_lines=lines, seconds=1.0,
                  outcomes=[_o("D1", ref, Label.ALIGNED if ours else Label.MISSING, ours)])
        for i, (ref, ours, lines) in enumerate([(0.1, 0.0, 300), (0.5, 0.5, 200), (0.9, 1.0, 100)])
    ]
    m = run_metrics(records)
    assert m.runs == 3 and m.spearman == pytest.approx(1.0) and m.spearman_lines == pytest.approx(-1.0)
    assert m.median_seconds == 1.0 and m.mean_coverage == 1.0


def test_confusion_counts_every_claim_by_label_and_level():
    table = confusion([_o("D1", 0.25, Label.UNDECIDED, None), _o("D1", 0.25, Label.MISSING, 0.0)])
    assert table["undecided"]["0.25"] == 1 and table["missing"]["0.25"] == 1 and table["aligned"]["1"] == 0


def test_probability_metrics_against_the_base_rate_and_calibration_error():
    from sa_align.bench.sabench.metrics import expected_run_score, probability_metrics

    outcomes = [ClaimOutcome(claim_id=f"c{i}", dimension="D1", reference=ref, label=Label.UNDECIDED, score=None,
                             probability=p, expected_score=e)
                for i, (ref, p, e) in enumerate([(1.0, 0.9, 0.9), (0.0, 0.1, 0.1), (0.0, 0.1, 0.2), (0.75, 0.7, 0.7)])]
    m = probability_metrics(outcomes)
    assert (m.claims, m.base_rate, m.roc_auc) == (4, 0.5, 1.0)
    assert m.brier == pytest.approx((0.01 + 0.01 + 0.01 + 0.09) / 4, abs=1e-4) and m.brier_base == 0.25
    assert m.brier_skill == pytest.approx(1 - 0.03 / 0.25, abs=1e-4)
    # bins: 0.1 (two claims, none faithful), 0.7 (faithful), 0.9 (faithful): |0-0.1|*2 + 0.3 + 0.1 over 4
    assert m.ece == pytest.approx((0.2 + 0.3 + 0.1) / 4, abs=1e-4)
    assert expected_run_score(outcomes) == pytest.approx(0.475)
    assert probability_metrics([_o("D1", 1.0, Label.ALIGNED, 1.0)]).claims == 0


def test_claims_the_reference_scored_on_files_the_run_lacks_are_also_left_out_in_a_figure_of_their_own():
    from sa_align.bench.sabench.metrics import sabench_metrics
    from sa_align.bench.sabench import SABenchResult

    seen = [_o("D1", 1.0, Label.ALIGNED, 1.0), _o("D1", 0.0, Label.MISSING, 0.0)]
    unseen = [ClaimOutcome(claim_id="u", dimension="D1", reference=1.0, reference_unseen=True,
                           label=Label.MISSING, score=0.0)]
    m = sabench_metrics([RunRecord(id="s/p", setup="s", paper="p", outcomes=seen + unseen)])
    assert (m.unseen, m.overall.claims, m.seen.claims) == (1, 3, 2)
    assert m.seen.kappa_label == 1.0 and m.overall.kappa_label < 1.0
    text = SABenchResult(dataset="d", commit="c", license="l", metrics=m).markdown()
    assert "| reference read only files the run holds | 2 |" in text and "1 of 3 claims (33%)" in text
