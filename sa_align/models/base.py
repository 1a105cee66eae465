"""Labels, kinds, levels and the paper: the vocabulary every other contract uses."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1.4"
"""Version of the DriftReport and units-file formats; bump on any breaking change."""

SA_BENCH_LEVELS: tuple[float, ...] = (1.0, 0.75, 0.5, 0.25, 0.0)
"""SA-Bench's five graded levels: faithful, minor deviation, key omission, core substitution, absent."""


class Label(StrEnum):
    """The verdict on one unit."""

    ALIGNED = "aligned"
    MISMATCHED = "mismatched"
    STUBBED = "stubbed"
    MISATTRIBUTED = "misattributed"
    MISSING = "missing"
    UNDECIDED = "undecided"


class UnitKind(StrEnum):
    """SA-Bench's four dimensions of a checkable claim."""

    NUMERICAL = "numerical"
    METHOD = "method"
    PROTOCOL = "protocol"
    ORDERING = "ordering"


class Attribution(StrEnum):
    """Whether a claim is the paper's own contribution or inherited from cited work."""

    NOVEL = "novel"
    CITED = "cited"


LABEL_SCORES: dict[Label, float] = {
    Label.ALIGNED: 1.0,
    Label.MISMATCHED: 0.25,
    Label.STUBBED: 0.0,
    Label.MISATTRIBUTED: 0.25,
    Label.MISSING: 0.0,
}
"""Default SA-Bench level for a label when a judge gives no graded score of its own."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


# --------------------------------------------------------------------------- paper


class Section(_Model):
    """A heading of the paper and the text it governs."""

    title: str
    """Heading text without markup."""
    level: int = 1
    """Nesting depth: 1 for a section, 2 for a subsection, and so on."""
    start: int
    """Char offset in `Paper.text` where the section (its heading) begins."""
    end: int
    """Char offset in `Paper.text` where the section ends (exclusive)."""


class Citation(_Model):
    """A citation marker found in the paper text."""

    key: str
    """Reference key: `12` for `[12]`, `smith2020` for `\\cite{smith2020}`, `Smith et al., 2020` for author-year."""
    start: int
    """Char offset in `Paper.text` where the marker begins."""
    end: int
    """Char offset in `Paper.text` where the marker ends (exclusive)."""
    text: str
    """The marker exactly as it appears in the text."""


PaperFormat = Literal["markdown", "text", "latex", "pdf"]

RegionKind = Literal[
    "contents", "figure_list", "furniture", "references", "acknowledgements", "checklist", "proof", "statement",
    "table", "code",
]
"""Parts of a paper that are kept in its text but state no claim of their own (a `table` region is read
cell by cell rather than sentence by sentence)."""


class Region(_Model):
    """A located part of the paper text with a kind: a table of contents, a reference list, a proof, ..."""

    kind: RegionKind
    """`contents` (table of contents), `figure_list` (lists of figures or tables), `furniture` (running
    headers and footers, page and line numbers), `references`, `acknowledgements`, `checklist` (a venue's
    paper checklist), `proof` (a proof, not the statement it proves), `statement` (a theorem, lemma, proposition,
    corollary, assumption, conjecture, claim, remark or example, with its display math and continuation;
    definitions are not statements), `table` (an HTML or Markdown table),
    `code` (a code listing)."""
    start: int
    """Char offset in `Paper.text` where the region begins."""
    end: int
    """Char offset in `Paper.text` where the region ends (exclusive)."""


class Paper(_Model):
    """A loaded paper: its normalized full text with sections and citations located in it."""

    title: str
    """Title from the first heading, `\\title{}`, or PDF metadata; the file stem otherwise."""
    source: str | None = None
    """Path the paper was loaded from, if any."""
    format: PaperFormat = "text"
    """Which loader produced the text."""
    text: str
    """The full text every char offset in this model and in `Unit.span` refers to."""
    sections: list[Section] = Field(default_factory=list)
    """Headings in document order, with char offsets into `text`."""
    citations: list[Citation] = Field(default_factory=list)
    """Citation markers in document order, with char offsets into `text`."""
    encoding: str = "utf-8"
    """Encoding the file was decoded with (a fallback is recorded in `warnings`)."""
    sha256: str = ""
    """SHA-256 of the raw bytes of the source file (or of `text` when built in memory)."""
    warnings: list[str] = Field(default_factory=list)
    """Non-fatal problems met while loading (fallback encoding, skipped `\\input`, empty pages)."""
    regions: list[Region] = Field(default_factory=list)
    """Located parts of `text` by kind, in document order: tables, and the parts no unit is taken from
    (contents, figure lists, page furniture, references, acknowledgements, checklists, proofs). The text
    itself is unchanged, so quotes still map to offsets."""

    def region_at(self, offset: int, kinds: frozenset[str] | set[str] | None = None) -> Region | None:
        """The region containing `offset` (of one of `kinds` when given), or `None`."""
        for reg in self.regions:
            if reg.start <= offset < reg.end and (kinds is None or reg.kind in kinds):
                return reg
        return None

    def section_at(self, offset: int) -> Section | None:
        """Innermost section whose range contains `offset`."""
        best: Section | None = None
        for sec in self.sections:
            if sec.start <= offset < sec.end and (best is None or sec.level >= best.level):
                best = sec
        return best
