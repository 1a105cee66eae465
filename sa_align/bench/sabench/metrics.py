"""Agreement with SA-Bench's judge: kappa, coverage, AUC, score error, confusion, run-score ranks.

Plain agreement is never reported alone: about 92% of SA-Bench's claims score
below 0.75, so a judge that never says `aligned` agrees most of the time.
Binary decisions are "faithful" (reference >= 0.75) against our `aligned`, and
against our score >= 0.75; both only over the claims we decided. Run scores are
computed like SA-Bench's `overall_score` (the mean of the dimension means) over
decided claims, and ranked against the reference beside the ranking the
repository's Python line count alone gives on the same runs.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from statistics import mean, median
from typing import Sequence

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.agreement import cohen_kappa
from sa_align.bench.sabench.dataset import tables
from sa_align.bench.sabench.runner import ClaimOutcome, RunRecord
from sa_align.models import Label


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class ClaimMetrics(_Model):
    """Agreement over one set of claims."""

    claims: int = 0
    """Claims in the set."""
    decided: int = 0
    """Claims we labelled other than `undecided`."""
    coverage: float | None = None
    """decided / claims."""
    reference_faithful: int = 0
    """Decided claims the reference scores >= 0.75."""
    said_aligned: int = 0
    """Decided claims we called `aligned`."""
    kappa_label: float | None = None
    """Cohen's kappa of our `aligned` against reference >= 0.75, over decided claims."""
    kappa_score: float | None = None
    """Cohen's kappa of our score >= 0.75 against reference >= 0.75, over decided claims."""
    accuracy: float | None = None
    """Plain agreement of the label decision (never read alone: see kappa)."""
    roc_auc: float | None = None
    """ROC AUC of our score against reference >= 0.75 over decided claims."""
    mean_abs_error: float | None = None
    """Mean |our score - reference level| over decided claims."""


class ProbabilityMetrics(_Model):
    """How well the calibrated judge's probability of faithful predicts reference >= 0.75, over every claim."""

    claims: int = 0
    """Claims with a probability."""
    base_rate: float | None = None
    """Share of those claims the reference scores >= 0.75."""
    roc_auc: float | None = None
    """ROC AUC of the probability."""
    brier: float | None = None
    """Brier score of the probability."""
    brier_base: float | None = None
    """Brier score of always predicting the base rate."""
    brier_skill: float | None = None
    """1 - brier / brier_base: the share of the base rate's error removed."""
    ece: float | None = None
    """Expected calibration error over ten equal-width probability bins."""


class RunMetrics(_Model):
    """Run scores against SA-Bench's `overall_score`."""

    runs: int = 0
    """Runs with at least one decided claim."""
    spearman: float | None = None
    """Spearman of our run scores against the reference run scores."""
    spearman_expected: float | None = None
    """Spearman of run scores from the calibrated judge's expected scores (every claim counts) against the reference."""
    spearman_lines: float | None = None
    """Spearman of the repository's Python line count against the reference run scores, same runs."""
    mean_coverage: float | None = None
    """Mean per-run share of decided claims."""
    median_seconds: float | None = None
    """Median wall time of one run's evaluation."""
    mean_seconds: float | None = None
    """Mean wall time of one run's evaluation."""


class SABenchMetrics(_Model):
    """Every figure over one set of runs (all runs, or the runs of one reference judge model)."""

    overall: ClaimMetrics = Field(default_factory=ClaimMetrics)
    """All claims."""
    by_dimension: dict[str, ClaimMetrics] = Field(default_factory=dict)
    """Per SA-Bench dimension."""
    confusion: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Our label -> reference level -> claims (every claim, undecided included)."""
    run: RunMetrics = Field(default_factory=RunMetrics)
    """Run-level agreement."""
    probability: ProbabilityMetrics = Field(default_factory=ProbabilityMetrics)
    """The calibrated judge's probability, when the runs had one."""
    unseen: int = 0
    """Claims whose reference cites a file the published run lacks (`ClaimOutcome.reference_unseen`)."""
    seen: ClaimMetrics = Field(default_factory=ClaimMetrics)
    """The claim figures over the other claims: those whose reference read only files the run still holds."""
    seen_probability: ProbabilityMetrics = Field(default_factory=ProbabilityMetrics)
    """The probability figures over the same claims."""


def claim_metrics(outcomes: Sequence[ClaimOutcome]) -> ClaimMetrics:
    at = tables().faithful_at
    decided = [o for o in outcomes if o.label != Label.UNDECIDED and o.score is not None]
    m = ClaimMetrics(claims=len(outcomes), decided=len(decided))
    if not outcomes:
        return m
    m.coverage = round(len(decided) / len(outcomes), 4)
    if not decided:
        return m
    truth = [int(o.reference >= at) for o in decided]
    by_label = [int(o.label == Label.ALIGNED) for o in decided]
    by_score = [int(o.score >= at) for o in decided]
    m.reference_faithful, m.said_aligned = sum(truth), sum(by_label)
    m.kappa_label, m.kappa_score = (_round(cohen_kappa(truth, pred, [0, 1])) for pred in (by_label, by_score))
    m.accuracy = round(sum(a == b for a, b in zip(truth, by_label)) / len(truth), 4)
    m.roc_auc = roc_auc(truth, [o.score for o in decided])
    m.mean_abs_error = round(mean(abs(o.score - o.reference) for o in decided), 4)
    return m


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def roc_auc(truth: list[int], scores: list[float]) -> float | None:
    if len(set(truth)) < 2:
        return None
    from sklearn.metrics import roc_auc_score

    return round(float(roc_auc_score(truth, scores)), 4)


def run_score(outcomes: Sequence[ClaimOutcome]) -> float | None:
    """SA-Bench's run score over decided claims: the mean of the dimension means."""
    return _dimension_mean(outcomes, lambda o: o.score if o.label != Label.UNDECIDED else None)


def expected_run_score(outcomes: Sequence[ClaimOutcome]) -> float | None:
    """The run score from the calibrated judge's expected scores: every claim counts, decided or not."""
    return _dimension_mean(outcomes, lambda o: o.expected_score)


def _dimension_mean(outcomes: Sequence[ClaimOutcome], value) -> float | None:
    by_dim: dict[str, list[float]] = defaultdict(list)
    for o in outcomes:
        v = value(o)
        if v is not None:
            by_dim[o.dimension].append(v)
    return mean(mean(v) for v in by_dim.values()) if by_dim else None


def probability_metrics(outcomes: Sequence[ClaimOutcome], bins: int = 10) -> ProbabilityMetrics:
    import numpy as np
    from sklearn.metrics import brier_score_loss

    scored = [o for o in outcomes if o.probability is not None]
    m = ProbabilityMetrics(claims=len(scored))
    if not scored:
        return m
    truth = np.array([int(o.reference >= tables().faithful_at) for o in scored])
    prob = np.array([o.probability for o in scored], dtype=float)
    m.base_rate = round(float(truth.mean()), 4)
    m.roc_auc = roc_auc(truth.tolist(), prob.tolist())
    brier, base = brier_score_loss(truth, prob), brier_score_loss(truth, np.full(len(truth), truth.mean()))
    m.brier, m.brier_base = round(float(brier), 4), round(float(base), 4)
    m.brier_skill = round(1.0 - brier / base, 4) if base > 0 else None
    which = np.minimum((prob * bins).astype(int), bins - 1)
    gaps = [abs(truth[which == b].mean() - prob[which == b].mean()) * (which == b).sum()
            for b in range(bins) if (which == b).any()]
    m.ece = round(float(sum(gaps) / len(truth)), 4)
    return m


def run_metrics(records: Sequence[RunRecord]) -> RunMetrics:
    done = [r for r in records if r.skipped is None and r.reference_score is not None]
    scored = [(r, run_score(r.outcomes)) for r in done]
    scored = [(r, s) for r, s in scored if s is not None]
    m = RunMetrics(runs=len(scored))
    if done:
        m.mean_coverage = round(mean(run_coverage(r) for r in done), 4)
        m.median_seconds = round(median(r.seconds for r in done), 3)
        m.mean_seconds = round(mean(r.seconds for r in done), 3)
    if len(scored) >= 3:
        ref = [r.reference_score for r, _ in scored]
        m.spearman = spearman([s for _, s in scored], ref)
        m.spearman_lines = spearman([float(r.python_lines) for r, _ in scored], ref)
    expected = [(r, expected_run_score(r.outcomes)) for r in done]
    expected = [(r, s) for r, s in expected if s is not None]
    if len(expected) >= 3:
        m.spearman_expected = spearman([s for _, s in expected], [r.reference_score for r, _ in expected])
    return m


def run_coverage(record: RunRecord) -> float:
    """The share of a run's claims we decided (0 for a run without claims)."""
    if not record.outcomes:
        return 0.0
    return sum(o.label != Label.UNDECIDED for o in record.outcomes) / len(record.outcomes)


def spearman(a: list[float], b: list[float]) -> float | None:
    from scipy.stats import spearmanr

    rho = spearmanr(a, b).statistic
    return None if rho is None or math.isnan(rho) else round(float(rho), 4)


def confusion(outcomes: Sequence[ClaimOutcome]) -> dict[str, dict[str, int]]:
    counts = Counter((o.label.value, f"{o.reference:g}") for o in outcomes)
    levels = [f"{lv:g}" for lv in tables().levels]
    return {label.value: {lv: counts.get((label.value, lv), 0) for lv in levels} for label in Label}


def sabench_metrics(records: Sequence[RunRecord]) -> SABenchMetrics:
    outcomes = [o for r in records for o in r.outcomes]
    dims = sorted({o.dimension for o in outcomes})
    seen = [o for o in outcomes if not o.reference_unseen]
    return SABenchMetrics(
        overall=claim_metrics(outcomes),
        by_dimension={d: claim_metrics([o for o in outcomes if o.dimension == d]) for d in dims},
        confusion=confusion(outcomes),
        run=run_metrics(records),
        probability=probability_metrics(outcomes),
        unseen=len(outcomes) - len(seen), seen=claim_metrics(seen), seen_probability=probability_metrics(seen),
    )


def metrics_by_model(records: Sequence[RunRecord]) -> dict[str, SABenchMetrics]:
    models = sorted({r.model for r in records if r.model})
    return {m: sabench_metrics([r for r in records if r.model == m]) for m in models}
