"""The summary's sentences, written once for report.md, report.html and the console.

The headline is the calibrated expected score over all units, with the mean over decided units
beside it; each number is defined in one sentence wherever it is shown, since the two answer
different questions (how faithful the whole repository likely is; how faithful the units a judge
decided are) and differ most when many units stay undecided.
"""

from __future__ import annotations

from typing import Callable

from sa_align.models import DriftReport, Label

EXPECTED_DEFINITION = ("Expected score: the calibrated judge's expected SA-Bench level (1.0 faithful, 0.0 absent) "
                       "of every unit, undecided ones included, averaged by unit weight.")
MEAN_DEFINITION = ("Mean score: the SA-Bench level the judges gave each decided unit, averaged by unit weight; "
                   "undecided units are left out.")


def headline(report: DriftReport, strong: Callable[[str], str] = str) -> str:
    """The expected score over all units, and the mean over decided units beside it."""
    s = report.summary
    mean = "n/a" if s.mean_score is None else f"{s.mean_score:.3f}"
    beside = f"mean score {mean} over the {s.decided} decided units"
    if s.expected_score is None:
        why = report.calibration.uncalibrated or "calibration is off"
        return f"Mean score {strong(mean)} over the {s.decided} decided of {s.n_units} units (no expected score: {why})"
    return f"Expected score {strong(f'{s.expected_score:.3f}')} over all {s.n_units} units; {beside}"


def definitions(report: DriftReport) -> list[str]:
    """One sentence per number the headline shows."""
    return ([EXPECTED_DEFINITION] if report.summary.expected_score is not None else []) + [MEAN_DEFINITION]


def undecided_sentence(report: DriftReport) -> str:
    """How many units stay undecided and what deciding them takes; '' when none does."""
    s = report.summary
    n = s.counts.get(Label.UNDECIDED.value, 0)
    if not n:
        return ""
    head = f"Undecided: {n} unit{'s' if n != 1 else ''}"
    calls = f"{s.llm_calls_to_decide} model call{'s' if s.llm_calls_to_decide != 1 else ''}"
    if not s.decidable_by_llm:
        return f"{head}; each says what a person has to check."
    if not report.config.get("judges"):
        return f"{head}; `--judge MODEL` would decide {s.decidable_by_llm} of them in {calls} (1 per model sample)."
    return f"{head}; a rerun of the configured judges would retry {s.decidable_by_llm} of them in {calls}."


def empty_repo_sentence(report: DriftReport) -> str:
    """For a repository with no code or configuration: its `missing` units were never searched for."""
    s = report.summary
    if s.has_code:
        return ""
    missing = s.counts.get(Label.MISSING.value, 0)
    return (f"The repository holds no code or configuration file: its {missing} missing units were not "
            "searched for, since there was nothing to search.")


def budget_sentences(report: DriftReport) -> list[str]:
    """What the unit budget kept and cut, by kind ("Unit budget: kept 55 of 98 units; cut: 35 method, ...")."""
    return [f"Unit budget: {f.message.split(':', 1)[1].strip()}" for f in report.flags if f.kind == "unit-budget"]
