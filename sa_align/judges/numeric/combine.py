"""A unit's numeric verdict from its parameters' decisions, and the SA-Bench level of a partial mismatch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from sa_align.index.model import ValueFact
from sa_align.judges.scope import stated_numbers
from sa_align.models import Label, Param, Unit


@dataclass(frozen=True)
class ParamDecision:
    """What the sites say about one parameter (shared by the judges that ask: never changed once made)."""

    param: Param
    label: Label | None
    confidence: float
    certain: bool
    evidence: list[ValueFact]
    note: str
    rule: str | None = None
    """The code of the rule that decided it (`units/rules/rules.yaml`); `None` when undecided."""


def mismatch_score(bad: int, good: int) -> float:
    """SA-Bench level of a unit some of whose values differ: the larger the share that differs, the lower.

    Every value different is a core substitution (0.25); a third or less of the
    checked values different is a minor deviation (0.75); in between, 0.5.
    """
    if not good:
        return 0.25
    return 0.75 if bad / (bad + good) <= 1 / 3 else 0.5


def combine(decisions: Sequence[ParamDecision]) -> tuple[Label | None, float, bool, list[ValueFact], str, str | None]:
    """Unit label from its parameters' decisions, with the code of the rule that decided it: the most
    confident differing parameter's, else the least confident matching one's (the weakest link)."""
    bad = [d for d in decisions if d.label == Label.MISMATCHED]
    good = [d for d in decisions if d.label == Label.ALIGNED]
    unknown = [d for d in decisions if d.label is None]
    if bad:
        best = max(bad, key=lambda d: d.confidence)
        note = "; ".join(d.note for d in bad)
        if good:
            note += f"; matching: {'; '.join(d.note for d in good)}"
        return (Label.MISMATCHED, best.confidence, any(d.certain for d in bad), [f for d in bad for f in d.evidence], note,
                best.rule)
    if not good:
        return None, 0.0, False, [], "; ".join(d.note for d in unknown), None
    weakest = min(good, key=lambda d: d.confidence)
    conf = weakest.confidence * (1.0 if not unknown else 0.75)
    certain = not unknown and all(d.certain for d in good)
    return Label.ALIGNED, conf, certain, [f for d in good for f in d.evidence], "; ".join(d.note for d in decisions), weakest.rule


def differs_as_claimed(unit: Unit, decisions: Sequence[ParamDecision]) -> bool:
    """Whether every differing value the code sets is another number the claim states."""
    others = {round(v, 9) for v in stated_numbers(unit.claim)}
    found: list[float] = []
    for d in decisions:
        if d.label != Label.MISMATCHED:
            continue
        others -= {round(v, 9) for v in d.param.numbers()}
        for f in d.evidence:
            values = f.value if isinstance(f.value, list) else [f.value]
            found += [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return bool(found) and all(round(v, 9) in others for v in found)
