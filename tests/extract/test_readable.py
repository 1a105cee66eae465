"""Claims shown as text: the math a converter spaced out, read back."""

import pytest

from sa_align.extract.readable import readable, readable_math


@pytest.mark.parametrize("claim, shown", [
    (r"We use $\lambda \in [ 0 , 1 )$ for all runs.", "We use λ ∈ [0, 1) for all runs."),
    (r"a batch of $1 0 0 0$ images", "a batch of 1000 images"),
    (r"$\mathrm { m a x } _ { i } x_i$", "max_i x_i"),
    (r"a learning rate of $1 0 ^ { - 4 }$", "a learning rate of 10^-4"),
    (r"$\beta_1 = 0 . 9$ and $x \leq \infty$", "β_1 = 0.9 and x ≤ ∞"),
    (r"$\operatorname { s o f t m a x } ( W x )$", "softmax (W x)"),
    (r"sizes $\{ 1 , 2 , 4 \}$, clipped to $[ - 1 , 1 ]$", "sizes {1, 2, 4}, clipped to [-1, 1]"),
    (r"$\mathbf { W } _ { q } \in \mathbb { R } ^ { d \times d }$", "W_q ∈ R^(d×d)"),
    (r"$b = -\log((1 - \pi)/\pi)$", "b = -log((1 - π)/π)"),
    (r"dropout $5 \%$", "dropout 5%"),
])
def test_math_reads_as_text(claim, shown):
    assert readable(claim) == shown


def test_prose_is_left_alone_but_a_quoted_symbol_macro_is_shown_as_its_symbol():
    # Outside math `4 2` may be two numbers, and markdown escapes are the renderer's business.
    assert readable("keep 4 2 items; the \\*focal loss\\*") == "keep 4 2 items; the \\*focal loss\\*"
    assert readable('focal_gamma = 2 (written as "\\gamma")') == 'focal_gamma = 2 (written as "γ")'
    assert readable("\\unknownmacro stays") == "\\unknownmacro stays"


def test_a_segment_is_read_with_or_without_its_delimiters():
    assert readable_math("$\\alpha = 0 . 2 5$") == readable_math("\\alpha = 0 . 2 5") == "α = 0.25"


def test_broken_math_never_raises():
    assert readable("$\\frac { 1 $ and $}}{{$") is not None
