"""What a reviewer needs beside a unit's label, added once the label stands.

A report is rendered from the `DriftReport` alone, long after the repository is gone, so the
code of an evidence span no candidate's snippet holds is copied into the result here (a few
lines per span, a bounded number of spans), and an undecided unit gets its next step
(`next_step`). Neither changes a label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sa_align.config import EvalConfig
from sa_align.judges.next_step import next_step
from sa_align.models import CodeSpan, EvidenceCode, UnitResult

if TYPE_CHECKING:
    from sa_align.index.model import RepoIndex

MAX_SPANS = 10
"""Evidence spans per unit whose code is copied (aggregation keeps at most ten)."""
MAX_LINES = 3
"""Lines copied per span: enough to show the line a judge cites and its neighbour."""


def finish(result: UnitResult, index: "RepoIndex", config: EvalConfig) -> UnitResult:
    """`result` with its evidence code and, when undecided, its next step."""
    step, calls = next_step(result, config, has_code=index.has_code())
    return result.model_copy(update={"next_step": step, "next_step_calls": calls,
                                     "evidence_code": evidence_code(result, index)})


def evidence_code(result: UnitResult, index: "RepoIndex") -> list[EvidenceCode]:
    """The code of each evidence span the candidates' snippets do not already hold."""
    return [_copy(span, index) for span in result.evidence[:MAX_SPANS] if not held_by_candidate(result, span)]


def held_by_candidate(result: UnitResult, span: CodeSpan) -> bool:
    """Whether a candidate's snippet holds the span's first line (the report cuts its window from there)."""
    return any(c.snippet and c.span.path == span.path and c.span.start_line <= span.start_line <= c.span.end_line
               for c in result.candidates)


def _copy(span: CodeSpan, index: "RepoIndex") -> EvidenceCode:
    if index.file_kind(span.path) is None:
        return EvidenceCode(span=span, unreadable="the file is not in the index (skipped or outside the repository)")
    lines = index.lines(span.path, span.start_line, min(span.end_line, span.start_line + MAX_LINES - 1))
    if not lines:
        return EvidenceCode(span=span, unreadable=f"the file has no line {span.start_line}")
    return EvidenceCode(span=span, lines=lines, more_lines=max(0, span.end_line - span.start_line + 1 - len(lines)))
