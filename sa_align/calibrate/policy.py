"""The calibrated aggregate: how the model's probability turns the judges' votes into a label.

In this order:

1. A certain static finding (a value compared where it takes effect, a
   `NotImplementedError` body) is never overruled, and neither is a label LLM
   judges voted for (they were asked because the model was unsure).
2. At or above the band's top, the unit is lifted to `aligned`, with the
   probability as its confidence, only when a located candidate is cited as its
   evidence and no judge found a failure; with a failure found, the judges' own
   aggregate stands and the unit needs review. A lift whose best candidate's line
   only declares settings no code reads (a config key, a constant no code names)
   is held: the unit stays `undecided` for review.
3. Where judges disagree (an `aligned` vote beside a failure) and the failure
   would stand (below the band, or a strong failure), their own aggregate decides
   and the unit needs review.
4. A strong failure vote stands: confidence at least `calibration.strong_failure`
   (such as an identifier the unit names being absent), or any failure of a judge
   in `calibration.standing_judges` (the numeric judge's value comparisons); inside
   the band it is flagged for review.
5. Otherwise, inside the band the unit is `undecided` and needs review: this is
   where an LLM judge should look.
6. Below the band the label follows the judges' failure evidence (`stubbed`,
   `mismatched`, `missing`, ...). Without a failure vote, a judge's failure lean
   (`Verdict.lean`: weak evidence such as stated values absent from the code,
   which alone never decides) becomes the label, since the model is sure the
   claim is not implemented faithfully and the lean says how; with neither, the
   unit stays `undecided` rather than getting a failure label without evidence
   (with LLM judges configured, such units are sent to them: `Calibrator.wants_llm`).

Rule codes (`units/rules/rules.yaml`): the lift is `CAL001`, a lean made the label `CAL002`, the
band `CAL003`, the abstention below the band `CAL004`, the held lift `CAL005`; a kept or failure-evidence label keeps the code
of the judge's rule. A step the run switched off (`config.rules`) is not taken.

A decided unit's score is then the level of its label nearest the model's expected
score (`_graded`), except for certain findings and LLM votes, which keep theirs.
"""

from __future__ import annotations

from sa_align.config import EvalConfig
from sa_align.judges.aggregate import TIE_ORDER, aggregate
from sa_align.judges.routing import label_levels
from sa_align.models import LABEL_SCORES, Calibration, Label, UnitResult, Verdict
from sa_align.prose import shorten
from sa_align.rules.policy import enabled

UNDECIDED_RULES = {"band": "CAL003", "abstain": "CAL004", "unread": "CAL005"}
"""The codes of the steps that leave a unit `undecided` (`units/rules/rules.yaml`)."""


def calibrated_result(hand: UnitResult, cal: Calibration, config: EvalConfig) -> UnitResult:
    """The unit's result under the calibrated policy (see module docstring), graded by the model."""
    return _graded(_labelled(hand, cal, config))


def _graded(result: UnitResult) -> UnitResult:
    """The label's level nearest the model's expected score (`levels` in `units/kinds.yaml`).

    A certain finding and an LLM judge's vote keep the level their judge gave: each was graded on
    the evidence itself. On the development split, grading the rest this way raised the ROC AUC of
    the score over decided claims from 0.737 to 0.775 and cut its mean error from 0.217 to 0.142.
    """
    cal = result.calibration
    if cal is None or cal.expected_score is None or cal.applied in ("certain", "llm"):
        return result
    levels = label_levels().get(result.label.value)
    if not levels or result.score is None:
        return result
    expected = cal.expected_score
    return result.model_copy(update={"score": min(levels, key=lambda level: (abs(level - expected), -level))})


def _labelled(hand: UnitResult, cal: Calibration, config: EvalConfig) -> UnitResult:
    p = cal.probability
    if p is None:
        return hand.model_copy(update={"calibration": cal})
    low, high = config.calibration.band
    votes = [v for v in hand.verdicts if not v.abstained and v.label != Label.UNDECIDED]
    failures = [v for v in votes if v.label != Label.ALIGNED]
    if any(v.certain for v in votes):
        return _keep(hand, cal, "certain")
    if any(v.judge == "llm" for v in votes):
        return _keep(hand, cal, "llm")
    if p >= high:
        if failures:
            disagrees = hand.label != Label.ALIGNED
            note = f"; the calibrated judge disagrees (probability {p:.2f} of faithful)" if disagrees else ""
            return _keep(hand, cal, "evidence", review=True, note=note)
        if hand.candidates and cal.candidate_unread and enabled("CAL005", config.rules):
            return _undecided(hand, cal, "unread", f"the calibrated judge leans faithful (probability {p:.2f}), but its "
                              f"best candidate only declares settings no code reads: {cal.candidate_unread}", review=True)
        if hand.candidates and enabled("CAL001", config.rules):
            return _lift(hand, cal)
    if failures and len(failures) < len(votes) and (p <= low or _strong(failures, config)):
        # Judges disagree (something located, something wrong): their own aggregate decides, for review.
        return _keep(hand, cal, "evidence", review=True)
    if _strong(failures, config):
        return _failure(hand, failures, cal, config, review=p > low)
    if (low < p < high or (p >= high and not hand.candidates)) and enabled("CAL003", config.rules):
        return _undecided(hand, cal, "band", f"the calibrated judge is unsure (probability {p:.2f} of faithful)", review=True)
    if failures:
        return _failure(hand, failures, cal, config)
    leans = [v for v in hand.verdicts if v.abstained and v.lean is not None and v.lean != Label.ALIGNED]
    if leans and enabled("CAL002", config.rules):
        return _leaned(hand, leans, cal)
    if not enabled("CAL004", config.rules):
        return _keep(hand, cal, "none")  # the veto switched off: the judges' own aggregate stands
    return _undecided(hand, cal, "abstain", f"the calibrated judge leans unfaithful (probability {p:.2f}), but no judge found a failure to show")


def _strong(failures: list[Verdict], config: EvalConfig) -> bool:
    settings = config.calibration
    return any(v.confidence >= settings.strong_failure or v.judge in settings.standing_judges for v in failures)


def _keep(hand: UnitResult, cal: Calibration, how: str, *, review: bool = False, note: str = "") -> UnitResult:
    cal = cal.model_copy(update={"applied": how})
    return hand.model_copy(update={"calibration": cal, "needs_review": hand.needs_review or review,
                                   "reason": hand.reason + note})


def _lift(hand: UnitResult, cal: Calibration) -> UnitResult:
    p = float(cal.probability or 0.0)
    best = hand.candidates[0]
    aligned = [v for v in hand.verdicts if not v.abstained and v.label == Label.ALIGNED]
    evidence = [best.span, *[s for v in aligned for s in v.evidence if s != best.span]][:10]
    where = f"{best.span.path}:{best.focus_line or best.span.start_line}"
    reason = (f"calibrated judge: probability {p:.2f} that the claim is implemented faithfully; "
              f"best candidate {where} ({', '.join(best.why[:3])})")
    votes = [v for v in hand.verdicts if not v.abstained]
    return hand.model_copy(update={
        "label": Label.ALIGNED, "score": LABEL_SCORES[Label.ALIGNED], "confidence": round(p, 4), "decided_by": "static",
        "agreement": round(len(aligned) / len(votes), 4) if votes else None, "needs_review": False,
        "evidence": evidence, "reason": reason, "rule": "CAL001",
        "calibration": cal.model_copy(update={"applied": "aligned"}),
    })


def _undecided(hand: UnitResult, cal: Calibration, how: str, why: str, *, review: bool = False) -> UnitResult:
    return hand.model_copy(update={
        "label": Label.UNDECIDED, "score": None, "confidence": 0.0, "decided_by": "none", "agreement": None,
        "needs_review": review, "evidence": [], "rule": UNDECIDED_RULES[how],
        "reason": f"{why}; uncalibrated: {hand.label.value}" + (f" ({shorten(hand.reason, 200)})" if hand.reason else ""),
        "calibration": cal.model_copy(update={"applied": how}),
    })


def _leaned(hand: UnitResult, leans: list[Verdict], cal: Calibration) -> UnitResult:
    """The model is sure the claim is not faithful; the strongest failure lean says how."""
    best = max(leans, key=lambda v: (v.confidence, -TIE_ORDER.index(v.lean)))
    p = float(cal.probability or 0.0)
    return hand.model_copy(update={
        "label": best.lean, "score": best.score, "confidence": round(1.0 - p, 4), "decided_by": "static",
        "agreement": None, "needs_review": False, "evidence": list(best.evidence), "rule": "CAL002",
        "reason": f"calibrated judge: probability {p:.2f} that the claim is implemented faithfully; {best.judge}: {best.reason}",
        "calibration": cal.model_copy(update={"applied": "lean"}),
    })


def _failure(hand: UnitResult, failures: list[Verdict], cal: Calibration, config: EvalConfig,
             review: bool = False) -> UnitResult:
    """The judges' failure evidence alone decides (their `aligned` votes were outweighed by the model)."""
    kept = [v for v in hand.verdicts if v.abstained or v.label != Label.ALIGNED]
    result = aggregate(hand.unit, kept, hand.candidates, config)
    return result.model_copy(update={"verdicts": hand.verdicts, "needs_review": result.needs_review or review,
                                     "calibration": cal.model_copy(update={"applied": "evidence"})})
