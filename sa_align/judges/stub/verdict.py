"""The stub judge's verdict at a placeholder, shared by its rules (`judge.py`, `named.py`).

It lives in the judge's room rather than beside the placeholder forms
(`judges/evidence/placeholders.py`) because a verdict is the judge's word: the
evidence machinery below the judges only says what is a placeholder.
"""

from __future__ import annotations

from sa_align.index.model import StubFact, Symbol
from sa_align.judges.base import decide, line_span
from sa_align.models import Label, Verdict

NAME = "stub"


def stub_verdict(sym: Symbol, fact: StubFact, conf: float, certain: bool, named: str | None = None, *,
                 rule: str) -> Verdict:
    """`stubbed` at the placeholder; `named` says how the unit points at it, when it does; `rule` is
    the code of the rule that found the placeholder the unit's own."""
    forms = ", ".join(fact.forms)
    reason = f"`{sym.qualname}` defers its work ({forms}): {fact.detail}".strip().rstrip(":")
    if named:
        reason += f" ({named})"
    return decide(NAME, Label.STUBBED, reason, rule=rule, confidence=conf, certain=certain,
                  evidence=[line_span(sym.path, fact.line, sym.qualname), sym.span])
