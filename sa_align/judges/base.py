"""The judge protocol, its context, and small helpers every judge shares.

A judge is an async callable with a `name`; it returns one `Verdict` and never
raises for a unit it cannot decide: it abstains (`label=undecided`,
`abstained=True`). Static judges are plain functions wrapped by `static_judge`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from sa_align.config import EvalConfig
from sa_align.models import LABEL_SCORES, Candidate, CodeSpan, Label, Paper, Unit, Verdict

if TYPE_CHECKING:
    from sa_align.index.model import RepoIndex, Symbol


@dataclass
class JudgeContext:
    """Everything a judge may look at for one unit."""

    unit: Unit
    candidates: list[Candidate]
    index: "RepoIndex"
    paper: Paper | None
    config: EvalConfig
    client: Any = None
    """An `sa_align.llm.LLMClient`, or `None` for an offline run."""


class Judge(Protocol):
    """One judge: `await judge(ctx) -> Verdict`."""

    name: str

    async def __call__(self, ctx: JudgeContext) -> Verdict: ...


@dataclass(frozen=True)
class StaticJudge:
    """A deterministic judge built from a synchronous function."""

    name: str
    fn: Callable[[JudgeContext], Verdict]

    async def __call__(self, ctx: JudgeContext) -> Verdict:
        return self.fn(ctx)


def abstain(judge: str, reason: str, *, error: str | None = None, model: str | None = None, rule: str | None = None,
            evidence: list[CodeSpan] | None = None) -> Verdict:
    """A verdict that carries no vote; `rule` names a rule whose finding is to abstain (a veto)."""
    return Verdict(judge=judge, model=model, label=Label.UNDECIDED, abstained=True, reason=reason, error=error,
                   rule=rule, evidence=list(evidence or [])[:10])


def lean(judge: str, label: Label, reason: str, *, rule: str, confidence: float, score: float | None = None,
         evidence: list[CodeSpan] | None = None) -> Verdict:
    """An abstention that points at `label`: weak evidence that never votes (see `Verdict.lean`).
    `rule` is the code of the rule that leans (`units/rules/rules.yaml`)."""
    return Verdict(judge=judge, label=Label.UNDECIDED, abstained=True, lean=label, reason=reason, rule=rule,
                   confidence=confidence, score=LABEL_SCORES.get(label) if score is None else score,
                   evidence=list(evidence or [])[:10])


def decide(
    judge: str,
    label: Label,
    reason: str,
    *,
    rule: str,
    confidence: float,
    certain: bool = False,
    evidence: list[CodeSpan] | None = None,
    score: float | None = None,
) -> Verdict:
    """A voting verdict; the score defaults to the label's SA-Bench level. `rule` is the code of the
    rule that decided it (`units/rules/rules.yaml`): every decision names one."""
    return Verdict(
        judge=judge,
        label=label,
        rule=rule,
        score=LABEL_SCORES.get(label) if score is None else score,
        confidence=confidence,
        certain=certain,
        reason=reason,
        evidence=list(evidence or [])[:10],
    )


def line_span(path: str, line: int, symbol: str | None = None) -> CodeSpan:
    """A one-line evidence span."""
    return CodeSpan(path=path, start_line=max(1, line), end_line=max(1, line), symbol=symbol)


def function_at(index: "RepoIndex", path: str, line: int) -> "Symbol | None":
    """The function or method that holds `line` (through any classes in between); `None` at module level."""
    sym = index.symbol_at(path, line)
    while sym is not None and sym.kind not in ("function", "method"):
        sym = index.symbol_by_id.get(sym.parent) if sym.parent else None
    return sym


def qualname_of(symbol_id: str) -> str:
    """`path::Qual.name` -> `Qual.name`."""
    return symbol_id.split("::", 1)[-1]
