"""Literal evaluation without eval: numbers, strings, containers, constant arithmetic and its guards."""

from __future__ import annotations

import pytest

from sa_align.index.queries import parser
from sa_align.index.values import NOT_LITERAL, literal_and_raw, literal_value, node_text


def _value(expr: str):
    tree = parser("python").parse(f"x = {expr}\n".encode())
    right = tree.root_node.named_children[0].named_children[0].child_by_field_name("right")
    return literal_value(right)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("3e-4", 3e-4), ("-0.5", -0.5), ("1_000", 1000), ("0x1F", 31), ("2 ** 10", 1024), ("1 / 255", 1 / 255),
        ("3 * 10 ** -4", 3e-4), ("(0.9, 0.999)", [0.9, 0.999]), ("[1, (2, None)]", [1, [2, None]]),
        ("True", True), ("None", None), ("'cifar10'", "cifar10"), ('r"a\\d"', "a\\d"), ("'a' 'b'", "ab"),
        ("7 // 2", 3), ("-(2 ** 3)", -8), ("((4))", 4),
    ],
)
def test_literals(expr, expected):
    assert _value(expr) == pytest.approx(expected) if isinstance(expected, float) else _value(expr) == expected


@pytest.mark.parametrize("expr", ["a + 1", "f(2)", "1 / 0", "10 ** 10 ** 10", "2 ** 100000", "f'{a}'", "1j", "not 1"])
def test_non_literals_and_guards(expr):
    assert _value(expr) is NOT_LITERAL


def test_texts_sliced_from_the_source_are_the_node_texts():
    source = "lr = 3e-4  # é\nname = 'café' 'ñ'\nsteps = [1, -2, 2 ** 3]\n".encode()
    tree = parser("python").parse(source)
    rights = [s.named_children[0].child_by_field_name("right") for s in tree.root_node.named_children
              if s.type == "expression_statement"]
    assert [node_text(r, source) for r in rights] == [r.text.decode() for r in rights]
    assert [literal_value(r, source=source) for r in rights] == [literal_value(r) for r in rights] == \
        [3e-4, "caféñ", [1, -2, 8]]
    assert literal_and_raw(rights[1], source=source) == literal_and_raw(rights[1]) == ("caféñ", "'café' 'ñ'")
