"""Numbers as papers write them beyond plain digits: spaced out by a PDF converter, or in words.

Converters that rebuild math from PDF write every token apart: `$5 1 2 \\times 5 1 2$`,
`$1 0 ^ { - 4 }$`, `$0 . 0 0 1$`, `$0 . 9$`. Inside math, digits separated by single spaces with no comma
or operator between them are one number (a list would be written `1 , 2 , 4`); outside math
`4 2` may be two numbers, so prose is left alone. Table cells get the same treatment for the
exponents converters split (`1e- 4`, `1e - 4`). Counts written as words (`two`, `one million`)
are read here too.
"""

from __future__ import annotations

import re

from sa_align.extract.distribution import normal_std
from sa_align.extract.text import math_spans
from sa_align.numbers import Quantity, find_quantities

_SPACED = re.compile(r"(?<![\w.])\d(?: \d)+(?: ?\. ?\d(?: \d)*)?(?![\w.])|(?<![\w.])\d ?\. ?\d(?: \d)*(?![\w.])")
_SPLIT_EXP = re.compile(r"(?<=\d)([eE])\s*([-+\u2212])\s+(?=\d)|(?<=\d[eE])\s+(?=[-+\u2212]?\d)")
_LOST_CARET = re.compile(r"(?<![\w.])10[-\u2212](\d{1,2})(?![\w.])")
"""`10-4` in a table cell is `10^-4` whose superscript the converter flattened."""

_CELL_CITATION = re.compile(r"\((?=[^()]*[A-Za-z])[^()]*\b(?:19|20)\d\d[a-z]?\s*\)")
"""`AdamW (Loshchilov & Hutter, 2019)`: a citation in a cell; its year is no setting."""

_DOUBLED_SEPARATOR = re.compile(r"(?<=\d),,(?=\d{3}(?!\d))")
"""`10,,000` in a cell: a thousands separator the converter doubled."""
_LOST_DIGITS = re.compile(r"(?:^|[^\d\s])\s*,$")
"""`,03B` in a cell: a thousands separator with nothing before it, where the converter lost the leading digits."""
_SPACE_GROUPED = re.compile(r"(?<![\d.])\d{1,3}(?:[ \u2009\u202f]\d{3})+(?![\d.])")
"""`100 000` in a cell: thousands separated by a (thin) space. Joined only when a group starts with 0,
which no entry of a list of numbers does (`64 128 256` stays three numbers)."""

Found = list[tuple[int, int, Quantity]]

_WORD_NUMBERS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "sixteen": 16, "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100,
}  # fmt: skip
_SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_WORD_NUM = re.compile(
    r"(?<![\w-])(?:(?:one|a)\s+(thousand|million|billion)|(" + "|".join(_WORD_NUMBERS) + r")(?:\s+(thousand|million|billion))?)(?![\w-])",
    re.IGNORECASE,
)
_NOT_COUNT_BEFORE = re.compile(r"\b(?:the|these|those|both|of|all|other|first|last|any)\s+$", re.IGNORECASE)


def collapse(seg: str) -> tuple[str, list[int]]:
    """`seg` with spaced digit runs and split exponents joined, and each kept char's index in `seg`."""
    out: list[str] = []
    index: list[int] = []
    pos = 0
    for m in _join_spans(seg):
        a, b = m
        out.extend(seg[pos:a])
        index.extend(range(pos, a))
        for i in range(a, b):
            if not seg[i].isspace():
                out.append(seg[i])
                index.append(i)
        pos = b
    out.extend(seg[pos:])
    index.extend(range(pos, len(seg)))
    return "".join(out), index


def _join_spans(seg: str) -> list[tuple[int, int]]:
    spans = [(m.start(), m.end()) for m in _SPACED.finditer(seg)]
    spans += [(m.start(), m.end()) for m in _SPLIT_EXP.finditer(seg)]
    return sorted(spans)


def quantities_joined(seg: str, base: int = 0) -> Found:
    """Numbers of `seg` read after rejoining, with offsets into the original text (`base` + index)."""
    joined, index = collapse(seg)
    out: Found = []
    for s, e, q in find_quantities(joined):
        out.append((base + index[s], base + index[e - 1] + 1, q))
    return out


_CELL_REMARK = re.compile(r"\((?=[^()]*[A-Za-z]{3})[^()]*\)")


def cell_quantities(cell: str) -> list[Quantity]:
    """Numbers of one table cell: split exponents rejoined, flattened powers of ten restored."""
    fixed = _SPLIT_EXP.sub(lambda m: (m.group(1) + m.group(2)) if m.group(1) else "", cell)
    fixed = _LOST_CARET.sub(r"10^-\1", _CELL_CITATION.sub(" ", fixed))
    fixed = _DOUBLED_SEPARATOR.sub(",", fixed)
    fixed = _SPACE_GROUPED.sub(_joined_thousands, fixed)
    # A remark in brackets after the value (`[−10, 10] (effective: [−22k, 22k])`, `0.99 (0.995 for
    # Atari)`) qualifies it: its numbers are another setting's, once the cell states its own.
    plain = _CELL_REMARK.sub(" ", fixed)
    found = [q for s, _, q in normal_std(plain, find_quantities(plain)) if not _LOST_DIGITS.search(plain, 0, s)]
    return found or [q for s, _, q in normal_std(fixed, find_quantities(fixed)) if not _LOST_DIGITS.search(fixed, 0, s)]


def _joined_thousands(m: re.Match[str]) -> str:
    groups = re.split(r"[ \u2009\u202f]", m.group(0))
    return "".join(groups) if any(g.startswith("0") for g in groups[1:]) else m.group(0)


def math_quantities(text: str, start: int, end: int) -> Found:
    """Numbers inside the math of `text[start:end]` whose digits the converter spaced out."""
    out: Found = []
    for s, e in math_spans(text[start:end]):
        seg = text[start + s : start + e]
        if _SPACED.search(seg):
            out += [q for q in quantities_joined(seg, start + s) if " " in text[q[0] : q[1]]]
    return out


def with_spaced(found: Found, spaced: Found) -> Found:
    """`found` with the numbers a spaced-out run covers replaced by the rejoined number."""
    if not spaced:
        return found
    kept = [q for q in found if not any(s <= q[0] < e for s, e, _ in spaced)]
    return sorted(kept + spaced, key=lambda q: q[0])


def word_numbers(text: str, start: int, end: int) -> Found:
    """`two`, `one million`: counts written as words (bound only when their noun follows)."""
    out = []
    for m in _WORD_NUM.finditer(text, start, end):
        if _NOT_COUNT_BEFORE.search(text, max(start, m.start() - 12), m.start()):
            continue
        base = _WORD_NUMBERS.get((m.group(2) or "").lower(), 1)
        scale = _SCALE_WORDS.get((m.group(1) or m.group(3) or "").lower(), 1)
        value = float(base * scale)
        out.append((m.start(), m.end(), Quantity(value, value, None, False, m.group(0), True)))
    return out
