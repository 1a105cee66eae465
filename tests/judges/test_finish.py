"""Evidence code copied at judging time, so every evidence line of a report can show its code."""

from __future__ import annotations

import pytest

import sa_align
from sa_align.config import EvalConfig
from sa_align.index import build_index
from sa_align.judges.finish import MAX_LINES, evidence_code, held_by_candidate
from sa_align.models import CodeSpan, Label, Unit, UnitResult
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"


@pytest.fixture(scope="module")
def narrow_report():
    # One candidate per unit: the numeric judge's evidence (a scheduler line, a CLI default) lies outside it.
    return sa_align.evaluate(EX / "paper.md", EX / "repo", config=EvalConfig(embeddings=False, top_k=1))


def test_evidence_no_candidate_holds_is_copied_with_its_code(narrow_report):
    copied = [(r, ev) for r in narrow_report.results for ev in r.evidence_code]
    assert copied, "top_k=1 leaves some evidence outside the candidates"
    lines = (EX / "repo" / "train.py").read_text().splitlines()
    for r, ev in copied:
        assert not held_by_candidate(r, ev.span) and ev.unreadable is None
        assert 1 <= len(ev.lines) <= MAX_LINES
        if ev.span.path == "train.py":
            assert ev.lines[0] == lines[ev.span.start_line - 1]
    spans = {str(ev.span) for _r, ev in copied}
    assert "train.py:24" in spans  # the MultiStepLR line the lr-schedule unit is judged on


def test_held_spans_are_not_copied_twice(narrow_report):
    for r in narrow_report.results:
        assert len(r.evidence_code) == sum(1 for s in r.evidence[:10] if not held_by_candidate(r, s))


def test_a_span_whose_file_is_not_indexed_or_too_short_is_marked():
    index = build_index(EX / "repo")
    spans = [CodeSpan(path="gone.py", start_line=3, end_line=4), CodeSpan(path="train.py", start_line=9000, end_line=9001),
             CodeSpan(path="train.py", start_line=1, end_line=10)]
    r = UnitResult(unit=Unit(id="u", kind="method", claim="c"), label=Label.STUBBED, evidence=spans)
    gone, short, long = evidence_code(r, index)
    assert gone.lines == [] and "not in the index" in gone.unreadable
    assert short.lines == [] and "no line 9000" in short.unreadable
    assert len(long.lines) == MAX_LINES and long.more_lines == 10 - MAX_LINES and long.unreadable is None
