"""Verdicts -> one result per unit, and agreement across judges for the report.

Policy:

1. Abstentions carry no vote. With no vote at all the unit is `undecided`
   (`decided_by="none"`, no score).
2. Certain static verdicts (a value found and compared, a `NotImplementedError`
   body) outrank every other vote. If certain verdicts disagree, the one with
   the highest confidence wins, ties going to the finding over `aligned`
   (mismatched > stubbed > misattributed > missing > aligned), and the unit
   needs review.
3. Otherwise every vote counts with weight `confidence x ModelSpec.weight`
   (static judges weigh 1.0); the label with the largest total wins, ties
   broken by the same order.
4. `agreement` is the share of votes for the final label; `confidence` is the
   mean confidence of the winning votes times the winning share of the weight.
   The unit `needs_review` when agreement is below `config.review_agreement`,
   confidence below `config.review_confidence`, or certain verdicts disagree.
5. `rule` is the code of the most confident winning vote's rule.
   `score` is the mean SA-Bench score of the winning votes (the label's default
   level when none gave one). `decided_by` is `static` when only static judges
   voted for the winner, else `llm`.
6. Judge errors are kept in the verdicts and summarized in `error`; they never
   fail the unit.
7. Abstentions that lean (`Verdict.lean`) carry no vote here either.

This is the hand-set aggregate. With calibration on (the default), the calibrated
judge (`sa_align.calibrate.policy`) starts from its result and decides by the
model's probability which label stands.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from sa_align.config import EvalConfig
from sa_align.models import LABEL_SCORES, Candidate, CodeSpan, Label, Unit, UnitResult, Verdict
from sa_align.prose import choose_reasons

LLM_JUDGE = "llm"
REASON_BUDGET = 500
"""Characters of an undecided unit's reason: the judges' abstention reasons, whole, while they fit."""
TIE_ORDER = [Label.MISMATCHED, Label.STUBBED, Label.MISATTRIBUTED, Label.MISSING, Label.ALIGNED]


def _weight(v: Verdict, config: EvalConfig) -> float:
    if v.judge != LLM_JUDGE or not v.model:
        return 1.0
    model = v.model.rsplit("#", 1)[0]
    spec = next((s for s in config.judges if s.model == model), None)
    return spec.weight if spec is not None else 1.0


def _pick(totals: dict[Label, float]) -> Label:
    return max(totals, key=lambda lb: (round(totals[lb], 9), -TIE_ORDER.index(lb)))


def _evidence(winners: list[Verdict]) -> list[CodeSpan]:
    out: list[CodeSpan] = []
    for v in sorted(winners, key=lambda v: -v.confidence):
        for span in v.evidence:
            if span not in out:
                out.append(span)
    return out[:10]


def aggregate(unit: Unit, verdicts: list[Verdict], candidates: list[Candidate], config: EvalConfig) -> UnitResult:
    """The unit's final label, score, confidence, agreement and review flag (see module docstring)."""
    votes = [v for v in verdicts if not v.abstained and v.label != Label.UNDECIDED]
    errors = [f"{v.judge}{'(' + v.model + ')' if v.model else ''}: {v.error}" for v in verdicts if v.error]
    error = "; ".join(errors) or None
    base = dict(unit=unit, verdicts=list(verdicts), candidates=list(candidates), error=error)
    if not votes:
        # Whole reasons, one per judge, as many as a report line holds (`sa_align.prose`).
        why = choose_reasons((v.reason for v in verdicts), REASON_BUDGET)
        return UnitResult(label=Label.UNDECIDED, reason=why or "no judge could decide", **base)
    certain = [v for v in votes if v.certain]
    pool = certain or votes
    conflict = len({v.label for v in certain}) > 1
    totals: dict[Label, float] = defaultdict(float)
    for v in pool:
        totals[v.label] += max(v.confidence, 1e-6) * _weight(v, config)
    label = _pick(totals)
    winners = [v for v in pool if v.label == label]
    share = totals[label] / sum(totals.values())
    confidence = round(sum(v.confidence for v in winners) / len(winners) * share, 4)
    agreement = round(sum(1 for v in votes if v.label == label) / len(votes), 4)
    scores = [v.score for v in winners if v.score is not None]
    score = sum(scores) / len(scores) if scores else LABEL_SCORES.get(label)
    decided_by = "llm" if any(v.judge == LLM_JUDGE for v in winners) else "static"
    needs_review = conflict or agreement < config.review_agreement or confidence < config.review_confidence
    best = max(winners, key=lambda v: v.confidence)
    return UnitResult(
        label=label, score=None if score is None else round(score, 4), confidence=confidence,
        decided_by=decided_by, agreement=agreement, needs_review=needs_review,
        evidence=_evidence(winners), reason=best.reason, rule=best.rule, **base,
    )


def fleiss_kappa(results: Iterable[UnitResult], *, llm_only: bool = False) -> float | None:
    """Fleiss' kappa of the labels judges gave the same units (raters may vary per unit).

    Units with fewer than two votes are skipped; `None` when no unit has two
    votes or every vote falls in one category (kappa is undefined then).
    """
    rows: list[dict[Label, int]] = []
    for r in results:
        counts: dict[Label, int] = defaultdict(int)
        for v in r.verdicts:
            if v.abstained or v.label == Label.UNDECIDED or (llm_only and v.judge != LLM_JUDGE):
                continue
            counts[v.label] += 1
        if sum(counts.values()) >= 2:
            rows.append(counts)
    if not rows:
        return None
    total = sum(sum(c.values()) for c in rows)
    categories = {lb for c in rows for lb in c}
    p_e = sum((sum(c.get(lb, 0) for c in rows) / total) ** 2 for lb in categories)
    p_bar = sum(
        (sum(n * n for n in c.values()) - sum(c.values())) / (sum(c.values()) * (sum(c.values()) - 1)) for c in rows
    ) / len(rows)
    if p_e >= 1.0:
        return None
    return round((p_bar - p_e) / (1.0 - p_e), 4)
