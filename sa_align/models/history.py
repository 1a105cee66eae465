"""The history report: one point per audited commit, and the commits that changed a unit's label."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sa_align.models.base import _Model
from sa_align.models.change import LabelChangeBase
from sa_align.models.report import PaperIdentity
from sa_align.models.units import CodeSpan

HISTORY_SCHEMA_VERSION = "1.0"
"""Version of the `history.json` format; bump on any breaking change."""


class CommitInfo(_Model):
    """Identity of one commit."""

    sha: str
    """Full commit id."""
    author: str = ""
    """Author name."""
    author_date: str = ""
    """Author date, ISO 8601 with the author's UTC offset."""
    subject: str = ""
    """First line of the commit message."""


class CommitPoint(_Model):
    """The audit of one commit."""

    commit: CommitInfo
    """The commit."""
    status: Literal["evaluated", "no-code"] = "evaluated"
    """`no-code` when the commit holds no file the indexer reads; such a point has no results."""
    n_units: int = 0
    """Units judged."""
    mean_score: float | None = None
    """Mean score of the commit's report; `None` when nothing was decided or there was no code."""
    counts: dict[str, int] = Field(default_factory=dict)
    """Units per final label."""
    files: int = 0
    """Files indexed."""
    files_reused: int = 0
    """Indexed files whose facts came from the cache (same content seen before, under any path) instead of a parse."""
    units_reused: int = 0
    """Units that kept the previous commit's verdicts because their candidate code was byte-identical."""
    notes: list[str] = Field(default_factory=list)
    """What was not indexed as code (submodules, LFS pointers, symlinks) and other things to know."""
    seconds: float = 0.0
    """Wall time spent on this commit."""


class EvidenceSnippet(_Model):
    """Evidence lines with their code as it read at that commit."""

    span: CodeSpan
    """Where."""
    code: str = ""
    """The lines' text (at most a screenful)."""


class LabelChange(LabelChangeBase[EvidenceSnippet]):
    """A commit that changed a unit's label: where the later label was introduced."""

    unit_id: str
    """The unit."""
    commit: CommitInfo
    """The commit that introduced `label_after`."""
    previous_commit: str
    """The audited commit before it (with code), whose label was `label_before`."""


class Selection(_Model):
    """Which commits were audited and why those."""

    revs: str | None = None
    """The range asked for (`A..B`, one revision), or `None` for the whole history of `HEAD`."""
    in_range: int = 0
    """Commits in the range along first parents."""
    every: int = 1
    """Every Nth commit was kept, counting back from the newest."""
    after_every: int = 0
    """Commits left after thinning with `every`, before the cap."""
    max_commits: int = 0
    """Cap on the number of commits audited."""
    capped: bool = False
    """True when the cap dropped older commits."""
    audited: int = 0
    """Commits audited."""
    shallow: bool = False
    """True when the repository is a shallow clone (its history may start later than the project's)."""


class ReuseStats(_Model):
    """How much work the history run did not repeat."""

    files: int = 0
    """Indexed files over all audited commits."""
    files_reused: int = 0
    """Of those, files whose facts came from the cache instead of a parse."""
    files_share: float | None = None
    """`files_reused / files`."""
    units: int = 0
    """Unit judgements over all audited commits after the first."""
    units_reused: int = 0
    """Of those, units that kept the previous commit's verdicts."""
    units_share: float | None = None
    """`units_reused / units`."""


class HistoryReport(_Model):
    """A paper audited across a repository's history, commit by commit."""

    schema_version: str = HISTORY_SCHEMA_VERSION
    """Version of this format."""
    sa_align_version: str = ""
    """Version of `sa_align` that produced it."""
    created_at: str = ""
    """UTC time it was produced, ISO 8601."""
    paper: PaperIdentity
    """The paper."""
    repo_path: str
    """The repository as given."""
    selection: Selection = Field(default_factory=Selection)
    """Which commits were audited."""
    points: list[CommitPoint] = Field(default_factory=list)
    """One point per audited commit, oldest first (first-parent order)."""
    changes: list[LabelChange] = Field(default_factory=list)
    """Every label change between consecutive audited commits, oldest first."""
    reuse: ReuseStats = Field(default_factory=ReuseStats)
    """Shares of files and units reused."""
    notes: list[str] = Field(default_factory=list)
    """Run-level notes: the cap applied, a shallow clone, commits without code."""
    timing: dict[str, float] = Field(default_factory=dict)
    """Seconds: `extract` (once), `commits` (all), `total`."""

    def introduced_in(self, unit_id: str) -> LabelChange | None:
        """The change that introduced the unit's latest label, if its label ever changed."""
        found = [c for c in self.changes if c.unit_id == unit_id]
        return found[-1] if found else None


def history_schema() -> dict:
    """JSON Schema of `history.json`."""
    return HistoryReport.model_json_schema()
