"""Keep a unit's verdicts from the previous commit when the code its judges saw is byte-identical.

A unit's fingerprint covers each candidate in rank order: its path, its lines, the
exact text of those lines and whether its symbol is reachable from an entry
point. The previous result's evidence lines must also read the same as they did.
When both hold, judging again would see the same code, so the previous result
is kept (with this commit's candidate records).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sa_align.models import Candidate, CodeSpan, UnitResult


def _span_bytes(index, span: CodeSpan) -> bytes:
    return "\n".join(index.lines(span.path, span.start_line, span.end_line)).encode("utf-8", "surrogateescape")


def candidates_fingerprint(candidates: list[Candidate], index) -> str:
    h = hashlib.sha256()
    for c in candidates:
        s = c.span
        reachable = bool(s.symbol) and index.is_reachable(f"{s.path}::{s.symbol}")
        h.update(f"{s.path}\0{s.start_line}\0{s.end_line}\0{int(reachable)}\0".encode())
        h.update(_span_bytes(index, s))
        h.update(b"\1")
    return h.hexdigest()


def evidence_fingerprint(spans: list[CodeSpan], index) -> str:
    h = hashlib.sha256()
    for s in spans:
        h.update(f"{s.path}\0{s.start_line}\0{s.end_line}\0".encode())
        h.update(_span_bytes(index, s))
        h.update(b"\1")
    return h.hexdigest()


@dataclass
class _Memo:
    candidates: str
    evidence: str
    result: UnitResult


class VerdictMemo:
    """The previous commit's results and the fingerprints of the code they were judged on."""

    def __init__(self) -> None:
        self._memo: dict[str, _Memo] = {}

    def reusable(self, unit_id: str, fingerprint: str, index) -> UnitResult | None:
        """The previous result when this commit shows its judges the same code
        (`fingerprint` from `candidates_fingerprint`), else `None`."""
        memo = self._memo.get(unit_id)
        if memo is None or memo.candidates != fingerprint:
            return None
        if memo.evidence != evidence_fingerprint(memo.result.evidence, index):
            return None
        return memo.result

    def remember(self, results: list[UnitResult], fingerprints: dict[str, str], index) -> None:
        """Record this commit's results and their candidates' fingerprints as the base for the next commit."""
        self._memo = {r.unit.id: _Memo(fingerprints.get(r.unit.id, ""), evidence_fingerprint(r.evidence, index), r)
                      for r in results}

    def clear(self) -> None:
        """Forget everything (after a commit without code)."""
        self._memo = {}
