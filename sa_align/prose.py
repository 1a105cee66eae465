"""Reasons a person reads, kept within a length budget without being cut mid-word.

A unit's reason gathers what several judges said; a report line has room for only so much.
Slicing the joined text (`[:500]`) left readers with "...left to the LL". Here whole
reasons are chosen instead (`choose_reasons`), and a text that must be shortened is cut at
the last sentence end, else the last clause boundary, else the last word boundary
(`shorten`), never inside a code span a judge quoted (`` `name` ``). This module imports
nothing from `sa_align`, so every layer (judges, calibration, reports) can use it.
"""

from __future__ import annotations

import re
from typing import Iterable

ELLIPSIS = "…"
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
_CLAUSE = re.compile(r"\s*(?:[;:,]|\s[-–—]\s)\s")
_SPACE = re.compile(r"\s+")


def shorten(text: str, budget: int) -> str:
    """`text` if it fits in `budget` characters; else its longest head that ends at a sentence end,
    a clause boundary (`;`, `:`, `,`, a dash) or a word boundary, the last two marked with "…".

    A boundary is taken only outside backtick code spans and only when it keeps at least a
    third of the budget (a first clause of three words says less than a longer cut at a word).
    A single word longer than the budget is the one thing cut inside, since nothing else fits.
    """
    text = text.strip()
    if len(text) <= budget:
        return text
    floor = budget // 3
    room = budget - len(ELLIPSIS)
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, budget) if m.end() >= floor]
    if ends := [e for e in ends if _outside_code(text, e)]:
        return text[: ends[-1]]
    clauses = [m.start() for m in _CLAUSE.finditer(text, 0, room + 1) if floor <= m.start() <= room]
    if clauses := [c for c in clauses if _outside_code(text, c)]:
        return text[: clauses[-1]].rstrip() + ELLIPSIS
    words = [m.start() for m in _SPACE.finditer(text, 0, room + 1) if m.start() <= room]
    if words := [w for w in words if _outside_code(text, w)] or words:
        return text[: words[-1]].rstrip(" ,;:(") + ELLIPSIS
    return text[:room] + ELLIPSIS


def choose_reasons(reasons: Iterable[str], budget: int, sep: str = "; ") -> str:
    """Whole reasons, deduplicated, in order, while they fit in `budget` characters.

    The first reason that does not fit is shortened (`shorten`) into the room left when that
    room holds a readable part of it; what is left out after that is counted ("2 more in the
    verdicts"), so the reader knows to look there.
    """
    unique = list(dict.fromkeys(r.strip() for r in reasons if r and r.strip()))
    if len(sep.join(unique)) <= budget:
        return sep.join(unique)
    kept: list[str] = []
    for i, reason in enumerate(unique):
        rest = len(unique) - i - 1
        used = len(sep.join(kept)) + (len(sep) if kept else 0)
        room = budget - used - len(_more(rest))
        if len(reason) <= room:
            kept.append(reason)
            continue
        if room >= min(60, budget) or not kept:
            kept.append(shorten(reason, max(room, 1)))
            return sep.join(kept) + _more(rest)
        return sep.join(kept) + _more(rest + 1)
    return sep.join(kept)


def _more(n: int) -> str:
    return f" (and {n} more in the verdicts)" if n else ""


def _outside_code(text: str, pos: int) -> bool:
    """Whether `pos` lies outside every backtick span (an even number of backticks before it)."""
    return text.count("`", 0, pos) % 2 == 0
