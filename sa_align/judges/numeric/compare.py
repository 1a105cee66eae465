"""Comparing the value a site sets with the value a unit states.

Values are compared across notations (`3e-4` = `3 × 10^-4` = `0.0003`), with
percent awareness (`10%` = `0.1` = `10`), within a tolerance. Sequences (betas,
milestones) compare element by element, sets by membership, ranges by inclusion;
strings by their letters and digits.
"""

from __future__ import annotations

import re

from sa_align.judges.numeric.sites import Outcome
from sa_align.models import Param, Scalar
from sa_align.numbers import parse_number, parse_quantity, values_equal


def _norm_str(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.casefold())


def _expected(p: Param, value: Scalar) -> object:
    """The stated value in the form `values_equal` understands best (percent kept)."""
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if p.text and p.value is not None:
        q = parse_quantity(p.text)
        if q is not None and (q.value == value or q.number == value):
            return q
    if p.unit and p.unit.strip() in ("%", "percent") and parse_number(value) is not None:
        return f"{value}%"
    return value


def _scalar_outcome(site: object, want: object, tol: float) -> Outcome | None:
    if site is None or isinstance(site, (list, dict)):
        return None
    if isinstance(want, bool) or isinstance(site, bool):
        if isinstance(want, bool) and isinstance(site, bool):
            return "match" if site == want else "conflict"
        return None
    site_num = parse_number(site) if isinstance(site, (int, float, str)) else None
    want_num = parse_number(want) if isinstance(want, (int, float, str)) else getattr(want, "value", None)
    if site_num is not None and want_num is not None:
        return "match" if values_equal(site, want, tol) else "conflict"
    if isinstance(site, str) and isinstance(want, str) and site_num is None and want_num is None:
        a, b = _norm_str(site), _norm_str(want)
        if not a or not b:
            return None
        return "match" if a == b or a in b or b in a else "conflict"
    return None


def compare(site: object, p: Param, tol: float) -> Outcome | None:
    """Match, conflict, or `None` when the site's value is not comparable with the claim."""
    if p.value is not None:
        if isinstance(site, list) and len(site) == 1:
            site = site[0]  # `attn_resolutions: [16]` states one value
        return _scalar_outcome(site, _expected(p, p.value), tol)
    wants = [_expected(p, v) for v in p.values]
    if p.shape == "sequence":
        if not isinstance(site, list):
            return None
        if len(site) != len(wants):
            return "conflict" if all(_scalar_outcome(s, wants[0], tol) for s in site) else None
        outs = [_scalar_outcome(s, w, tol) for s, w in zip(site, wants)]
        return None if None in outs else ("match" if all(o == "match" for o in outs) else "conflict")
    if p.shape == "range" and len(wants) == 2:
        return _in_range(site if isinstance(site, list) else [site], wants, tol)
    if not isinstance(site, list):
        return None  # one value of a searched set says nothing about whether the set was searched
    outs = [[_scalar_outcome(s, w, tol) for s in site] for w in wants]
    if any(all(o is None for o in row) for row in outs):
        return None
    return "match" if all("match" in row for row in outs) else "conflict"


def _in_range(items: list, bounds: list, tol: float) -> Outcome | None:
    lo, hi = (parse_number(b) if not hasattr(b, "value") else b.value for b in bounds)
    vals = [parse_number(x) if isinstance(x, (int, float, str)) and not isinstance(x, bool) else None for x in items]
    if lo is None or hi is None or None in vals:
        return None
    slack = tol * max(abs(lo), abs(hi), 1e-12)
    return "match" if all(lo - slack <= v <= hi + slack for v in vals) else "conflict"
