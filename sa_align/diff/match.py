"""Pair the units of two reports.

Unit ids are positional (`num-004` is the fourth numerical unit found), so they
shift when the unit set changes: an id pairs two units only when their claims
also match. The rest pair by the verbatim paper quote, then by the claim text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sa_align.models import UnitResult


def norm(text: str) -> str:
    """Case and whitespace folded, so reflowed or recased text still matches."""
    return " ".join(text.lower().split())


@dataclass
class Matching:
    """Pairs (old, new, rule) and what stayed unpaired on each side."""

    pairs: list[tuple[UnitResult, UnitResult, str]] = field(default_factory=list)
    old_only: list[UnitResult] = field(default_factory=list)
    new_only: list[UnitResult] = field(default_factory=list)


def match_units(old: list[UnitResult], new: list[UnitResult]) -> Matching:
    """Pair by id (claims equal), then by quote, then by claim; each unit is paired at most once."""
    out = Matching()
    left = dict(enumerate(old))
    right = dict(enumerate(new))
    by_id = {r.unit.id: i for i, r in left.items()}
    for j, r in list(right.items()):
        i = by_id.get(r.unit.id)
        if i is not None and norm(left[i].unit.claim) == norm(r.unit.claim):
            out.pairs.append((left.pop(i), right.pop(j), "id"))
    for rule, key in (("quote", lambda r: norm(r.unit.quote)), ("claim", lambda r: norm(r.unit.claim))):
        _pair_by(left, right, key, rule, out)
    out.old_only = list(left.values())
    out.new_only = list(right.values())
    return out


def _pair_by(left: dict, right: dict, key, rule: str, out: Matching) -> None:
    """Pair remaining units with equal non-empty keys, in report order."""
    waiting: dict[str, list[int]] = {}
    for i, r in left.items():
        k = key(r)
        if k:
            waiting.setdefault(k, []).append(i)
    for j, r in list(right.items()):
        queue = waiting.get(key(r))
        if queue:
            out.pairs.append((left.pop(queue.pop(0)), right.pop(j), rule))
