"""Aggregation policy and Fleiss' kappa."""

from __future__ import annotations

import pytest

from sa_align.config import EvalConfig, ModelSpec
from sa_align.judges import aggregate, fleiss_kappa
from sa_align.models import Label, Unit, UnitResult, Verdict

UNIT = Unit(id="u", kind="method", claim="A claim.")
CFG = EvalConfig(judges=[ModelSpec(model="openai/a", samples=3), ModelSpec(model="openai/b", samples=3, weight=2.0)])


def v(label: Label, *, judge="llm", model=None, conf=0.8, certain=False, score=None, abstained=False, error=None):
    return Verdict(judge=judge, model=model, label=label, confidence=conf, certain=certain, score=score,
                   abstained=abstained, error=error)


def test_no_votes_is_undecided():
    r = aggregate(UNIT, [v(Label.UNDECIDED, judge="stub", abstained=True)], [], CFG)
    assert r.label == Label.UNDECIDED and r.decided_by == "none" and r.score is None and r.agreement is None


def test_certain_static_verdict_outranks_llm_votes():
    votes = [v(Label.ALIGNED, model=f"openai/a#{i}") for i in range(1, 4)]
    r = aggregate(UNIT, [v(Label.STUBBED, judge="stub", certain=True, conf=0.95), *votes], [], CFG)
    assert r.label == Label.STUBBED and r.decided_by == "static"
    assert r.agreement == 0.25 and r.needs_review


def test_weighted_majority_uses_model_weight():
    votes = [v(Label.ALIGNED, model=f"openai/a#{i}") for i in (1, 2)] + [v(Label.MISMATCHED, model="openai/b#1", score=0.5)]
    r = aggregate(UNIT, votes, [], CFG)
    # two votes of weight 1 (1.6) lose to one vote of weight 2 (1.6)? a tie goes to the finding
    assert r.label == Label.MISMATCHED and r.score == 0.5 and r.decided_by == "llm"
    assert r.agreement == pytest.approx(1 / 3, abs=1e-3) and r.needs_review


def test_unanimous_votes_need_no_review_and_errors_are_kept():
    votes = [v(Label.ALIGNED, model=f"openai/a#{i}", score=0.75) for i in (1, 2, 3)]
    failed = v(Label.UNDECIDED, model="openai/b#1", abstained=True, error="LLMGiveUp: no valid reply")
    r = aggregate(UNIT, [*votes, failed], [], CFG)
    assert r.label == Label.ALIGNED and r.agreement == 1.0 and not r.needs_review
    assert r.score == 0.75 and r.confidence == pytest.approx(0.8)
    assert "LLMGiveUp" in (r.error or "")


def test_low_confidence_needs_review():
    r = aggregate(UNIT, [v(Label.MISSING, judge="missing", conf=0.4)], [], CFG)
    assert r.label == Label.MISSING and r.needs_review and r.score == 0.0


def _result(labels: list[Label]) -> UnitResult:
    verdicts = [v(lb, model=f"openai/a#{i}") for i, lb in enumerate(labels, 1)]
    return aggregate(UNIT, verdicts, [], CFG)


def test_fleiss_kappa():
    agree = [_result([Label.ALIGNED] * 3), _result([Label.MISSING] * 3)]
    assert fleiss_kappa(agree) == 1.0
    # Worked example: 4 units x 3 raters.
    mixed = [_result([Label.ALIGNED, Label.ALIGNED, Label.MISSING]), _result([Label.ALIGNED] * 3),
             _result([Label.MISSING, Label.MISSING, Label.ALIGNED]), _result([Label.MISSING] * 3)]
    # P_i = 1/3, 1, 1/3, 1 -> P̄ = 2/3; p = (.5, .5) -> P_e = .5; kappa = (2/3 - .5) / .5 = 1/3
    assert fleiss_kappa(mixed) == pytest.approx(1 / 3, abs=1e-3)
    assert fleiss_kappa([_result([Label.ALIGNED])]) is None
    assert fleiss_kappa([_result([Label.ALIGNED] * 3)]) is None


def test_an_undecided_units_reason_keeps_whole_reasons_and_no_word_is_cut():
    reasons = [f"`judge_{i}_name` abstained because the unit names identifier number {i} nowhere in the code"
               for i in range(12)]
    verdicts = [v(Label.UNDECIDED, judge=f"j{i}", abstained=True) for i in range(12)]
    for verdict, reason in zip(verdicts, reasons):
        verdict.reason = reason
    verdicts.append(v(Label.UNDECIDED, judge="again", abstained=True))
    verdicts[-1].reason = reasons[0]  # a repeated reason is said once
    r = aggregate(UNIT, verdicts, [], CFG)
    assert len(r.reason) <= 500 and r.reason.count(reasons[0]) == 1
    shown = r.reason.split(" (and ")[0].split("; ")
    assert all(part in reasons for part in shown)  # every reason shown is whole
    assert r.reason.endswith(f"(and {12 - len(shown)} more in the verdicts)")
