"""Number notations, scanning and percent-aware comparison."""

from __future__ import annotations

import pytest

from sa_align.numbers import find_quantities, parse_number, parse_quantity, values_equal


@pytest.mark.parametrize(
    "text, expected",
    [
        ("3e-4", 3e-4), ("3E-4", 3e-4), ("3 × 10^-4", 3e-4), ("3x10^{-4}", 3e-4),
        ("3 \\times 10^{-4}", 3e-4), ("10^{-3}", 1e-3), ("1e-3", 1e-3), ("0.0003", 3e-4),
        ("3·10⁻⁴", 3e-4), ("−3e-4", -3e-4), ("10k", 1e4), ("10K", 1e4), ("1.2M", 1.2e6),
        ("1B", 1e9), ("5%", 0.05), ("5\\%", 0.05), ("1/255", 1 / 255), ("\\frac{1}{255}", 1 / 255),
        ("2^{10}", 1024), ("2**10", 1024), ("1,000,000", 1e6), ("1_000", 1000), ("$10^{-3}$", 1e-3),
        ("3 million", 3e6), (".5", 0.5), ("1e{-4}", 1e-4), ("10⁻³", 1e-3), ("3 * 10**-4", 3e-4),
        ("256", 256), ("100 epochs", 100),
    ],
)  # fmt: skip
def test_notations_parse_to_the_same_float(text: str, expected: float) -> None:
    assert parse_number(text) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("text", ["lr", "", "$\\eta$", "CIFAR-10", "3D", "abc 12 def"])
def test_non_numbers_give_none(text: str) -> None:
    assert parse_number(text) is None


def test_scientific_notation_is_exact_decimal() -> None:
    assert parse_number("3 × 10^-4") == 0.0003
    assert parse_number("3e-4") == 0.0003


def test_quantity_keeps_percent_unit_and_integrality() -> None:
    q = parse_quantity("5%")
    assert q is not None and q.percent and q.value == 0.05 and q.number == 5 and q.unit == "%"
    epochs = parse_quantity("100 epochs")
    assert epochs is not None and epochs.unit == "epochs" and epochs.scalar() == 100
    assert isinstance(parse_quantity("10k").scalar(), int)
    assert isinstance(parse_quantity("1e-3").scalar(), float)


def test_find_quantities_skips_identifiers_and_keeps_offsets() -> None:
    text = "ResNet-50 on CIFAR-10 with β1 = 0.9, lr=-1e-3, 1.5x faster, 3 × 10^-4 and 10k steps"
    found = find_quantities(text)
    assert [text[s:e] for s, e, _ in found] == ["0.9", "-1e-3", "3 × 10^-4", "10k"]
    assert [q.value for _, _, q in found] == [0.9, -0.001, 0.0003, 10000]


def test_decimal_pairs_are_not_fractions() -> None:
    assert [q.value for _, _, q in find_quantities("betas 0.9/0.999")] == [0.9, 0.999]


def test_comma_lists_in_square_brackets_are_lists() -> None:
    text = "each trajectory is a [64,200] grid, sweeps over [10,20,50,100,250] and 1,024 or [1,000] samples"
    found = find_quantities(text)
    assert [text[s:e] for s, e, _ in found] == ["64", "200", "10", "20", "50", "100", "250", "1,024", "1,000"]
    assert [q.value for _, _, q in found][-2:] == [1024, 1000]


def test_values_equal_percent_policy() -> None:
    assert values_equal("5%", 0.05)
    assert values_equal("5%", 5)
    assert values_equal(0.05, "5%")
    assert not values_equal("5%", "0.05%")
    assert not values_equal(5, 0.05)
    assert values_equal("3e-4", 0.0003)
    assert values_equal("3 × 10^-4", "0.0003")
    assert not values_equal(1e-3, 1.1e-3)
    assert values_equal(1e-3, 1.1e-3, rel_tol=0.2)


def test_values_equal_other_types() -> None:
    assert values_equal(True, True) and not values_equal(True, 1)
    assert values_equal("Cosine", "cosine") and not values_equal("cosine", "linear")
    assert not values_equal("cosine", 3)
