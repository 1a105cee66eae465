"""Metrics on a small input whose values are worked out by hand below."""

from __future__ import annotations

import pytest

from sa_align.bench.metrics import Outcome, compute_metrics, recall_at_k
from sa_align.models import CodeSpan, Label, UnitKind

A, M, S, X, U = Label.ALIGNED, Label.MISMATCHED, Label.STUBBED, Label.MISSING, Label.UNDECIDED
N, ME, P = UnitKind.NUMERICAL, UnitKind.METHOD, UnitKind.PROTOCOL


def _o(i: int, kind, gold, pred, gold_spans=(), cands=()) -> Outcome:
    return Outcome(case_id="c", variant_id="c", unit_id=f"u{i}", kind=kind, gold=gold, pred=pred,
                   gold_spans=list(gold_spans), candidates=list(cands))


def _span(path: str, a: int, b: int) -> CodeSpan:
    return CodeSpan(path=path, start_line=a, end_line=b)


@pytest.fixture
def outcomes() -> list[Outcome]:
    return [
        _o(1, N, A, A, [_span("a.py", 10, 12)], [_span("b.py", 1, 1), _span("a.py", 12, 20)]),
        _o(2, N, A, M),
        _o(3, N, M, M, [_span("c.py", 5, 5)], [_span("c.py", 5, 5)]),
        _o(4, ME, S, U),
        _o(5, ME, X, X),
        _o(6, P, A, A),
    ]


def test_label_agreement(outcomes):
    m = compute_metrics(outcomes, ks=(1, 3))
    # 4 of 6 equal gold; of the 5 decided, 4 are right; 1 of 6 undecided.
    assert m.accuracy == pytest.approx(4 / 6)
    assert m.accuracy_decided == pytest.approx(4 / 5)
    assert m.undecided_share == pytest.approx(1 / 6)
    # aligned: gold 3, predicted 2 (both right) -> P 1, R 2/3, F1 0.8
    assert m.per_label["aligned"].precision == pytest.approx(1.0)
    assert m.per_label["aligned"].recall == pytest.approx(2 / 3)
    assert m.per_label["aligned"].f1 == pytest.approx(0.8)
    # mismatched: gold 1, predicted 2 -> P 1/2, R 1, F1 2/3
    assert m.per_label["mismatched"].f1 == pytest.approx(2 / 3)
    # stubbed never predicted: precision undefined, recall 0
    assert m.stubbed_precision is None and m.stubbed_recall == 0.0
    assert m.missing_precision == 1.0 and m.missing_recall == 1.0
    # macro-F1 over {aligned, mismatched, stubbed, missing}: (0.8 + 2/3 + 0 + 1) / 4
    assert m.macro_f1 == pytest.approx((0.8 + 2 / 3 + 0 + 1) / 4)
    # balanced accuracy: mean recall per gold label (2/3, 1, 0, 1)
    assert m.balanced_accuracy == pytest.approx((2 / 3 + 1 + 0 + 1) / 4)
    # kappa: po = 4/6, pe = (3*2 + 1*2 + 1*0 + 1*1) / 36 = 1/4 -> (2/3 - 1/4) / (3/4) = 5/9
    assert m.kappa == pytest.approx(5 / 9)
    assert m.confusion["aligned"] == {"aligned": 2, "mismatched": 1}
    assert m.confusion["stubbed"] == {"undecided": 1}


def test_targets_and_per_kind(outcomes):
    m = compute_metrics(outcomes, ks=(1, 3))
    assert m.value_mutation_detection == 1.0  # the one mismatched numerical unit is caught
    assert m.false_flag_rate == 0.5  # one of two clean numerical units flagged
    assert set(m.by_kind) == {"numerical", "method", "protocol"}
    assert m.by_kind["numerical"].n == 3
    assert m.by_kind["numerical"].accuracy == pytest.approx(2 / 3)
    assert m.by_kind["method"].undecided_share == 0.5
    assert m.by_kind["protocol"].kappa is None  # one label everywhere: kappa undefined
    assert m.by_kind["numerical"].by_kind == {}


def test_recall_at_k(outcomes):
    # u1's gold is hit at rank 2, u3's at rank 1; units without gold spans do not count.
    assert recall_at_k(outcomes, ks=(1, 3)) == {"1": 0.5, "3": 1.0}


def test_empty_input():
    m = compute_metrics([])
    assert m.n == 0 and m.accuracy is None


def test_a_held_mismatch_counts_as_held_not_as_detected():
    caught = _o(1, N, M, M)
    held = _o(2, N, M, Label.UNDECIDED).model_copy(update={"held": M})
    quiet = _o(3, N, M, Label.UNDECIDED)
    m = compute_metrics([caught, held, quiet])
    assert m.value_mutation_detection == pytest.approx(1 / 3)
    assert m.value_mutation_held == pytest.approx(1 / 3)
