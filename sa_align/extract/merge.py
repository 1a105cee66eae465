"""Grounding quotes in the paper and merging units from several extractors.

Grounding: a quote is searched verbatim, then with whitespace collapsed, line-break
hyphenation undone and quote/dash variants unified, then (for quotes of 12+ letters and
digits) over letters and digits only; a hit is mapped back to exact offsets of `Paper.text`.

Merging: two units are the same claim when they have the same kind, overlapping spans and
the same parameters (names and equal values) or entities; method and ordering units only
need the same kind and overlapping spans. The richer unit is kept and hints are pooled.
"""

from __future__ import annotations

from dataclasses import dataclass

from sa_align.models import Attribution, CharSpan, Unit, UnitKind
from sa_align.numbers import values_equal

_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "−": "-", "\u00a0": " "})
_MIN_LOOSE = 12
_REACH = 4_000
"""A unit starting this far before another cannot overlap it in practice (sentences are capped at 2,000 chars)."""


@dataclass
class _Normalized:
    text: str
    offsets: list[int]
    """Original offset of each char of `text`."""


def _normalize(text: str, loose: bool) -> _Normalized:
    out: list[str] = []
    offsets: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i].translate(_FOLD)
        if ch == "-" and i + 1 < n and text[i + 1] == "\n" and not loose:
            i += 2  # "regular-\nization": the line-break hyphen is not part of the word
            while i < n and text[i] in " \t":
                i += 1
            continue
        if loose:
            if ch.isalnum():
                out.append(ch.lower())
                offsets.append(i)
        elif ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                offsets.append(i)
        else:
            out.append(ch.lower())
            offsets.append(i)
        i += 1
    return _Normalized("".join(out), offsets)


class QuoteLocator:
    """Finds quotes in one paper's text; the normalized forms are built once."""

    def __init__(self, text: str):
        self.text = text
        self._tight: _Normalized | None = None
        self._loose: _Normalized | None = None

    def locate(self, quote: str) -> tuple[int, int] | None:
        """Exact `(start, end)` of `quote` in the text, or `None` when it is not there."""
        quote = quote.strip()
        if not quote:
            return None
        i = self.text.find(quote)
        if i >= 0:
            return i, i + len(quote)
        if self._tight is None:
            self._tight = _normalize(self.text, loose=False)
        hit = self._find(self._tight, _normalize(quote, loose=False).text.strip())
        if hit:
            return hit
        loose_q = _normalize(quote, loose=True).text
        if len(loose_q) < _MIN_LOOSE:
            return None
        if self._loose is None:
            self._loose = _normalize(self.text, loose=True)
        return self._find(self._loose, loose_q)

    @staticmethod
    def _find(norm: _Normalized, q: str) -> tuple[int, int] | None:
        if not q:
            return None
        j = norm.text.find(q)
        if j < 0:
            return None
        return norm.offsets[j], norm.offsets[j + len(q) - 1] + 1


def ground(unit: Unit, locator: QuoteLocator) -> Unit | None:
    """The unit with `quote`/`span` set to the exact paper text, or `None` when the quote is not in the paper."""
    hit = locator.locate(unit.quote)
    if hit is None:
        return None
    start, end = hit
    return unit.model_copy(update={"quote": locator.text[start:end], "span": CharSpan(start=start, end=end)})


# --------------------------------------------------------------------------- merge


def _overlap(a: Unit, b: Unit) -> bool:
    if a.span is None or b.span is None:
        return a.quote.strip() == b.quote.strip()
    return a.span.start < b.span.end and b.span.start < a.span.end


def _same_params(a: Unit, b: Unit) -> bool:
    if {p.name for p in a.params} != {p.name for p in b.params}:
        return False
    for p in a.params:
        q = next(x for x in b.params if x.name == p.name)
        va = [p.value] if p.value is not None else list(p.values)
        vb = [q.value] if q.value is not None else list(q.values)
        if len(va) != len(vb) or not all(values_equal(x, y) for x, y in zip(va, vb)):
            return False
    return True


def same_claim(a: Unit, b: Unit) -> bool:
    """True when `a` and `b` state the same claim (see module docstring)."""
    if a.kind != b.kind or not _overlap(a, b):
        return False
    if a.kind == UnitKind.NUMERICAL:
        return _same_params(a, b)
    if a.kind == UnitKind.PROTOCOL:
        ea, eb = set(a.entities), set(b.entities)
        nested = ea <= eb or eb <= ea
        if a.params or b.params:
            return _same_params(a, b) and nested
        return bool(ea & eb) and nested
    return True


def _richness(u: Unit) -> float:
    values = sum(1 + len(p.values) for p in u.params)
    return values + len(u.entities) + len(u.order) + len(u.hints) / 20 + (u.cited_ref is not None) + len(u.claim) / 2000


def _combine(keep: Unit, other: Unit) -> Unit:
    update: dict = {"hints": list(dict.fromkeys([*keep.hints, *other.hints]))[:16]}
    if keep.cited_ref is None and other.cited_ref is not None and keep.attribution == other.attribution:
        update["cited_ref"] = other.cited_ref
    if keep.attribution == Attribution.NOVEL and other.attribution == Attribution.CITED and other.cited_ref:
        update.update(attribution=Attribution.CITED, cited_ref=other.cited_ref)
    return keep.model_copy(update=update)


def merge_units(units: list[Unit], window: int = 64) -> list[Unit]:
    """Deduplicate `units`: each group of same claims becomes its richest member, hints pooled.

    Units are compared in paper order against the last `window` kept units of their kind,
    which holds every overlapping one for sentence-sized spans and keeps large papers linear.
    """
    ordered = sorted(units, key=lambda u: u.span.start if u.span else -1)
    kept: dict[UnitKind, list[Unit]] = {}
    for u in ordered:
        bucket = kept.setdefault(u.kind, [])
        match = None
        for i in range(len(bucket) - 1, max(-1, len(bucket) - 1 - window), -1):
            if u.span and bucket[i].span and bucket[i].span.start < u.span.start - _REACH:
                break
            if same_claim(u, bucket[i]):
                match = i
                break
        if match is None:
            bucket.append(u)
        else:
            richer, poorer = (u, bucket[match]) if _richness(u) > _richness(bucket[match]) else (bucket[match], u)
            bucket[match] = _combine(richer, poorer)
    return [u for bucket in kept.values() for u in bucket]
