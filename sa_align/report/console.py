"""The summary `sa-align evaluate` prints: counts, the headline with its definitions, what stays undecided,
the preview rules' held findings and the units each rule decided."""

from __future__ import annotations

from sa_align.models import DriftReport
from sa_align.report.rule_codes import by_rule_line, held_sentence
from sa_align.report.sentences import budget_sentences, definitions, empty_repo_sentence, headline, undecided_sentence


def summary_lines(report: DriftReport) -> list[str]:
    """The console summary, one line per fact; `warnings` are printed apart (to stderr)."""
    s = report.summary
    counts = ", ".join(f"{k} {v}" for k, v in s.counts.items() if v)
    lines = [f"{s.n_units} units: {counts}", headline(report), *(f"  {d}" for d in definitions(report))]
    extra = [undecided_sentence(report), held_sentence(report), *budget_sentences(report), by_rule_line(report)]
    return lines + [x for x in extra if x]


def warnings(report: DriftReport) -> list[str]:
    """What must not scroll by unnoticed: a repository with no code."""
    empty = empty_repo_sentence(report)
    return [empty] if empty else []
