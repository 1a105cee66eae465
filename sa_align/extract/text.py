"""Sentences of a paper with char offsets, math kept whole, and cue-word matchers built from `units/extract/`."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sa_align.aliases import find_entities
from sa_align.models import Paper
from sa_align.resources import load_yaml

MAX_SENTENCE = 2000
"""Longer runs without a boundary (tables, broken extraction) are cut so no scan goes quadratic."""

_MATH = re.compile(
    r"\$\$[\s\S]{0,6000}?\$\$"
    r"|\\\[[\s\S]{0,6000}?\\\]"
    r"|\\begin\{(equation|align|gather|multline|eqnarray|displaymath|math)\*?\}[\s\S]{0,6000}?\\end\{\1\*?\}"
    r"|(?<!\\)\$[^$\n]{1,500}?(?<!\\)\$"
)
# Candidate sentence ends: terminal punctuation then space, blank lines, and line starts of list items / headings / table rows.
_BOUNDARY = re.compile(
    r"(?P<punct>[.!?])(?=[\s]+[\"'(\[$\\]?[A-Z0-9$\\(\[])"
    r"|\n[ \t]*\n"
    r"|\n(?=[ \t]*(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|\(\d{1,3}\)\s|\||(?:step|stage|phase)\s*\d))",
    re.IGNORECASE,
)
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|etc|fig|figs|eq|eqs|sec|secs|tab|vs|cf|approx|resp|no|nos|ref|refs|al|dr|mr|ms|prof|st|alg|app|ch|eqn)"
    r"|\b[A-Z])\.$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Sentence:
    """A sentence (or a table row, list item, display equation) of the paper."""

    start: int
    end: int
    text: str
    section: str | None


def math_spans(text: str) -> list[tuple[int, int]]:
    """`(start, end)` of every inline and display math segment, in order."""
    return [(m.start(), m.end()) for m in _MATH.finditer(text)]


def _inside(spans: list[tuple[int, int]], starts: list[int], pos: int) -> bool:
    i = bisect.bisect_right(starts, pos) - 1
    return i >= 0 and spans[i][0] < pos < spans[i][1]


def _cut_points(text: str, spans: list[tuple[int, int]]) -> list[int]:
    starts = [s for s, _ in spans]
    cuts = [0]
    for m in _BOUNDARY.finditer(text):
        pos = m.end("punct") if m.group("punct") else m.start()
        if _inside(spans, starts, pos):
            continue
        if m.group("punct") == "." and _ABBREV.search(text, max(0, pos - 8), pos):
            continue
        cuts.append(pos)
    cuts.append(len(text))
    return cuts


_CHAPTER = re.compile(r"^\s*#*\s*((?:\d{1,2}|[A-Z]))(?:\.\d{1,2})*\.?\s")


class SectionLookup:
    """`Paper.section_at` by bisection: the nearest section starting at or before an offset that still contains it.

    Sections come from headings, so a section starting later and containing the offset is nested
    deeper: the nearest containing one is the innermost.
    """

    def __init__(self, paper: Paper):
        self.sections = sorted(paper.sections, key=lambda s: (s.start, -s.end))
        self.starts = [s.start for s in self.sections]

    def chapter_at(self, offset: int) -> str | None:
        """The title of the numbered chapter holding `offset` ("2 Preliminaries" for an offset in "2.1 MDPs"):
        converted papers give every heading one level, so the chapter is found by its number."""
        title = self.title_at(offset)
        m = _CHAPTER.match(title or "")
        if m is None or "." not in m.group(0).strip().rstrip("."):
            return title
        chapter = m.group(1)
        i = bisect.bisect_right(self.starts, offset) - 1
        while i >= 0:
            c = _CHAPTER.match(self.sections[i].title)
            if c is not None and c.group(0).strip().rstrip(".") == chapter:
                return self.sections[i].title
            i -= 1
        return title

    def title_at(self, offset: int) -> str | None:
        i = bisect.bisect_right(self.starts, offset) - 1
        while i >= 0:
            sec = self.sections[i]
            if offset < sec.end:
                return sec.title
            i -= 1
        return None


def split_sentences(paper: Paper) -> list[Sentence]:
    """Sentences of `paper.text` in order, trimmed of surrounding whitespace, each at most `MAX_SENTENCE` chars."""
    text = paper.text
    cuts = _cut_points(text, math_spans(text))
    lookup = SectionLookup(paper)
    out: list[Sentence] = []
    for a, b in zip(cuts, cuts[1:]):
        while a < b:
            end = min(b, a + MAX_SENTENCE)
            s, e = _trim(text, a, end)
            if e > s:
                out.append(Sentence(s, e, text[s:e], lookup.title_at(s)))
            a = end
    return out


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


# --------------------------------------------------------------------------- cues


@lru_cache(maxsize=1)
def cues() -> dict[str, Any]:
    """The cue table `units/extract/cues.yaml`."""
    return load_yaml("extract/cues.yaml")


@lru_cache(maxsize=1)
def reference_words() -> frozenset[str]:
    """Words after which a number or a name is a label (`Table 3`, `Experiment C.1`), lower-cased."""
    return frozenset(str(w).lower() for w in cues().get("numerical", {}).get("reference_words", []))


@lru_cache(maxsize=None)
def word_regex(words: tuple[str, ...]) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of `words` as whole words (longest first)."""
    ordered = sorted({str(w) for w in words}, key=len, reverse=True)
    body = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)
    return re.compile(rf"(?<![\w-])(?:{body})(?![\w-])", re.IGNORECASE)


@lru_cache(maxsize=None)
def cue_regex(*path: str) -> re.Pattern[str]:
    """Word pattern for the cue list at `path` in the cue table (e.g. `("attribution", "novel")`)."""
    node: Any = cues()
    for key in path:
        node = node.get(key, []) if isinstance(node, dict) else []
    return word_regex(tuple(str(w) for w in node or []))


_SECTION_NUMBER = re.compile(r"^\s*(?:(?:\d{1,2}|[A-Z]|[IVX]{1,5})(?:\.\d{1,2})*\.?\s+|\d{1,2}(?:\.\d{1,2})*\.?(?=[A-Za-z]))")


def bare_title(section: str | None) -> str:
    """A section title without its numbering ("3.1 ", "A.2. ", "IV. "), markup and case: "1 Introduction" is
    "introduction" (the "I" of the word is no Roman numeral), "A SMOOTHNESS OF X" is "smoothness of x"."""
    title = (section or "").replace("*", "").replace("#", "")
    return _SECTION_NUMBER.sub("", title).strip().rstrip(".:").strip().lower()


@lru_cache(maxsize=4096)
def skipped(section: str | None, kind: str) -> bool:
    """True when sentences of `section` are not a source of `kind` units (references, related work, ...)."""
    if not section:
        return False
    title = bare_title(section)
    table = cues().get("skip_sections", {})
    return title in table.get("all", []) or title in table.get(kind, [])


def clean(text: str, limit: int = 300) -> str:
    """Whitespace collapsed and length capped, for claims and step phrases."""
    s = re.sub(r"\s+", " ", text).strip()
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


# --------------------------------------------------------------------------- sentences


def is_statistics(text: str, sent: Sentence) -> bool:
    """A sentence that describes a dataset's size ("Cora has 2,708 nodes and 7 classes")."""
    if not cue_regex("numerical", "statistics_cues").search(sent.text):
        return False
    return any(m.target[0] == "dataset" for m in find_entities(text, sent.start, sent.end))


def is_result_sentence(sentence: str) -> bool:
    """True when the sentence reports outcomes and states no setting, or says what a value would amount to
    (a special case) without the paper choosing it."""
    if cue_regex("numerical", "special_case_cues").search(sentence):
        return not cue_regex("numerical", "own_setting_cues").search(sentence)
    return bool(cue_regex("numerical", "result_cues").search(sentence)) and not cue_regex(
        "numerical", "setting_cues"
    ).search(sentence)
