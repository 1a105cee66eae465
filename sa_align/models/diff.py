"""The diff of two drift reports: what changed, unit by unit, between an old and a new report."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sa_align.models.base import Label, _Model
from sa_align.models.change import LabelChangeBase
from sa_align.models.units import CodeSpan

DIFF_SCHEMA_VERSION = "1.0"
"""Version of the `diff.json` format; bump on any breaking change."""

MatchedBy = Literal["id", "quote", "claim"]


class ReportSide(_Model):
    """Identity and headline numbers of one of the two reports."""

    paper_title: str
    """Title of the paper the report is about."""
    paper_sha256: str = ""
    """SHA-256 of the paper file."""
    repo_path: str
    """Repository path as the report gives it."""
    git_commit: str | None = None
    """Commit the report audited, when known."""
    created_at: str = ""
    """When the report was produced."""
    schema_version: str
    """Format version of the report file."""
    n_units: int = 0
    """Units in the report."""
    mean_score: float | None = None
    """The report's mean score; `None` when nothing was decided."""
    counts: dict[str, int] = Field(default_factory=dict)
    """Units per final label."""


class UnitChange(LabelChangeBase[CodeSpan]):
    """One unit present in both reports whose label or score changed."""

    old_id: str
    """Unit id in the old report."""
    new_id: str
    """Unit id in the new report (ids are positional and may shift)."""
    matched_by: MatchedBy
    """How the two units were paired: same id and claim, same paper quote, or same claim text."""


class UnitRef(_Model):
    """A unit present in only one of the two reports."""

    id: str
    """Unit id in the report that has it."""
    kind: str
    """Unit kind."""
    claim: str
    """The claim."""
    label: Label
    """Its label in that report."""
    score: float | None = None
    """Its score in that report."""


class EvidenceMove(_Model):
    """A unit whose label stayed but whose evidence now points at other lines."""

    old_id: str
    """Unit id in the old report."""
    new_id: str
    """Unit id in the new report."""
    claim: str
    """The claim."""
    label: Label
    """The label, unchanged."""
    before: list[CodeSpan] = Field(default_factory=list)
    """Evidence lines in the old report."""
    after: list[CodeSpan] = Field(default_factory=list)
    """Evidence lines in the new report."""


class ReportDiff(_Model):
    """What changed between two reports of the same paper."""

    schema_version: str = DIFF_SCHEMA_VERSION
    """Version of this diff format."""
    sa_align_version: str = ""
    """Version of `sa_align` that computed the diff."""
    old: ReportSide
    """The old report."""
    new: ReportSide
    """The new report."""
    mean_delta: float | None = None
    """New mean score minus old; `None` when either is undefined."""
    matched: int = 0
    """Units paired across the two reports."""
    matched_by: dict[str, int] = Field(default_factory=dict)
    """Pairs per pairing rule (`id`, `quote`, `claim`)."""
    regressions: list[UnitChange] = Field(default_factory=list)
    """Units whose score fell (both labels decided)."""
    fixes: list[UnitChange] = Field(default_factory=list)
    """Units whose score rose (both labels decided)."""
    changed: list[UnitChange] = Field(default_factory=list)
    """Other label changes: to or from `undecided`, or between labels of equal score."""
    added: list[UnitRef] = Field(default_factory=list)
    """Units only in the new report."""
    removed: list[UnitRef] = Field(default_factory=list)
    """Units only in the old report."""
    moved: list[EvidenceMove] = Field(default_factory=list)
    """Units with the same label whose evidence moved to other lines."""
    forced: bool = False
    """True when the reports' papers differ and the diff was forced."""
    notes: list[str] = Field(default_factory=list)
    """Things to know when reading the diff (a paper file edited between the runs, a forced comparison)."""


def diff_schema() -> dict:
    """JSON Schema of `diff.json`."""
    return ReportDiff.model_json_schema()
