"""Normal-distribution notation gives its standard deviation: one value, never the mean, never the exponent."""

from __future__ import annotations

import pytest

from sa_align.extract import extract_units
from sa_align.extract.distribution import normal_std
from sa_align.extract.spaced import cell_quantities
from sa_align.numbers import find_quantities
from sa_align.paper import paper_from_text


def _values(text: str) -> list[float]:
    return [q.value for _, _, q in normal_std(text, find_quantities(text))]


@pytest.mark.parametrize("text, std", [
    ("N(0, 0.3^2)", 0.3),
    ("$\\mathcal{N}(0, 0.3^{2})$", 0.3),
    ("N(0, 0.3²)", 0.3),
    ("N(0, 0.3{2)", 0.3),  # a converter's lost superscript
    ("N(1, 0.05)", 0.05),  # a plain second argument is kept as written
])
def test_a_normal_distribution_states_one_std(text: str, std: float) -> None:
    assert _values(text) == pytest.approx([std])
    assert [q.value for q in cell_quantities(text)] == pytest.approx([std])


@pytest.mark.parametrize("text, values", [
    ("clipped to (-0.5, 0.5)", [-0.5, 0.5]),  # a bracketed pair with no distribution before it
    ("CNN(3, 64)", [3, 64]),  # a name ending in N is no distribution
    ("layers N = 4, 8", [4, 8]),
])
def test_other_pairs_are_left_alone(text: str, values: list[float]) -> None:
    assert _values(text) == pytest.approx(values)


def test_noise_settings_read_the_std_from_prose_and_math() -> None:
    text = ("# Method\n\nWe perturb each action with exploration noise $\\mathcal{N}(0, 0.3^2)$ before it is taken.\n\n"
            "The parameter noise is drawn from $\\mathcal { N } ( 0 , 0 . 1 ^ { 2 } )$ at every step.\n")
    got = [(p.name, p.value, p.values) for u in extract_units(paper_from_text(text)) for p in u.params]
    assert ("noise_std", 0.3, []) in got
    assert not any(p[1] in (0, 2, 0.09, 0.01) or p[2] for p in got)  # no mean, no exponent, no list
