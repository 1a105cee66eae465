"""What every loader hands back, and how it becomes a `Paper`.

A loader produces the final normalized text plus headings (title, level, start
offset) into that same text; section ends and citation spans are computed here,
once, so every format follows the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sa_align.models import Citation, Paper, PaperFormat, Section
from sa_align.paper.citations import find_citations
from sa_align.paper.regions import find_regions


@dataclass
class Heading:
    """A heading located in the final text: where it starts and how deep it is."""

    title: str
    level: int
    start: int


@dataclass
class Parsed:
    """A loader's result before it becomes a `Paper`."""

    text: str
    headings: list[Heading] = field(default_factory=list)
    title: str | None = None
    citations: list[Citation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def sections_from_headings(headings: list[Heading], text_len: int) -> list[Section]:
    """Give each heading an end: the start of the next heading of the same or a higher level."""
    ordered = sorted(headings, key=lambda h: h.start)
    sections: list[Section] = []
    for i, head in enumerate(ordered):
        end = text_len
        for later in ordered[i + 1 :]:
            if later.level <= head.level and later.start > head.start:
                end = later.start
                break
        sections.append(Section(title=head.title, level=head.level, start=head.start, end=end))
    return sections


def merge_citations(explicit: list[Citation], found: list[Citation]) -> list[Citation]:
    """Loader-provided citations first, then detected ones not already covered; in text order."""
    seen = {(c.key, c.start) for c in explicit}
    merged = list(explicit) + [c for c in found if (c.key, c.start) not in seen]
    return sorted(merged, key=lambda c: (c.start, c.end))


def build_paper(
    parsed: Parsed,
    *,
    fmt: PaperFormat,
    fallback_title: str,
    source: str | None,
    sha256: str,
    encoding: str,
    warnings: list[str],
) -> Paper:
    """Assemble the `Paper` from a loader's result and the file facts."""
    text = parsed.text
    title = (parsed.title or "").strip() or fallback_title
    sections = sections_from_headings(parsed.headings, len(text))
    return Paper(
        title=title,
        source=source,
        format=fmt,
        text=text,
        sections=sections,
        citations=merge_citations(parsed.citations, find_citations(text, sections)),
        encoding=encoding,
        sha256=sha256,
        warnings=[*warnings, *parsed.warnings],
        regions=find_regions(text, sections),
    )
