"""What a reviewer acts on, on real runs of the example: evidence with its code, the next step of an
undecided unit, the headline and its definitions, readable claims, an empty repository's warning."""

from __future__ import annotations

import re

import pytest

import sa_align
from sa_align.config import EvalConfig
from sa_align.report import render
from sa_align.report.console import summary_lines, warnings
from sa_align.report.sentences import EXPECTED_DEFINITION, MEAN_DEFINITION
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"


@pytest.fixture(scope="module")
def offline():
    return sa_align.evaluate(EX / "paper.md", EX / "repo", config=EvalConfig(embeddings=False))


@pytest.fixture(scope="module")
def narrow():
    # One candidate per unit, so some evidence (train.py:24, the LR schedule) lies outside every candidate.
    return sa_align.evaluate(EX / "paper.md", EX / "repo", config=EvalConfig(embeddings=False, top_k=1))


@pytest.fixture(scope="module")
def empty(tmp_path_factory):
    repo = tmp_path_factory.mktemp("empty")
    (repo / "README.md").write_text("Code will follow.\n")
    return sa_align.evaluate(EX / "paper.md", repo, config=EvalConfig(embeddings=False))


def _evidence_blocks(md: str) -> list[tuple[str, str]]:
    """(evidence line, what follows it) for every evidence line of report.md."""
    parts = re.split(r"^(Evidence: .*)$", md, flags=re.M)
    return [(parts[i], parts[i + 1].lstrip("\n")) for i in range(1, len(parts), 2)]


@pytest.mark.parametrize("which", ["offline", "narrow"])
def test_every_evidence_line_in_report_md_shows_its_code(which, request):
    md = render(request.getfixturevalue(which), "md")
    blocks = _evidence_blocks(md)
    assert blocks
    for line, after in blocks:
        assert after.startswith("```"), (line, after[:120])
        assert after.split("\n", 2)[1].strip(), (line, after[:120])  # the fence holds a line of code


def test_evidence_outside_the_candidates_shows_the_copied_lines(narrow):
    md = render(narrow, "md")
    line = (EX / "repo" / "train.py").read_text().splitlines()[23]
    after = dict(_evidence_blocks(md))["Evidence: `train.py:24`"]
    assert after.startswith("```\n" + line + "\n```")


def test_an_evidence_span_whose_code_is_gone_says_why(narrow):
    r = next(r for r in narrow.results if r.evidence_code and r.label != "aligned")  # shown in full
    broken = r.evidence_code[0].model_copy(update={"lines": [], "unreadable": "the file is not in the index"})
    report = narrow.model_copy(update={"results": [r.model_copy(update={"evidence_code": [broken]})]})
    md = render(report, "md")
    assert f"Evidence: `{broken.span}`" in md and "*Code not shown: the file is not in the index.*" in md


def test_undecided_units_show_their_next_step_beside_the_reason(offline):
    md = render(offline, "md")
    section = md.split("## Undecided (")[1]
    units = section.split("\n### ")
    # A preview rule's held finding is checked by a person (or let decide with --preview); the rest by a model.
    held = [u for u in units[1:] if "(held: " in u]
    assert held and all("**Next step:** Check the held " in u for u in held)
    assert all("**Why:**" in u and "**Next step:** `--judge MODEL` would decide it: 1 call per model sample." in u
               for u in units[1:] if u not in held)
    undecided = offline.summary.counts["undecided"]
    open_ = undecided - len(held)
    assert (f"- Undecided: {undecided} units; `--judge MODEL` would decide {open_} of them in {open_} "
            "model calls (1 per model sample).") in md


def test_the_headline_is_the_expected_score_with_the_mean_beside_it_each_defined(offline):
    s = offline.summary
    md = render(offline, "md")
    summary = md.split("## Summary")[1]
    first = summary.strip().splitlines()[0]
    assert first == (f"- Expected score **{s.expected_score:.3f}** over all {s.n_units} units; "
                     f"mean score {s.mean_score:.3f} over the {s.decided} decided units")
    assert f"  - {EXPECTED_DEFINITION}" in summary and f"  - {MEAN_DEFINITION}" in summary
    lines = summary_lines(offline)
    assert lines[1].startswith(f"Expected score {s.expected_score:.3f} over all") and EXPECTED_DEFINITION in lines[2]
    page = render(offline, "html")
    assert 'id="headline">Expected score' in page and "expected score<b>" in page and "mean over decided<b>" in page


def test_without_calibration_the_headline_is_the_mean_and_says_why():
    report = sa_align.evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml",
                               config=EvalConfig(embeddings=False, calibration={"enabled": False}))
    assert summary_lines(report)[1].startswith("Mean score ") and "calibration is switched off" in summary_lines(report)[1]
    assert EXPECTED_DEFINITION not in render(report, "md")


def test_claims_are_shown_readable_and_stored_verbatim(offline):
    r = next(r for r in offline.results if "focal loss $FL" in r.unit.claim)
    md, page = render(offline, "md"), render(offline, "html")
    claim = next(line for line in md.splitlines() if line.startswith("**Claim:**") and "focal loss FL" in line)
    assert "FL(p_t) = -α_t (1 - p_t)^γ log(p_t)" in claim and "\\" not in claim and "$" not in claim
    assert "(1 - p_t)^γ log(p_t)" in page and r.unit.claim.count("\\gamma") == 2
    assert '"claim_text"' in page


def test_a_repository_without_code_is_flagged_and_warned_about(empty):
    assert [f.kind for f in empty.flags if f.kind == "empty-repo"] == ["empty-repo"]
    assert not empty.summary.has_code and empty.summary.counts["missing"] == empty.summary.n_units
    md = render(empty, "md")
    assert "> **Warning:** The repository holds no code or configuration file" in md
    assert f"its {empty.summary.n_units} missing units were not searched for" in md
    assert warnings(empty) and "nothing to search" in warnings(empty)[0]
    assert 'id="empty-repo"' in render(empty, "html")


def test_a_repository_with_code_gets_no_such_warning(offline):
    assert offline.summary.has_code and not warnings(offline)
    assert not [f for f in offline.flags if f.kind == "empty-repo"] and "Warning:" not in render(offline, "md")


def test_what_the_unit_budget_cut_is_listed_in_report_md_and_on_the_console():
    report = sa_align.evaluate(EX / "paper.md", EX / "repo", config=EvalConfig(embeddings=False, max_units=8))
    line = next(line for line in summary_lines(report) if line.startswith("Unit budget:"))
    assert re.fullmatch(r"Unit budget: kept 8 of \d+ units; cut: \d+ \w+(, \d+ \w+)*", line)
    assert f"- {line}" in render(report, "md")


def test_no_budget_line_when_nothing_was_cut(offline):
    assert not [line for line in summary_lines(offline) if line.startswith("Unit budget:")]
    assert "Unit budget:" not in render(offline, "md")
