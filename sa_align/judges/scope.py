"""Does a verdict speak for the whole claim? `aligned` on part of a free-text claim is no finding.

Policy and numbers in `units/scope.yaml`. A unit whose checked field was
derived from its own text (`Unit.derived`) may state more than that field
carries. A value judge's `aligned` stands only when every number the claim
states (0, 1, 2 and reference numbers such as "Table 3" aside) is a value one
of its parameters carries; a presence judge's `aligned` (entities named in
code, steps located in order) never stands on such a unit. Either becomes an
abstention that says what was left unchecked, so an LLM judge, when configured,
still decides; the abstention keeps the verdict's label as its lean
(`Verdict.lean`) for the calibrated judge to weigh. Failures stand (part of a claim being wrong is enough), with one
exception: a value judge's `mismatched` on such a unit abstains when every
value the claim states occurs somewhere in the code, since the name read from
the claim may not be the name the code sets it under (on the development
split 12 of 57 such claims were faithful, against 6 of 108 otherwise).
"""

from __future__ import annotations

import re
from functools import lru_cache

from sa_align.extract.spaced import math_quantities, with_spaced
from sa_align.extract.text import reference_words
from sa_align.judges.base import lean
from sa_align.judges.evidence.counts import param_sites
from sa_align.judges.evidence.tables import in_code
from sa_align.models import Label, Unit, Verdict
from sa_align.numbers import find_quantities
from sa_align.resources import load_yaml
from sa_align.retrieve.params import param_index

_FIELD_OF = {"numeric": "params", "protocol": "entities", "ordering": "order"}


@lru_cache(maxsize=1)
def _table() -> dict:
    return load_yaml("scope.yaml")


@lru_cache(maxsize=1)
def _reference_re() -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in sorted({*reference_words(), *_table()["extra_reference_words"]}))
    return re.compile(rf"\b(?:{words})\.?\s*[\[(]?\s*$", re.IGNORECASE)


def stated_quantities(text: str) -> list[tuple[float, float]]:
    """(value, number as written) of each value a claim states, reference numbers and 0, 1, 2 aside.

    The two differ for percentages (`12.5%` -> 0.125 and 12.5): code writes either.
    """
    ignore = {float(v) for v in _table()["ignore_values"]}
    out = []
    # A quote converted from PDF spaces its math out (`$1 0 ^ { - 6 }$`, `$0 . 9$`): one number each.
    found = with_spaced(find_quantities(text), math_quantities(text, 0, len(text)))
    ranges = [m.span() for m in _INDEX_RANGE.finditer(text)]
    for start, end, q in sorted(found + _dimensions(text), key=lambda t: t[:2]):
        if (q.value in ignore or _reference_re().search(text[max(0, start - 16):start]) or _list_marker(text, start, end)
                or _cited_year(text, start, end, q) or any(a <= start and end <= b for a, b in ranges)):
            continue
        out.append((q.value, q.number))
    return out


_INDEX_RANGE = re.compile(r"\[\s*-?\d*\s*:\s*-?\d*\s*\]")
"""`vel[3:6]`, `obs[9:21]`: where a field sits in a vector, not a value the code must write."""

_AUTHOR = r"[A-Z][A-Za-z'\-]+(?:\s+(?:et\s+al\.?|(?:and|&)\s+[A-Z][A-Za-z'\-]+))?"
_CITED_BY = re.compile(rf"(?:\(([^()]*?)\b{_AUTHOR},?\s*|\b{_AUTHOR}\s*\(\s*)$")
"""`(by Klenke, 2014`, `(Kingma & Ba, 2015`, `He et al. (2016`: an author's name right before the number,
inside a citation's brackets (`Adam, 2000 steps` names no author)."""


def _cited_year(text: str, start: int, end: int, q) -> bool:
    """A year right after an author's name, in brackets (`(by Klenke, 2014, Definition 1.79)`), dates a
    citation: it is no setting."""
    if not (q.integral and 1900 <= q.value <= 2099 and end - start == 4):
        return False
    return bool(_CITED_BY.search(text[max(0, start - 80):start])) and re.match(r"[a-z]?(?:[,;)]|$)", text[end:end + 2]) is not None


def _list_marker(text: str, start: int, end: int) -> bool:
    """`(3) compare losses`, `3) compare`: the number of a step, not a value."""
    return text[end:end + 1] == ")" and (start == 0 or text[start - 1] in "( \n")


_DIMENSIONS = re.compile(r"(?<![\w.])\d+(?:[xX]\d+)+(?![\w.])")
_DIGITS = re.compile(r"\d+")


def _dimensions(text: str) -> list:
    """Each side of a size written without spaces (`128x128`, `32x32x3`), which number tokens miss:
    the `x` joins the digits into one word."""
    return [(m.start() + d.start(), m.start() + d.end(), q)
            for m in _DIMENSIONS.finditer(text) for d in _DIGITS.finditer(m.group())
            for _s, _e, q in find_quantities(d.group())]


def stated_numbers(text: str) -> list[float]:
    """The values a claim states, reference numbers and 0, 1, 2 aside."""
    return [value for value, _number in stated_quantities(text)]


def unchecked_numbers(unit: Unit) -> list[float]:
    """Numbers of the claim that none of the unit's parameters carries."""
    carried = [v for p in unit.params for v in p.numbers()]
    return [n for n in stated_numbers(unit.claim)
            if not any(abs(n - c) <= 1e-9 * max(1.0, abs(c)) for c in carried)]


def scoped(unit: Unit, verdict: Verdict, index=None) -> Verdict:
    """`verdict`, or an abstention when it covers only part of a free-text claim (see the module docstring)."""
    rule = _table()["gated"].get(verdict.judge)
    if rule is None or verdict.abstained or _FIELD_OF[verdict.judge] not in unit.derived:
        return verdict
    if verdict.label == Label.MISMATCHED and rule == "every_number_checked" and index is not None:
        return _renamed(unit, verdict, index)
    if verdict.label != Label.ALIGNED:
        return verdict
    if rule == "every_number_checked":
        rest = unchecked_numbers(unit)
        if not rest:
            return verdict
        shown = ", ".join(f"{n:g}" for n in rest[:6])
        return _partial(verdict, f"{verdict.reason}; but the claim also states {shown}, which no checked parameter carries",
                        "SCP001")
    return _partial(verdict, f"{verdict.reason}; but this shows only part of a claim stated in free text", "SCP001")


def _partial(verdict: Verdict, reason: str, rule: str) -> Verdict:
    """A verdict on part of the claim: it no longer votes, but still leans to its label. The gate's
    rule (`rule`) is the lean's code; the reason ends with the code of the rule it held back."""
    reason = f"{reason} (held back: {verdict.rule})" if verdict.rule else reason
    return lean(verdict.judge, verdict.label, reason, rule=rule, confidence=verdict.confidence, score=verdict.score,
                evidence=verdict.evidence)


def _renamed(unit: Unit, verdict: Verdict, index) -> Verdict:
    """A value judged different under the name read from a free-text claim may be set under
    another: when every value the claim states occurs somewhere in the code, that is no finding."""
    stated = stated_quantities(unit.claim)
    if not stated or not all(in_code(index, v, n) for v, n in stated):
        return verdict
    if not any(_elsewhere(p, index) for p in unit.params):
        return verdict  # the values occur only as other settings of the same name (another preset): a real finding
    return _partial(verdict, f"{verdict.reason}; but every value the claim states occurs in the code, perhaps under other names",
                    "SCP002")


def _elsewhere(param, index) -> bool:
    """The parameter's stated value is set under a name that is not the parameter's."""
    own = {id(f) for f in param_sites(param, index)}
    return any(id(f) not in own for f in param_index(index).value_matches(param, 1e-6))

