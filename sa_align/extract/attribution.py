"""Is a claim the paper's own (`novel`) or inherited from cited work (`cited`, with the reference key)?

Policy, in order:
1. a novel cue in the sentence ("we propose", "our method", "unlike") makes the claim `novel`,
   even when it cites others (it is contrasting with them);
2. a citation marker inside the sentence, or starting right after it, makes it `cited`,
   with `cited_ref` the marker nearest to the claim's anchor;
3. a cited cue without a marker ("following prior work", "the standard split") makes it `cited`
   with no key, unless the previous sentence ends with a marker (its key is used);
4. otherwise `novel`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from sa_align.extract.text import cue_regex, cues
from sa_align.models import Attribution, Paper

_ADJACENT = 3
"""A marker this many chars past the sentence end (after the full stop) still belongs to it."""


@dataclass(frozen=True)
class Marker:
    start: int
    end: int
    key: str


@lru_cache(maxsize=1)
def _marker_patterns() -> list[re.Pattern[str]]:
    return [re.compile(p) for p in cues().get("attribution", {}).get("marker_patterns", [])]


def _fallback_key(m: re.Match[str]) -> str:
    raw = next((g for g in m.groups() if g), None)
    if raw is None:  # `[12, 13]`: the first number
        return re.split(r"[,–-]", m.group(0).strip("[]"))[0].strip()
    if m.group(0).startswith("\\"):  # `\cite{a,b}`: the first key
        return raw.split(",")[0].strip()
    return raw.strip()


class CitationIndex:
    """Citation markers of a paper, sorted, for range queries. Falls back to regexes when the loader found none."""

    def __init__(self, paper: Paper):
        if paper.citations:
            found = [Marker(c.start, c.end, c.key) for c in paper.citations]
        else:
            found = [
                Marker(m.start(), m.end(), _fallback_key(m))
                for pat in _marker_patterns()
                for m in pat.finditer(paper.text)
            ]
        self.markers = sorted(found, key=lambda c: c.start)
        self._starts = [c.start for c in self.markers]

    def within(self, start: int, end: int) -> list[Marker]:
        """Markers starting in `[start, end)`."""
        lo = bisect.bisect_left(self._starts, start)
        hi = bisect.bisect_left(self._starts, end)
        return self.markers[lo:hi]

    def covers(self, start: int, end: int) -> bool:
        """True when `[start, end)` lies inside a marker (a number in `[12]` or `(Smith, 2020)`)."""
        i = bisect.bisect_right(self._starts, start) - 1
        return i >= 0 and self.markers[i].end >= end


def attribute(
    text: str, start: int, end: int, citations: CitationIndex, anchor: int | None = None,
    prev_end: int | None = None,
) -> tuple[Attribution, str | None]:
    """Attribution and cited key of the claim stated by `text[start:end]` (anchor: where the claim sits)."""
    sentence = text[start:end]
    if cue_regex("attribution", "novel").search(sentence):
        return Attribution.NOVEL, None
    markers = citations.within(start, end + _ADJACENT)
    if markers:
        point = anchor if anchor is not None else start
        nearest = min(markers, key=lambda m: abs(m.start - point))
        return Attribution.CITED, nearest.key
    if cue_regex("attribution", "cited").search(sentence):
        if prev_end is not None:
            before = citations.within(max(0, prev_end - 40), prev_end + _ADJACENT)
            if before:
                return Attribution.CITED, before[-1].key
        return Attribution.CITED, None
    return Attribution.NOVEL, None


def cited_columns(text: str, caption: tuple[int, int] | None, heads: set[str], citations: CitationIndex) -> str | None:
    """The reference key when every value column of a table heads a method the caption cites
    ("Hyperparameter differences between Rainbow (Hessel et al., 2018) and TD3 (Fujimoto et al.,
    2018)"): such a table states cited work's settings, not the paper's own. `None` otherwise."""
    if caption is None or not heads:
        return None
    found = []
    for head in heads:
        at = [m.end() for m in re.finditer(rf"(?<!\w){re.escape(head)}(?!\w)", text[caption[0] : caption[1]])]
        marks = [c for a in at for c in citations.within(caption[0] + a, caption[0] + a + _ADJACENT)]
        if not marks:
            return None
        found.append(marks[0])
    return min(found, key=lambda m: m.start).key  # the first method the caption cites
