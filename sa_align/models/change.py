"""A unit whose label changed: the before/after fields the diff and the history report share.

`diff.UnitChange` (between an old and a new report) and `history.LabelChange` (between two audited
commits) extend `LabelChangeBase` with the fields that say which change it is, and parametrize it with
their kind of evidence (`CodeSpan` in a diff, `EvidenceSnippet`, the spans with their code, in a history).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, Field

from sa_align.models.base import Label, _Model

EvidenceT = TypeVar("EvidenceT", bound=BaseModel)


class LabelChangeBase(_Model, Generic[EvidenceT]):
    """A unit whose label changed: its label, score and evidence before and after the change.

    The shared fields come first in what a subclass writes, its identifying fields after them."""

    kind: str
    """Unit kind."""
    claim: str
    """The claim, as it is stated after the change (in the new report, or at the later commit)."""
    label_before: Label
    """Label before the change (in the old report, or at the previous commit)."""
    label_after: Label
    """Label after the change (in the new report, or at the later commit)."""
    score_before: float | None = None
    """Score before the change (in the old report, or at the previous commit)."""
    score_after: float | None = None
    """Score after the change (in the new report, or at the later commit)."""
    evidence_before: list[EvidenceT] = Field(default_factory=list)
    """Evidence before the change (the old report's lines, or the lines at the previous commit with their code)."""
    evidence_after: list[EvidenceT] = Field(default_factory=list)
    """Evidence after the change (the new report's lines, or the lines at the later commit with their code)."""
    reason_after: str = ""
    """Why the label after the change was given."""
