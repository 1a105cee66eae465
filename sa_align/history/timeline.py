"""Points of the timeline and the label changes between consecutive audited commits."""

from __future__ import annotations

from sa_align.history.gitread import CommitMeta
from sa_align.models import CodeSpan, UnitResult
from sa_align.models.history import CommitInfo, EvidenceSnippet, LabelChange

MAX_SPANS = 3
MAX_LINES = 15


def commit_info(meta: CommitMeta) -> CommitInfo:
    return CommitInfo(sha=meta.sha, author=meta.author, author_date=meta.author_date, subject=meta.subject)


def snippets(spans: list[CodeSpan], index) -> list[EvidenceSnippet]:
    """The first evidence spans with their code as it reads in `index` (the commit's own files)."""
    out = []
    for s in spans[:MAX_SPANS]:
        lines = index.lines(s.path, s.start_line, min(s.end_line, s.start_line + MAX_LINES - 1))
        out.append(EvidenceSnippet(span=s, code="\n".join(lines)))
    return out


class ChangeTracker:
    """Compares each audited commit's results with the previous commit that had code."""

    def __init__(self) -> None:
        self.changes: list[LabelChange] = []
        self._prev: tuple[str, dict[str, UnitResult], object] | None = None

    def add(self, meta: CommitMeta, results: list[UnitResult], index) -> int:
        """Record the label changes `meta` introduced; returns how many."""
        before = len(self.changes)
        if self._prev is not None:
            prev_sha, prev_results, prev_index = self._prev
            for r in results:
                old = prev_results.get(r.unit.id)
                if old is not None and old.label != r.label:
                    self.changes.append(LabelChange(
                        unit_id=r.unit.id, kind=r.unit.kind.value, claim=r.unit.claim, commit=commit_info(meta),
                        previous_commit=prev_sha, label_before=old.label, label_after=r.label,
                        score_before=old.score, score_after=r.score,
                        evidence_before=snippets(old.evidence, prev_index), evidence_after=snippets(r.evidence, index),
                        reason_after=r.reason,
                    ))
        self._prev = (meta.sha, {r.unit.id: r for r in results}, index)
        return len(self.changes) - before
