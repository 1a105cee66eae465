"""Numbers a converter spaced out: rejoined inside math and in table cells, left alone in prose."""

from __future__ import annotations

import pytest

from sa_align.extract import extract_units
from sa_align.extract.spaced import cell_quantities, math_quantities
from sa_align.paper import paper_from_text


@pytest.mark.parametrize(
    "text, values",
    [
        ("zs_dim $= ~ 5 1 2$ here", [512]),
        ("images of $5 1 2 \\times 5 1 2$ pixels", [512, 512]),
        ("a step size of $1 0 ^ { - 4 }$", [1e-4]),
        ("a rate of $0 . 0 0 1$", [0.001]),
        ("with $\\beta = 0 . 1$ and $\\gamma = 0 . 9 , \\lambda = 0 . 5$", [0.1, 0.9, 0.5]),  # one digit each side of the point
        ("strides $( 2 , 2 , 2 , 1 )$", []),  # a list keeps its commas: nothing to rejoin
        ("D.1 Ablations 4 2", []),  # prose: `4 2` may be two numbers
    ],
)
def test_math_runs(text: str, values: list[float]) -> None:
    assert [q.value for _, _, q in math_quantities(text, 0, len(text))] == pytest.approx(values)


@pytest.mark.parametrize(
    "cell, values",
    [("1e- 4", [1e-4]), ("1e - 4", [1e-4]), ("6.25 · 10-5", [6.25e-5]), ("10-3 10-8", [1e-3, 1e-8]), ("1M 256", [1e6, 256]),
     ("AdamW (Loshchilov &amp; Hutter, 2019)", []),  # a citation's year is no setting
     ("ELU (Clevert et al., 2015a)", []),
     ("(2019 setup)", [2019]),  # a year without a citation's authors stays a number
     # A remark in brackets qualifies the cell's own value; its numbers are another setting's.
     ("[−10, 10] (effective: [−22k, 22k])", [-10, 10]), ("0.99 (0.995 for Atari)", [0.99]), ("(2, 2, 2, 1)", [2, 2, 2, 1]),
     (",03B", []), ("1,000B", [1e12]),  # a separator with nothing before it: the converter lost the leading digits
     ("10,,000", [10000]), ("4,096 1,024", [4096, 1024]),  # a doubled separator is one
     # Thousands apart by a space are one number when a group starts with 0, never a list.
     ("100 000", [100000]), ("1 000 000", [1e6]), ("2\u2009048 576", [2048576]), ("64 128 256", [64, 128, 256]),
     ("10 240", [10, 240]), ("0.5 100", [0.5, 100])],
)
def test_cells(cell: str, values: list[float]) -> None:
    assert [q.value for q in cell_quantities(cell)] == pytest.approx(values)


def test_spaced_values_bind_to_their_names() -> None:
    paper = paper_from_text("# Method\n\nWe train with a batch size of $5 1 2$ and a learning rate of $3 \\times 1 0 ^ { - 4 }$.\n")
    got = {p.name: p.value for u in extract_units(paper) for p in u.params}
    assert got["batch_size"] == 512 and got["learning_rate"] == pytest.approx(3e-4)
