"""Placeholder facts turned into judgements: is this function a stand-in for its work?

Whole-body forms (the body is only `pass`, `...`, a docstring or
`raise NotImplementedError`) are certain; a body that only returns a constant
or `None` is likely; random or constant stand-ins and TODO markers count only
in a short body, where they are the work rather than a detail of it. Abstract
methods (`@abstractmethod`, or a base-class method that a subclass overrides,
in a class the code never constructs) are not placeholders.
"""

from __future__ import annotations

import re

from sa_align.index.model import RepoIndex, StubFact, Symbol
from sa_align.judges.base import decide, line_span
from sa_align.models import Label, Verdict
from sa_align.retrieve.params import per_index

NAME = "stub"
WHOLE_BODY = {"not_implemented", "pass", "ellipsis", "docstring_only"}
THIN_BODY = {"constant_return", "none_return"}
IN_BODY = {"random_standin", "constant_standin", "todo_comment"}
SHORT_BODY_LINES = 4
_ABSTRACT = re.compile(r"@\s*(abc\.)?abstract(method|property)|@\s*overload\b")


def stubs_by_symbol(index: RepoIndex) -> dict[str, StubFact]:
    return per_index(index, "stubs", lambda ix: {s.symbol: s for s in ix.stubs})


def _body_lines(index: RepoIndex, sym: Symbol) -> int:
    """Non-blank, non-comment lines after the signature (docstring lines included)."""
    lines = index.lines(sym.path, sym.start_line + 1, sym.end_line)
    return sum(1 for ln in lines if ln.strip() and not ln.strip().startswith("#"))


def is_abstract(index: RepoIndex, sym: Symbol) -> bool:
    head = "\n".join(index.lines(sym.path, max(1, sym.start_line - 3), sym.start_line + 1))
    if _ABSTRACT.search(head):
        return True
    if sym.kind != "method" or not sym.parent:
        return False
    cls = sym.parent.split("::")[-1].split(".")[-1]
    if _instantiated(index, cls):
        return False  # a class the code constructs is concrete: its empty method is a stub
    stubs = stubs_by_symbol(index)
    pattern = re.compile(rf"^\s*class\s+\w+\s*\([^)]*\b{re.escape(cls)}\b")
    for other in index.symbols:
        if other.name == sym.name and other.id != sym.id and other.parent and other.id not in stubs:
            parent = index.symbol_by_id.get(other.parent)
            if parent is not None and pattern.match("".join(index.lines(parent.path, parent.start_line, parent.start_line))):
                return True
    return False


def _instantiated(index: RepoIndex, cls: str) -> bool:
    def build(ix: RepoIndex) -> frozenset[str]:
        return frozenset(c.callee.rsplit(".", 1)[-1] for c in ix.calls)

    return cls in per_index(index, "callee-names", build)


def stub_strength(index: RepoIndex, sym: Symbol, fact: StubFact) -> tuple[float, bool] | None:
    """(confidence, certain) that the function is a placeholder, or `None` when it is not."""
    forms = set(fact.forms)
    if forms & WHOLE_BODY:
        return 0.95, True
    short = _body_lines(index, sym) <= SHORT_BODY_LINES
    if forms & THIN_BODY:
        return (0.9, True) if forms & IN_BODY else (0.8, False)
    if short and forms & {"random_standin", "constant_standin"}:
        return 0.85, "todo_comment" in forms
    if short and "todo_comment" in forms:
        return 0.7, False
    return None


def placeholder(index: RepoIndex, sym: Symbol) -> tuple[StubFact, float, bool] | None:
    """(fact, confidence, certain) when `sym` is a placeholder that is not an abstract method."""
    fact = stubs_by_symbol(index).get(sym.id)
    if fact is None or is_abstract(index, sym):
        return None
    strength = stub_strength(index, sym, fact)
    return None if strength is None else (fact, *strength)


def stub_verdict(sym: Symbol, fact: StubFact, conf: float, certain: bool, named: str | None = None) -> Verdict:
    """`stubbed` at the placeholder; `named` says how the unit points at it, when it does."""
    forms = ", ".join(fact.forms)
    reason = f"`{sym.qualname}` defers its work ({forms}): {fact.detail}".strip().rstrip(":")
    if named:
        reason += f" ({named})"
    return decide(NAME, Label.STUBBED, reason, confidence=conf, certain=certain,
                  evidence=[line_span(sym.path, fact.line, sym.qualname), sym.span])
