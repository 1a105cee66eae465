"""Counts and averages over unit results."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from sa_align.models import Label, Summary, UnitKind, UnitResult


def summarize(results: Sequence[UnitResult], *, has_code: bool = True) -> Summary:
    """Per-label and per-kind counts, the weighted mean SA-Bench score, and coverage without a model.

    Undecided units are left out of the mean score: an unjudged unit is neither
    faithful nor drifted, and counting it either way would bias the number. `has_code`
    is False when the repository held no code or configuration file.
    """
    counts = Counter(r.label.value for r in results)
    by_kind: dict[str, dict[str, int]] = {}
    for kind in UnitKind:
        kc = Counter(r.label.value for r in results if r.unit.kind == kind)
        if kc:
            by_kind[kind.value] = dict(sorted(kc.items()))
    decided = [r for r in results if r.label != Label.UNDECIDED and r.score is not None]
    weight = sum(r.unit.weight for r in decided)
    mean = sum(r.score * r.unit.weight for r in decided) / weight if weight > 0 else None
    static = sum(1 for r in results if r.decided_by == "static")
    expected = [(r.calibration.expected_score, r.unit.weight) for r in results
                if r.calibration is not None and r.calibration.expected_score is not None]
    expected_weight = sum(w for _e, w in expected)
    calls = [r.next_step_calls for r in results if r.label == Label.UNDECIDED and r.next_step_calls]
    return Summary(
        n_units=len(results),
        counts={label.value: counts.get(label.value, 0) for label in Label},
        by_kind=by_kind,
        mean_score=round(mean, 4) if mean is not None else None,
        expected_score=round(sum(e * w for e, w in expected) / expected_weight, 4) if expected_weight > 0 else None,
        decided=sum(1 for r in results if r.label != Label.UNDECIDED),
        decided_without_llm=round(static / len(results), 4) if results else None,
        needs_review=sum(1 for r in results if r.needs_review),
        judge_errors=sum(1 for r in results if r.error),
        fleiss_kappa=_kappa(results),
        undecided_ids=[r.unit.id for r in results if r.label == Label.UNDECIDED],
        decidable_by_llm=len(calls),
        llm_calls_to_decide=sum(calls),
        has_code=has_code,
    )


def _kappa(results: Sequence[UnitResult]) -> float | None:
    try:
        from sa_align.judges.aggregate import fleiss_kappa
    except ImportError:
        return None
    value = fleiss_kappa(list(results))
    return None if value is None else round(value, 4)
