"""How every report format names the rule behind a label, written once for Markdown, HTML, the console and SARIF.

A label alone does not say how far to trust it; the code (`sa-align rules CODE`) leads to what the
rule decides, why, and its measured precision. A preview rule's held finding is shown beside the
`undecided` it left, since it is the unit's most useful evidence for the reader who reviews it.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

from sa_align.models import DriftReport, UnitResult

_HELD_SHOWN = 5
"""Held findings named in the summary sentence; the rest are counted."""


def rule_note(r: UnitResult, code: Callable[[str], str] = str) -> str:
    """`NUM005`; for a held finding `held: mismatched by NUM006, preview`; '' when no rule decided."""
    if r.held_label is not None and r.rule:
        return f"held: {r.held_label.value} by {code(r.rule)}, preview"
    return code(r.rule) if r.rule else ""


def label_text(r: UnitResult, code: Callable[[str], str] = str) -> str:
    """The label with its rule: `mismatched (NUM005)`, `undecided (held: mismatched by NUM006, preview)`."""
    note = rule_note(r, code)
    return f"{r.label.value} ({note})" if note else r.label.value


def outcome(r: UnitResult) -> str:
    """What the rule did to the unit: its label, or `held <label>` for a held finding."""
    return f"held {r.held_label.value}" if r.held_label is not None else r.label.value


def by_rule(report: DriftReport) -> list[tuple[str | None, str, int]]:
    """`(code, outcome, units)` per rule and outcome, most units first; code `None` for units no rule decided."""
    counts = Counter((r.rule, outcome(r)) for r in report.results)
    return sorted(((c, o, n) for (c, o), n in counts.items()), key=lambda t: (-t[2], t[0] or "~", t[1]))


def rule_name(code: str | None) -> str:
    """The rule's name (`value-differs`), '' for a code this install does not know (a report from another version)."""
    if code is None:
        return ""
    from sa_align.rules.registry import rules

    found = rules().get(code)
    return found.name if found else ""


def held_sentence(report: DriftReport, code: Callable[[str], str] = str) -> str:
    """The preview rules' findings held back for review, a few named; '' when none was held."""
    held = [r for r in report.results if r.held_label is not None]
    if not held:
        return ""
    named = ", ".join(f"{code(r.unit.id)} {r.held_label.value} by {code(r.rule or '?')}" for r in held[:_HELD_SHOWN])
    more = f" and {len(held) - _HELD_SHOWN} more" if len(held) > _HELD_SHOWN else ""
    n = len(held)
    return (f"Held for review: {n} finding{'s' if n != 1 else ''} of preview rules ({named}{more}); "
            "each is evidence to review, not a label, until its rule is right often enough on hand-judged code to be "
            "stable (`sa-align rules`), or the run is given `--preview`.")


def by_rule_line(report: DriftReport) -> str:
    """The console's one line of counts per rule: `By rule: NUM001 aligned 11, CAL004 undecided 5, ...`."""
    parts = [f"{c or 'no rule'} {o} {n}" for c, o, n in by_rule(report)]
    return "By rule: " + ", ".join(parts) if parts else ""
