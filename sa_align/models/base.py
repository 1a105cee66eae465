"""Labels, kinds, levels and the paper: the vocabulary every other contract uses."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1.1"
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

    def section_at(self, offset: int) -> Section | None:
        """Innermost section whose range contains `offset`."""
        best: Section | None = None
        for sec in self.sections:
            if sec.start <= offset < sec.end and (best is None or sec.level >= best.level):
                best = sec
        return best
