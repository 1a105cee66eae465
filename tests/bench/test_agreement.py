"""Cohen's kappa on small tables worked out by hand: po is observed agreement, pe agreement by chance."""

from __future__ import annotations

import pytest

from sa_align.bench.agreement import binary_kappa_from_counts, cohen_kappa


def _lists(nn: int, ny: int, yn: int, yy: int) -> tuple[list[int], list[int]]:
    return [0] * (nn + ny) + [1] * (yn + yy), [0] * nn + [1] * ny + [0] * yn + [1] * yy


def test_perfect_agreement_is_one():
    assert cohen_kappa(["a", "b", "c", "a"], ["a", "b", "c", "a"], ["a", "b", "c", "d"]) == 1.0
    assert binary_kappa_from_counts(3, 0, 0, 2) == 1.0


def test_agreement_at_chance_is_zero():
    # po = 1/2; each rater says yes half the time -> pe = 1/2
    assert cohen_kappa([0, 0, 1, 1], [0, 1, 0, 1], [0, 1]) == 0.0
    # one rater always says yes: po = pe = share of yes from the other
    assert cohen_kappa([0, 1, 1, 1], [1, 1, 1, 1], [0, 1]) == 0.0


def test_worked_binary_table_and_its_labels_agree_to_the_last_bit():
    # n = 50, po = 35/50; yes 25/50 and 20/50 -> pe = .5 * .4 + .5 * .6 = .5 -> (.7 - .5) / .5
    first, second = _lists(20, 5, 10, 15)
    assert cohen_kappa(first, second, [0, 1]) == pytest.approx(0.4)
    assert binary_kappa_from_counts(20, 5, 10, 15) == cohen_kappa(first, second, [0, 1])


def test_undefined_when_both_raters_use_one_and_the_same_class():
    assert cohen_kappa(["a", "a", "a"], ["a", "a", "a"], ["a", "b", "c"]) is None
    assert cohen_kappa([1, 1], [1, 1], [0, 1]) is None
    assert binary_kappa_from_counts(7, 0, 0, 0) is None
    assert binary_kappa_from_counts(0, 0, 0, 0) is None


def test_defined_when_each_rater_uses_a_different_single_class():
    # po = 0, pe = 1 * 0 + 0 * 1 = 0
    assert cohen_kappa([0, 0, 0], [1, 1, 1], [0, 1]) == 0.0
    assert binary_kappa_from_counts(0, 3, 0, 0) == 0.0
