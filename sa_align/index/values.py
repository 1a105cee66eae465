"""Turn Python literal syntax nodes into JSON values, without `eval`.

Handles numbers (`1e-3`, `-0.5`, `1_000`, `0x10`), strings, `True`/`False`/`None`,
tuples and lists of literals, and constant arithmetic (`2 ** 10`, `1 / 255`,
`3 * 10 ** -4`). Anything else is `NOT_LITERAL`. Depth, size and exponents are
bounded so hostile input cannot blow up time or memory.
"""

from __future__ import annotations

import math
import re
from typing import Any

from tree_sitter import Node

NOT_LITERAL: Any = object()
"""Sentinel: the node is not a constant literal."""

MAX_DEPTH = 16
MAX_ITEMS = 256
MAX_STRING = 2000
MAX_INT_BITS = 256

_STRING_PREFIX = re.compile(r"^[rRbBuUfF]{0,2}")


def string_text(raw: str) -> str:
    """Content of a string literal: prefix and quotes removed, escapes kept as written."""
    body = _STRING_PREFIX.sub("", raw, count=1) if raw[:1] not in _QUOTES else raw
    q = body[:3]
    if (q == '"""' or q == "'''") and len(body) >= 6 and body.endswith(q):
        return body[3:-3]
    q = body[:1]
    if (q == '"' or q == "'") and len(body) >= 2 and body.endswith(q):
        return body[1:-1]
    return body


_QUOTES = ("\"", "'")


def _number(text: str, kind: str) -> Any:
    text = text.replace("_", "")
    try:
        if kind == "integer":
            if text[-1:] in "jJ":
                return NOT_LITERAL
            return int(text, 0) if len(text) < 80 else NOT_LITERAL
        if text[-1:] in "jJ":
            return NOT_LITERAL
        value = float(text)
        return value if math.isfinite(value) else NOT_LITERAL
    except ValueError:
        try:
            return int(text.lstrip("0") or "0")
        except ValueError:
            return NOT_LITERAL


def _power(a: Any, b: Any) -> Any:
    if abs(b) > 400 or (isinstance(b, int) and b > 0 and isinstance(a, int) and abs(a).bit_length() * b > MAX_INT_BITS):
        return NOT_LITERAL
    if a == 0 and b < 0:
        return NOT_LITERAL
    return a**b


def _tidy(value: Any) -> Any:
    """Drop float noise from constant arithmetic (`3 * 10 ** -4` -> 0.0003)."""
    if isinstance(value, float) and math.isfinite(value):
        return float(f"{value:.15g}")
    return value


def _binary(op: str, a: Any, b: Any) -> Any:
    if isinstance(a, bool) or isinstance(b, bool):
        return NOT_LITERAL
    if isinstance(a, str) or isinstance(b, str):
        if op == "+" and isinstance(a, str) and isinstance(b, str) and len(a) + len(b) <= MAX_STRING:
            return a + b
        return NOT_LITERAL
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return NOT_LITERAL
    try:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return _tidy(a * b)
        if op == "/":
            return _tidy(a / b)
        if op == "//":
            return a // b
        if op == "%":
            return a % b
        if op == "**":
            return _tidy(_power(a, b))
    except (ZeroDivisionError, OverflowError):
        return NOT_LITERAL
    return NOT_LITERAL


def node_text(node: Node, source: bytes | None = None) -> str:
    """The decoded text of `node`. With `source` (the bytes the tree was parsed from) it is sliced
    from them: `Node.text` builds a memoryview and calls a method for every node, four times the cost."""
    raw = node.text if source is None else source[node.start_byte:node.end_byte]
    return raw.decode("utf-8", "replace")


def literal_value(node: Node, depth: int = 0, source: bytes | None = None) -> Any:
    """JSON value of a literal node, or `NOT_LITERAL` (`source`: see `node_text`)."""
    if depth > MAX_DEPTH:
        return NOT_LITERAL
    t = node.type
    if t in ("integer", "float"):
        return _number(node_text(node, source), t)
    if t == "string":
        return _string(node, node_text(node, source))
    if t == "concatenated_string":
        parts = [literal_value(c, depth + 1, source) for c in node.named_children]
        if any(p is NOT_LITERAL for p in parts):
            return NOT_LITERAL
        return "".join(parts)
    if t == "true":
        return True
    if t == "false":
        return False
    if t == "none":
        return None
    if t == "parenthesized_expression":
        inner = node.named_children
        return literal_value(inner[0], depth + 1, source) if len(inner) == 1 else NOT_LITERAL
    if t in ("tuple", "list", "expression_list"):
        return _sequence(node, depth, source)
    if t == "unary_operator":
        return _unary(node, depth, source)
    if t == "binary_operator":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is None or left is None or right is None:
            return NOT_LITERAL
        a = literal_value(left, depth + 1, source)
        if a is NOT_LITERAL:
            return NOT_LITERAL
        b = literal_value(right, depth + 1, source)
        if b is NOT_LITERAL:
            return NOT_LITERAL
        return _binary(op.type, a, b)
    return NOT_LITERAL


def _string(node: Node, raw: str) -> Any:
    # Only an f-string can interpolate; `f` within the first three characters
    # (prefix and quote) is a cheap necessary condition for one.
    head = raw[:3]
    if ("f" in head or "F" in head) and any(c.type == "interpolation" for c in node.named_children):
        return NOT_LITERAL
    return string_text(raw) if len(raw) <= MAX_STRING else NOT_LITERAL


def literal_and_raw(node: Node, limit: int = 200, source: bytes | None = None) -> tuple[Any, str]:
    """`literal_value(node)` and `raw_text(node, limit)`, decoding the node's text once (`source`: see `node_text`)."""
    text = node_text(node, source)
    t = node.type
    if t == "integer" or t == "float":
        value = _number(text, t)
    elif t == "string":
        value = _string(node, text)
    else:
        value = literal_value(node, 0, source)
    if len(text) > limit:
        text = text[:limit] + "..."
    return value, (" ".join(text.split()) if "\n" in text else text)


def _sequence(node: Node, depth: int, source: bytes | None) -> Any:
    if node.named_child_count > MAX_ITEMS:
        return NOT_LITERAL
    items = []
    for child in node.named_children:
        if child.type == "comment":
            continue
        value = literal_value(child, depth + 1, source)
        if value is NOT_LITERAL:
            return NOT_LITERAL
        items.append(value)
    return items


def _unary(node: Node, depth: int, source: bytes | None) -> Any:
    op = node.child_by_field_name("operator")
    arg = node.child_by_field_name("argument")
    if op is None or arg is None:
        return NOT_LITERAL
    value = literal_value(arg, depth + 1, source)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return NOT_LITERAL
    if op.type == "-":
        return -value
    if op.type == "+":
        return value
    return NOT_LITERAL


def raw_text(node: Node, limit: int = 200, source: bytes | None = None) -> str:
    """Source text of a node, whitespace collapsed and capped (`source`: see `node_text`)."""
    text = node_text(node, source)
    if len(text) > limit:
        text = text[:limit] + "..."
    return " ".join(text.split()) if "\n" in text else text
