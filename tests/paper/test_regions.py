"""Regions of a converted paper, checked against parts marked by hand (not by the recogniser)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sa_align.models import Paper
from sa_align.paper import load_paper, paper_from_text

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "papers" / "converted.md"

# Each marked part: its kind, the text it starts with and the text it ends with (both inside it).
MARKED = [
    ("furniture", "Published as a conference paper at ICLR 2031", "Published as a conference paper at ICLR 2031"),
    ("contents", "# 1 Introduction 1", "# A Proofs 9"),
    ("furniture", "\n12\n", "12"),  # a page number on a line of its own
    ("table", "<table>", "</table>"),
    ("code", "1 import torch", ".topk(2)"),  # a listing a converter numbered line by line
    ("statement", "Theorem 1. The router", "balanced in expectation."),
    ("proof", "Proof. Let", "balance follows. □"),
    ("statement", "Lemma 2. Each expert", "at most $k$ tokens."),
    ("acknowledgements", "# Acknowledgements", "was a typo."),
    ("references", "# References", "for everything. 2020."),
    ("proof", "# A.1 Proof of Lemma 2", "at most k tokens."),
    ("checklist", "# NeurIPS Paper Checklist", "Are 5 seeds reported?"),
]
# Parts that belong to no region: the body.
UNMARKED = [
    "We study sparse routing",
    "We train with a learning rate of 3e-4",
    "Table 1: Training hyperparameters.",
    "The router is written in PyTorch",  # prose about code is no listing
]


@pytest.fixture(scope="module")
def paper() -> Paper:
    return load_paper(FIXTURE)


def _span(text: str, first: str, last: str, after: int = 0) -> tuple[int, int]:
    start = text.index(first, after) + len(first) - len(first.lstrip("\n"))
    return start, text.index(last, start) + len(last)


def test_marked_parts_are_regions_of_their_kind(paper: Paper) -> None:
    after = 0
    for kind, first, last in MARKED:
        start, end = _span(paper.text, first, last, after)
        region = paper.region_at(start, {kind})
        assert region is not None, (kind, first)
        assert region.start <= start and end <= region.end, (kind, first, region)
        after = start + 1


def test_body_and_statements_are_in_no_region(paper: Paper) -> None:
    for part in UNMARKED:
        pos = paper.text.index(part)
        assert paper.region_at(pos) is None, (part, paper.region_at(pos))


def test_regions_keep_the_text_and_its_offsets(paper: Paper) -> None:
    assert paper.text == FIXTURE.read_text(encoding="utf-8")
    kinds = [r.kind for r in paper.regions]
    assert kinds.count("furniture") >= 3 and {"contents", "table", "proof", "checklist"} <= set(kinds)
    assert all(0 <= r.start < r.end <= len(paper.text) for r in paper.regions)
    assert [r.start for r in paper.regions] == sorted(r.start for r in paper.regions)


@pytest.mark.parametrize(
    "text",
    [
        # Hyperparameters listed one per line look like a contents page only by their last number.
        "# Setup\n\nBatch size 256\nEpochs 100\nHidden units 512\n",
        # A sentence ending in a number is not a page reference.
        "# Setup\n\nWe train for 100 epochs.\n\nThe model has 12 layers and 512\n",
    ],
)
def test_settings_lines_are_not_a_table_of_contents(text: str) -> None:
    assert not any(r.kind == "contents" for r in paper_from_text(text).regions)


def test_a_proof_without_an_end_mark_stops_at_the_next_heading() -> None:
    text = "# Theory\n\nProof. It follows from the definition.\n\n# Experiments\n\nWe use a batch size of 32.\n"
    paper = paper_from_text(text)
    proof = next(r for r in paper.regions if r.kind == "proof")
    assert paper.text[proof.start : proof.end].startswith("Proof.") and proof.end <= text.index("# Experiments")


def test_latex_proofs_are_proofs_and_statements_are_statements() -> None:
    tex = (
        "\\documentclass{article}\\begin{document}\\section{Method} We train with batch size 256.\n"
        "\\begin{theorem} The loss decreases. \\end{theorem}\n"
        "\\begin{proof} Set the batch size to 64; then it follows. \\end{proof}\n"
        "After the proof we use a dropout of 0.1.\n\\end{document}"
    )
    paper = paper_from_text(tex, format="latex")
    proof = next(r for r in paper.regions if r.kind == "proof")
    assert paper.text[proof.start : proof.end] == "Proof. Set the batch size to 64; then it follows. □"
    assert paper.region_at(paper.text.index("Theorem. The loss"), {"statement"}) is not None
    assert paper.region_at(paper.text.index("Theorem. The loss"), {"proof"}) is None
    assert paper.region_at(paper.text.index("After the proof")) is None


def test_code_listings_are_regions_and_give_no_units() -> None:
    from sa_align.extract import extract_units

    listing = ("1 2 if image_obs: self.cnn1 $=$ nn.Conv2d(channels, 32, 3, stride $= 2$ )   \n"
               "3 self.cnn2 $=$ nn.Conv2d(32, 32, 3, stride $= 1$ )   \n4 self.lin $=$ nn.Linear(1568, 512)   \n"
               "5 def forward(self, x):   \n6 return self.lin(x)")
    text = (f"# Method\n\nWe train with a learning rate of 3e-4.\n\n{listing}\n\n"
            "```python\nopt = torch.optim.Adam(model.parameters(), lr=0.1)\n```\n")
    paper = paper_from_text(text)
    assert paper.region_at(text.index("1 2 if"), {"code"}) is not None
    assert paper.region_at(text.index("```python"), {"code"}) is not None
    assert paper.region_at(text.index("We train")) is None
    params = {(p.name, p.value) for u in extract_units(paper) for p in u.params}
    assert params == {("learning_rate", 3e-4)}  # not `stride = 2`, nor the call's 1568


_STATEMENTS = (
    "# 3 Method\n\nWe train with a learning rate of 3e-4.\n\n"
    "Lemma 3 (Bounded drift). For every step size $\\eta = 0.5$ the iterates satisfy\n\n"
    "$$ \\| x_{k+1} - x_k \\| \\le \\eta G $$\n\n"
    "where $G = 10$ bounds the gradient norm.\n\n"
    "The router then uses a temperature of 0.7.\n\n"
    "**Assumption 2.** The rewards lie in $[0, 1]$.\n\n"
    "Example 1 (A toy chain). Consider a chain of 5 states.\n\n"
    "Remark: the constant 4 can be improved.\n\n"
    "Definition 1. The routing loss is $L = \\sum_i p_i^2$.\n\n"
    "Theorem 2 shows that the loss decreases; we use 8 experts.\n"
)


@pytest.mark.parametrize(
    "inside",
    ["Lemma 3 (Bounded drift).", "$$ \\| x_{k+1}", "where $G = 10$", "**Assumption 2.**", "Example 1 (A toy chain)",
     "Remark: the constant"],
)
def test_statement_blocks_run_over_their_display_math_and_continuation(inside: str) -> None:
    paper = paper_from_text(_STATEMENTS)
    assert paper.region_at(_STATEMENTS.index(inside), {"statement"}) is not None


@pytest.mark.parametrize(
    "outside", ["We train with", "The router then uses", "Definition 1.", "Theorem 2 shows that"],
)
def test_definitions_prose_and_the_paragraph_after_a_statement_are_no_statements(outside: str) -> None:
    paper = paper_from_text(_STATEMENTS)
    assert paper.region_at(_STATEMENTS.index(outside)) is None


def test_statement_blocks_give_no_units() -> None:
    from sa_align.extract import extract_units

    params = {(p.name, p.value) for u in extract_units(paper_from_text(_STATEMENTS)) for p in u.params}
    assert ("learning_rate", 3e-4) in params and ("temperature", 0.7) in params
    assert not {v for _n, v in params} & {0.5, 10, 5, 4}
