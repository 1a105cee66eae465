from __future__ import annotations

import random

import pytest

from sa_align.bench.sabench.metrics import sabench_metrics
from sa_align.bench.sabench.render import spread_lines
from sa_align.bench.sabench.runner import ClaimOutcome, RunRecord
from sa_align.bench.sabench.spread import _figures, _papers, spreads
from sa_align.models import Label


def _records(papers: int, seed: int = 3) -> list[RunRecord]:
    """Runs of `papers` papers x 4 setups whose agreement with the reference differs from paper to paper."""
    rng = random.Random(seed)
    out = []
    for p in range(papers):
        skill = 0.5 + 0.5 * p / papers  # later papers: we agree more often
        for s in range(4):
            outcomes = []
            for c in range(12):
                ref = rng.choice([0.0, 0.25, 1.0])
                right = rng.random() < skill
                aligned = (ref >= 0.75) == right
                label = Label.UNDECIDED if c % 5 == 0 else (Label.ALIGNED if aligned else Label.MISMATCHED)
                outcomes.append(ClaimOutcome(
                    claim_id=f"p{p}-{c}", dimension=f"D{1 + c % 3}", reference=ref, label=label,
                    score=None if label == Label.UNDECIDED else (1.0 if aligned else 0.25),
                    probability=min(0.95, max(0.05, (0.8 if aligned else 0.2) + rng.uniform(-0.1, 0.1))),
                    expected_score=0.6 if aligned else 0.2))
            ref_score = sum(o.reference for o in outcomes) / len(outcomes)
            out.append(RunRecord(id=f"s{s}/p{p}", setup=f"s{s}", paper=f"p{p}", reference_score=ref_score,
                                 python_lines=100 * (s + 1) + 7 * p, seconds=1.0, outcomes=outcomes))
    return out


def test_figures_of_all_papers_match_the_reported_metrics():
    records = _records(6)
    figures, m = _figures(_papers(records)), sabench_metrics(records)
    assert figures["kappa"] == pytest.approx(m.overall.kappa_label, abs=1e-4)
    assert figures["coverage"] == pytest.approx(m.overall.coverage, abs=1e-4)
    assert figures["probability_roc_auc"] == pytest.approx(m.probability.roc_auc, abs=1e-4)
    assert figures["brier_skill"] == pytest.approx(m.probability.brier_skill, abs=1e-4)
    assert figures["run_spearman"] == pytest.approx(m.run.spearman, abs=1e-4)
    assert figures["run_spearman_lines"] == pytest.approx(m.run.spearman_lines, abs=1e-4)
    assert figures["spearman_over_lines"] == pytest.approx(m.run.spearman - m.run.spearman_lines, abs=1e-3)


def test_spreads_bracket_the_figure_and_are_reproducible(monkeypatch):
    from sa_align.bench.sabench import spread

    monkeypatch.setattr(spread, "tables", lambda: _Tables(held_out_papers=4))
    records = _records(12)
    first, second = spreads(records, draws=60), spreads(records, draws=60)
    assert first == second
    boot, subsets = first
    assert (boot.method, boot.papers, subsets.method, subsets.papers) == ("bootstrap", 12, "subsets", 4)
    kappa = sabench_metrics(records).overall.kappa_label
    for s in first:
        k = s.figures["kappa"]
        assert k.low < k.median < k.high and k.low <= kappa <= k.high
    # Fewer papers per draw, a wider range.
    width = {s.method: s.figures["kappa"].high - s.figures["kappa"].low for s in first}
    assert width["subsets"] > width["bootstrap"]
    table = "\n".join(spread_lines(first))
    assert "| kappa (label) |" in table and "subsets: 4 papers" in table


def test_too_few_papers_give_no_spread():
    assert spreads(_records(2), draws=20) == []
    assert spreads(_records(5), draws=0) == []


class _Tables:
    faithful_at = 0.75

    def __init__(self, held_out_papers: int):
        self.held_out_papers = held_out_papers
