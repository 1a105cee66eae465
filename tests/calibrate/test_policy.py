"""The calibrated aggregate: when the probability lifts, keeps, leaves for review or follows evidence."""

from __future__ import annotations

from sa_align.calibrate.policy import calibrated_result
from sa_align.config import EvalConfig
from sa_align.judges import aggregate
from sa_align.judges.base import abstain, decide, lean
from sa_align.models import Calibration, Candidate, CodeSpan, Label, Unit

UNIT = Unit(id="u", kind="method", claim="Gradients are clipped to norm 1.0 before the optimizer step")
CAND = Candidate(span=CodeSpan(path="train.py", start_line=10, end_line=20, symbol="step"), score=0.05,
                 why=["bm25:clip,grad"], focus_line=12)
CONFIG = EvalConfig(calibration={"band": (0.2, 0.5)})


def _result(verdicts, p: float, candidates=(CAND,)):
    hand = aggregate(UNIT, list(verdicts), list(candidates), CONFIG)
    return calibrated_result(hand, Calibration(probability=p, expected_score=0.8 if p > 0.5 else 0.2), CONFIG)


def test_a_high_probability_lifts_an_undecided_unit_citing_its_candidate():
    r = _result([abstain("stub", "not a placeholder")], 0.8)
    assert r.label == Label.ALIGNED and r.confidence == 0.8 and r.score == 0.75
    assert r.evidence[0].path == "train.py" and "probability 0.80" in r.reason
    assert r.calibration.applied == "aligned" and not r.needs_review


def test_no_lift_without_a_located_candidate():
    r = _result([abstain("stub", "nothing")], 0.9, candidates=())
    assert r.label == Label.UNDECIDED and r.needs_review


def test_a_failure_a_judge_found_stands_against_a_high_probability_and_asks_for_review():
    r = _result([decide("values", Label.MISSING, "1.0 occurs nowhere", rule="VAL003", confidence=0.65)], 0.7)
    assert r.label == Label.MISSING and r.needs_review and r.calibration.applied == "evidence"


def test_inside_the_band_the_unit_is_left_for_review():
    r = _result([decide("values", Label.MISSING, "1.0 occurs nowhere", rule="VAL003", confidence=0.65)], 0.3)
    assert r.label == Label.UNDECIDED and r.needs_review and r.score is None
    assert "unsure" in r.reason and "uncalibrated: missing" in r.reason


def test_a_strong_failure_stands_inside_the_band_flagged_for_review():
    r = _result([decide("missing", Label.MISSING, "no code defines `FocalLoss`", rule="MIS004", confidence=0.85)], 0.3)
    assert r.label == Label.MISSING and r.needs_review and r.calibration.applied == "evidence"
    below = _result([decide("missing", Label.MISSING, "no code defines `FocalLoss`", rule="MIS004", confidence=0.85)], 0.03)
    assert below.label == Label.MISSING and not below.needs_review


def test_a_value_the_numeric_judge_compared_stands_inside_the_band_whatever_its_confidence():
    r = _result([decide("numeric", Label.MISMATCHED, "`lr` is 0.02 where the paper says 0.01", rule="NUM005", confidence=0.5)], 0.3)
    assert r.label == Label.MISMATCHED and r.needs_review and r.calibration.applied == "evidence"


def test_a_certain_finding_is_never_overruled():
    certain = decide("stub", Label.STUBBED, "raise NotImplementedError", rule="STB002", confidence=0.95, certain=True)
    r = _result([certain], 0.99)
    assert r.label == Label.STUBBED and r.calibration.applied == "certain"


def test_below_the_band_the_failure_evidence_decides():
    r = _result([decide("values", Label.MISMATCHED, "2 of 3 values absent", rule="VAL002", confidence=0.5, score=0.5),
                 abstain("stub", "not a placeholder")], 0.03)
    # The judge said 0.5 (a key omission); the model expects 0.2, so the label's nearest level is 0.25.
    assert r.label == Label.MISMATCHED and r.score == 0.25 and r.calibration.applied == "evidence"
    assert len(r.verdicts) == 2  # every verdict stays on record


def test_a_certain_finding_keeps_its_judges_grade_and_others_take_the_nearest_level_of_their_label():
    hand = aggregate(UNIT, [decide("stub", Label.STUBBED, "constant stand-in", rule="STB002", confidence=0.9, certain=True, score=0.25)],
                     [CAND], CONFIG)
    assert calibrated_result(hand, Calibration(probability=0.01, expected_score=0.02), CONFIG).score == 0.25
    hand = aggregate(UNIT, [decide("values", Label.MISMATCHED, "absent", rule="VAL002", confidence=0.5, score=0.25)], [CAND], CONFIG)
    assert calibrated_result(hand, Calibration(probability=0.01, expected_score=0.45), CONFIG).score == 0.5


def test_judges_that_disagree_decide_by_their_own_aggregate_flagged_for_review():
    r = _result([decide("protocol", Label.ALIGNED, "uses CIFAR-10", rule="PRO001", confidence=0.8),
                 decide("values", Label.MISMATCHED, "50000 occurs nowhere", rule="VAL002", confidence=0.55, score=0.25)], 0.03)
    assert r.label == Label.ALIGNED and r.needs_review and r.calibration.applied == "evidence"


def test_below_the_band_a_failure_lean_becomes_the_label_with_its_reason():
    r = _result([lean("missing", Label.MISSING, "1 of the claim's 6 words occur", rule="MIS003", confidence=0.4)], 0.05)
    assert r.label == Label.MISSING and r.confidence == 0.95 and r.calibration.applied == "lean"
    assert "missing: 1 of the claim's 6 words occur" in r.reason


def test_below_the_band_without_any_failure_evidence_the_unit_stays_undecided():
    r = _result([abstain("missing", "claim words occur")], 0.05)
    assert r.label == Label.UNDECIDED and not r.needs_review and r.calibration.applied == "abstain"


def test_an_llm_vote_decides_a_unit_the_model_sent_to_it():
    llm = decide("llm", Label.ALIGNED, "clips at 1.0", rule="LLM001", confidence=0.9).model_copy(update={"model": "m"})
    r = _result([llm], 0.35)
    assert r.label == Label.ALIGNED and r.calibration.applied == "llm"


def test_without_a_probability_the_hand_set_aggregate_stands():
    hand = aggregate(UNIT, [decide("values", Label.MISSING, "absent", rule="VAL003", confidence=0.65)], [CAND], CONFIG)
    r = calibrated_result(hand, Calibration(), CONFIG)
    assert r.label == Label.MISSING and r.calibration is not None and r.calibration.probability is None


def test_the_uncalibrated_reason_quoted_in_an_undecided_unit_ends_at_a_boundary():
    reasons = ["`ClassificationHead.__init__` is neither a placeholder nor unreachable",
               "a hinted identifier occurs in the code",
               "no known variant/prior-method pair applies; left to the LLM judges",
               "values the claim states occur in the code (256, 3)"]
    r = _result([abstain(f"j{i}", reason) for i, reason in enumerate(reasons)], 0.1)
    assert r.label == Label.UNDECIDED
    quoted = r.reason.split("uncalibrated: undecided (", 1)[1].rstrip(")")
    assert len(quoted) <= 200 and quoted.endswith("…")
    assert quoted.rstrip("…") in "; ".join(reasons)
    assert "left to the LL)" not in r.reason
