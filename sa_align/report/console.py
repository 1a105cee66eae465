"""The summary `sa-align evaluate` prints: counts, the headline with its definitions, what stays undecided."""

from __future__ import annotations

from sa_align.models import DriftReport
from sa_align.report.sentences import budget_sentences, definitions, empty_repo_sentence, headline, undecided_sentence


def summary_lines(report: DriftReport) -> list[str]:
    """The console summary, one line per fact; `warnings` are printed apart (to stderr)."""
    s = report.summary
    counts = ", ".join(f"{k} {v}" for k, v in s.counts.items() if v)
    lines = [f"{s.n_units} units: {counts}", headline(report), *(f"  {d}" for d in definitions(report))]
    undecided = undecided_sentence(report)
    return lines + ([undecided] if undecided else []) + budget_sentences(report)


def warnings(report: DriftReport) -> list[str]:
    """What must not scroll by unnoticed: a repository with no code."""
    empty = empty_repo_sentence(report)
    return [empty] if empty else []
