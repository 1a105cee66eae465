"""How far the headline figures could move on other papers: intervals from resampling papers.

The runs of one paper share its claims, so claims are not independent draws; papers
are. Two spreads, each the median and the central `level` interval over seeded draws:

- `bootstrap`: as many papers as were run, drawn with replacement (the cluster
  bootstrap of the figure itself);
- `subsets`: sets of `held_out_papers` papers (`units/bench/sabench.yaml`) drawn without
  replacement: the range a figure measured on a split of that size, such as
  SA-Bench's held-out papers, could read if those papers were like these.

Figures: kappa and coverage over decided claims, the calibrated probability's ROC AUC and
Brier skill, run-score Spearman (ours, from expected scores, the line count's) and our
margin over the line count.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Sequence

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.agreement import binary_kappa_from_counts
from sa_align.bench.sabench.dataset import tables
from sa_align.bench.sabench.metrics import expected_run_score, roc_auc, run_score, spearman
from sa_align.bench.sabench.runner import RunRecord
from sa_align.models import Label

DRAWS = 200
"""Draws per spread: the 5% tails move by about 0.01-0.02 between seeds at this count."""
FIGURES = ("kappa", "coverage", "probability_roc_auc", "brier_skill", "run_spearman", "run_spearman_expected",
           "run_spearman_lines", "spearman_over_lines")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Interval(_Model):
    """One figure over the draws."""

    median: float
    """The median over the draws."""
    low: float
    """The lower end of the central interval."""
    high: float
    """The upper end of the central interval."""


class Spread(_Model):
    """Figures over draws of papers."""

    method: str
    """`bootstrap` (all papers, with replacement) or `subsets` (fewer papers, without replacement)."""
    papers: int
    """Papers per draw."""
    draws: int
    """Draws made."""
    level: float
    """Share of the draws inside each interval."""
    figures: dict[str, Interval] = Field(default_factory=dict)
    """Figure -> its interval (a figure undefined in most draws is left out)."""


@dataclass
class _Paper:
    """One paper's claims and runs, reduced to what the figures need: counts add up across papers."""

    claims: int = 0
    agreement: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Decided claims as (reference faithful, we say aligned): [no/no, no/yes, yes/no, yes/yes]."""
    prob_truth: list[int] = field(default_factory=list)
    prob: list[float] = field(default_factory=list)
    runs: list[tuple[float | None, float | None, float, float]] = field(default_factory=list)


def spreads(records: Sequence[RunRecord], *, draws: int = DRAWS, level: float = 0.9, seed: int = 0) -> list[Spread]:
    """Both spreads of `records` (none when fewer than three papers ran; no subsets when too few papers)."""
    papers = _papers(records)
    if len(papers) < 3 or draws <= 0:
        return []
    out = [_spread(papers, "bootstrap", len(papers), draws, level, seed)]
    size = tables().held_out_papers
    if 2 <= size < len(papers):
        out.append(_spread(papers, "subsets", size, draws, level, seed))
    return out


def _papers(records: Sequence[RunRecord]) -> list[_Paper]:
    at = tables().faithful_at
    by: dict[str, _Paper] = defaultdict(_Paper)
    for r in records:
        if r.skipped is not None or r.reference_score is None:
            continue
        p = by[r.paper]
        for o in r.outcomes:
            p.claims += 1
            if o.label != Label.UNDECIDED and o.score is not None:
                p.agreement[2 * (o.reference >= at) + (o.label == Label.ALIGNED)] += 1
            if o.probability is not None:
                p.prob_truth.append(int(o.reference >= at))
                p.prob.append(o.probability)
        p.runs.append((run_score(r.outcomes), expected_run_score(r.outcomes), float(r.python_lines), r.reference_score))
    return [by[k] for k in sorted(by)]


def _spread(papers: list[_Paper], method: str, size: int, draws: int, level: float, seed: int) -> Spread:
    import numpy as np

    rng = np.random.default_rng(seed)
    values: dict[str, list[float]] = defaultdict(list)
    for _ in range(draws):
        picked = rng.choice(len(papers), size=size, replace=method == "bootstrap")
        for name, value in _figures([papers[i] for i in picked]).items():
            if value is not None:
                values[name].append(value)
    tail = (1.0 - level) / 2 * 100
    figures = {name: Interval(median=round(float(np.median(v)), 4), low=round(float(np.percentile(v, tail)), 4),
                              high=round(float(np.percentile(v, 100 - tail)), 4))
               for name in FIGURES if len(v := values.get(name, [])) >= draws / 2}
    return Spread(method=method, papers=size, draws=draws, level=level, figures=figures)


def _figures(papers: list[_Paper]) -> dict[str, float | None]:
    cells = [sum(p.agreement[k] for p in papers) for k in range(4)]
    claims = sum(p.claims for p in papers)
    out: dict[str, float | None] = {"kappa": binary_kappa_from_counts(*cells), "coverage": sum(cells) / claims if claims else None}
    out.update(_probability([t for p in papers for t in p.prob_truth], [x for p in papers for x in p.prob]))
    out.update(_ranks([run for p in papers for run in p.runs]))
    return out


def _probability(truth: list[int], prob: list[float]) -> dict[str, float | None]:
    import numpy as np

    if not truth:
        return {}
    y, p = np.array(truth, dtype=float), np.array(prob, dtype=float)
    base = y.mean() * (1.0 - y.mean())
    skill = 1.0 - float(np.mean((p - y) ** 2)) / base if base > 0 else None
    return {"probability_roc_auc": roc_auc(y, p), "brier_skill": skill}


def _ranks(runs: list[tuple[float | None, float | None, float, float]]) -> dict[str, float | None]:
    scored = [r for r in runs if r[0] is not None]
    if len(scored) < 3:
        return {}
    ref = [r[3] for r in scored]
    ours, lines = spearman([r[0] for r in scored], ref), spearman([r[2] for r in scored], ref)
    expected = [r for r in runs if r[1] is not None]
    return {"run_spearman": ours, "run_spearman_lines": lines,
            "spearman_over_lines": None if ours is None or lines is None else ours - lines,
            "run_spearman_expected": spearman([r[1] for r in expected], [r[3] for r in expected])
            if len(expected) >= 3 else None}
