"""Values judge: does any value the claim states occur in the code at all?

Names in a free-text claim are the paper's (`H_Enc`, "unrolling horizon") and
code spells them its own way, but the numbers are the same in any notation
(`8e-4` = `0.0008`, `12.5%` = `0.125` or `12.5`). When the claim states values
(0, 1, 2, reference numbers such as "Table 3" and step numbers aside), none of
them occurs as a number in any code or config file (comments and tests
included, so only a real absence counts), and no parameter of the unit is set
anywhere, the claim is not implemented as stated. On SA-Bench's development
split such claims were faithfully implemented (reference >= 0.75) in 7 of 134
numerical and 7 of 152 other claims.

The claim's words only choose the label: where at least a third of what a
non-numerical claim describes occurs in code, the code does something without
the stated values (`mismatched`, 0.25); otherwise nothing addresses it
(`missing`). When a third or more of the stated values, but not all, occur
nowhere, the code does something but not what the claim states (`mismatched`
as a key omission, 0.5, with low confidence), for the kinds `units/values.yaml`
lists. Fewer absent, or no value stated: abstain. Of a set of values tried (a search grid), one
present stands for all: the untried ones are no absent settings. Values of parameters code computes
rather than writes (a parameter count, `computed` in `units/aliases/params.yaml`) are not looked for.

Fires: "SkyTimelapse: 2392 train clips / 225 test clips" in a repository with
neither number. Must not fire: "800 training and 200 validation samples" where
`SPLITS = {"train": 800, "val": 200}`.
"""

from __future__ import annotations

from functools import lru_cache

from sa_align.aliases import computed
from sa_align.judges.base import JudgeContext, StaticJudge, abstain, decide, lean
from sa_align.judges.evidence.tables import code_roots, in_code
from sa_align.judges.evidence.words import distinctive_words
from sa_align.judges.scope import stated_quantities
from sa_align.models import Label, UnitKind, Verdict
from sa_align.resources import load_yaml
from sa_align.retrieve.params import param_index

NAME = "values"


@lru_cache(maxsize=1)
def _table() -> dict:
    return load_yaml("values.yaml")


MISSING_CONFIDENCE = 0.65
"""Below a likely stub (0.7): a placeholder that deferred the values is the more specific finding."""
WORDS_CONFIDENCE = 0.55
"""The label rests on claim words, so it is weaker than the absence it reports."""
PARTLY_CONFIDENCE = 0.5
LEAN_CONFIDENCE = 0.35
"""A few absent values among present ones: a lean for the calibrated judge, never a vote."""
"""Some stated values are there: low, so any judge that located the claim outvotes it."""


def judge_values(ctx: JudgeContext) -> Verdict:
    unit = ctx.unit
    stated = _written(unit, stated_quantities(unit.claim))
    if not stated:
        return abstain(NAME, "the claim states no value to look for")
    present = _tried(unit, [number for value, number in stated if in_code(ctx.index, value, number)])
    if present:
        partly = _partly_absent(stated, present) if unit.kind.value in _table()["partly_absent_kinds"] else None
        return partly or _absent_lean(stated, present) or abstain(
            NAME, f"values the claim states occur in the code ({', '.join(f'{n:g}' for n in present[:4])})")
    if any(param_index(ctx.index).sites(p) for p in unit.params):
        return abstain(NAME, "a parameter of the unit is set in the code; the numeric judge compares it")
    shown = ", ".join(f"{number:g}" for _value, number in stated[:6])
    reason = f"none of the values the claim states ({shown}) occurs in any code or config file"
    words = distinctive_words(unit)
    found = words & code_roots(ctx.index)
    if unit.kind != UnitKind.NUMERICAL and words and len(found) * 3 >= len(words):
        # `missing`, not `mismatched`: claim words in the code do not show the claim's component runs with
        # other values (hand-judged: 10 of 19 such units were missing, 6 mismatched; `shared/LABELLING.md`).
        return decide(NAME, Label.MISSING,
                      f"{reason}, though the code has words of what the claim describes ({', '.join(sorted(found)[:5])})",
                      rule="VAL001", confidence=WORDS_CONFIDENCE)
    return decide(NAME, Label.MISSING, reason, rule="VAL003", confidence=MISSING_CONFIDENCE)


def _written(unit, stated: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The stated values code would write: not those of parameters code computes (a parameter count)."""
    skip = {v for p in unit.params if computed(p.name) for v in p.numbers()}
    return [(value, number) for value, number in stated if value not in skip and number not in skip]


def _tried(unit, present: list[float]) -> list[float]:
    """`present` and, for a set of values tried ("lr searched in {1e-3, 1e-2}") one of which the code
    holds, the others: a grid's untried values are not absent settings."""
    out = list(present)
    for p in unit.params:
        values = p.numbers()
        if p.shape == "set" and any(v in present for v in values):
            out += [v for v in values if v not in out]
    return out


def values_judge() -> StaticJudge:
    """Factory: the stated-values-anywhere judge."""
    return StaticJudge(NAME, judge_values)


def _absent_lean(stated: list[tuple[float, float]], present: list[float]) -> Verdict | None:
    """Some stated values occur nowhere: too few to decide on, but a lean towards a key omission."""
    absent = [number for (_value, number) in stated if number not in present]
    if not absent:
        return None
    shown = ", ".join(f"{n:g}" for n in absent[:6])
    return lean(NAME, Label.MISMATCHED, f"{len(absent)} of the {len(stated)} values the claim states occur in no code "
                f"or config file ({shown})", rule="VAL004", confidence=LEAN_CONFIDENCE, score=0.5)


def _partly_absent(stated: list[tuple[float, float]], present: list[float]) -> Verdict | None:
    """A third or more of the stated values occur nowhere: the part of the claim they set is likely not
    there (hand-judged: 8 of 14 such units were missing, 2 mismatched), so `missing`."""
    absent = [number for (_value, number) in stated if number not in present]
    if len(absent) * 3 < len(stated):
        return None
    shown = ", ".join(f"{n:g}" for n in absent[:6])
    return decide(NAME, Label.MISSING,
                  f"{len(absent)} of the {len(stated)} values the claim states occur in no code or config file ({shown})",
                  rule="VAL002", confidence=PARTLY_CONFIDENCE)

