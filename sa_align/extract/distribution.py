"""Distribution notation read as the one setting it states: `N(μ, σ²)` gives the standard deviation.

`\\mathcal{N}(0, 0.2^2)`, `N(0, 0.2²)`, a converter's `N(0, 0.2{2)` and spaced math
`\\mathcal { N } ( 0 , 0 . 2 ^ { 2 } )` all state a std of 0.2: the squared second argument is the
variance written through its std, and its exponent is no digit of a value. A plain second argument
(`N(0, 0.1)`) is kept as written, as papers that give exploration noise so mean its std. The mean is
where the distribution sits, not a second value of the setting: the pair is never a list.
"""

from __future__ import annotations

import re

from sa_align.numbers import Quantity, find_quantities

Found = list[tuple[int, int, Quantity]]

_NUM = r"[-+\u2212]?\s*\d(?:\s?\d)*(?:\s*\.\s*\d(?:\s?\d)*)?"
_NORMAL = re.compile(
    r"(?<![A-Za-z\\])(?:\\mathcal\s*\{\s*N\s*\}|\\mathcal\s*N(?![A-Za-z])|\U0001d4a9|N)\s*(?:\\left\s*)?\(\s*"
    rf"(?P<mean>{_NUM})\s*,\s*(?P<std>{_NUM})(?P<squared>\s*(?:\^\s*\{{?\s*2\s*\}}?|²|\{{\s*2))?\s*(?:\\right\s*)?\)"
)


def normal_std(text: str, found: Found, start: int = 0, end: int | None = None) -> Found:
    """`found` (numbers of `text[start:end]` with offsets) with the numbers of each normal distribution's
    arguments replaced by its standard deviation, spanning the whole notation."""
    stds: Found = []
    for m in _NORMAL.finditer(text, start, len(text) if end is None else end):
        raw = re.sub(r"\s+", "", m.group("std")).replace("\u2212", "-")
        got = find_quantities(raw)
        if len(got) != 1 or got[0][1] - got[0][0] != len(raw):
            continue
        stds.append((m.start(), m.end(), got[0][2]))
    if not stds:
        return found
    kept = [q for q in found if not any(s <= q[0] < e for s, e, _ in stds)]
    return sorted(kept + stds, key=lambda q: q[0])
