"""The part of a `report.json` a diff reads, validated without the rest.

A 400-unit report carries candidates, snippets and every judge's verdict; a diff
needs none of them, so reading only these fields is several times faster, and a
report of a newer minor format (fields added) is still read: unknown fields are
ignored here, where the full `DriftReport` forbids them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from sa_align.models import CodeSpan, Label, UnitKind


class _Lean(BaseModel):
    model_config = ConfigDict(extra="ignore", use_attribute_docstrings=True)


class UnitView(_Lean):
    """A unit's identity."""

    id: str
    """Unit id."""
    kind: UnitKind
    """Unit kind."""
    claim: str
    """The claim."""
    quote: str = ""
    """The paper's words."""


class ResultView(_Lean):
    """A unit's outcome."""

    unit: UnitView
    """The unit."""
    label: Label
    """Final label."""
    score: float | None = None
    """Final score."""
    evidence: list[CodeSpan] = Field(default_factory=list)
    """Evidence lines."""
    reason: str = ""
    """Why."""
    held_label: Label | None = None
    """A preview rule's failure held back for review (report format 1.4)."""


class PaperView(_Lean):
    """The paper's identity."""

    title: str
    """Title."""
    sha256: str = ""
    """SHA-256 of the paper file."""


class RepoView(_Lean):
    """The repository's identity."""

    path: str
    """Repository path."""
    git_commit: str | None = None
    """Commit, when known."""


class SummaryView(_Lean):
    """Headline numbers."""

    mean_score: float | None = None
    """Mean score."""
    counts: dict[str, int] = Field(default_factory=dict)
    """Units per label."""


class ReportView(_Lean):
    """What a diff reads of one report."""

    schema_version: str
    """Format version of the report."""
    created_at: str = ""
    """When it was produced."""
    paper: PaperView
    """The paper."""
    repo: RepoView
    """The repository."""
    results: list[ResultView] = Field(default_factory=list)
    """Unit outcomes in report order."""
    summary: SummaryView = Field(default_factory=SummaryView)
    """Headline numbers."""
