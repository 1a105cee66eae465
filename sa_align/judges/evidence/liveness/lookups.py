"""Calls that look a name up from a computed string: `getattr(self, f"{kind}_decay")`, `globals()[name]`.

Such a lookup can reach a function without any code spelling its name, so
liveness keeps what it may reach: every function of the file that makes it
(and of the module it reads, for `getattr(module, name)`), and every function
whose name the literal parts of the computed string can spell. Which calls
count, and which argument holds the name, is `units/liveness.yaml: dynamic_lookups`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import TYPE_CHECKING

from sa_align.index.nodes import call_by_callee
from sa_align.resources import load_yaml

if TYPE_CHECKING:
    from tree_sitter import Node

_FORMAT_HOLE = re.compile(r"\{[^{}]*\}|%[-#0 +]*\d*(?:\.\d+)?[sdrif]")

Ranges = tuple[tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=1)
def lookup_table() -> tuple[dict[str, int | None], re.Pattern[bytes], tuple[bytes, ...]]:
    """The lookups, one pattern finding their calls, and their names as bytes (a cheap pre-check)."""
    table = {str(k): v for k, v in load_yaml("liveness.yaml")["dynamic_lookups"].items()}
    names = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    return table, re.compile(rb"(?<![\w])(" + names.encode() + rb")\s*\("), tuple(k.encode() for k in table)


def _inside(ranges: Ranges, pos: int) -> bool:
    i = bisect_right(ranges[0], pos) - 1
    return i >= 0 and pos < ranges[1][i]


def _text(node: "Node") -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def computed_lookups(root: "Node", source: bytes, comments: Ranges,
                     strings: Ranges) -> tuple[bool, tuple[str, ...], tuple[str, ...]]:
    """Whether the file looks names up from computed strings, the name patterns such lookups can
    build, and the modules whose attributes they read (`comments`, `strings`: ranges to skip)."""
    table, calls, words = lookup_table()
    found = False
    patterns: list[str] = []
    modules: list[str] = []
    if not any(word in source for word in words):
        return False, (), ()
    for m in calls.finditer(source):
        if _inside(comments, m.start()) or _inside(strings, m.start()):
            continue
        node = root.named_descendant_for_byte_range(m.start(1), m.end(1))
        call = _call_of(node)
        if call is None:
            continue
        computed = _computed_name(call, table[m.group(1).decode()])
        if computed is None:
            continue
        found = True
        if (pattern := _name_pattern(computed)) is not None:
            patterns.append(pattern)
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        if m.group(1) == b"getattr" and args and args[0].type in ("identifier", "attribute") \
                and _text(args[0]) not in ("self", "cls"):
            modules.append(_text(args[0]))  # `getattr(losses, name)`: any function of `losses`
    return found, tuple(sorted(set(patterns))), tuple(sorted(set(modules)))


def _call_of(node: "Node | None") -> "Node | None":
    """The call whose callee is `node` (a bare name or the attribute of `obj.name`)."""
    if node is None or node.type != "identifier":
        return None
    call = call_by_callee(node)
    return call if call is not None and call.child_by_field_name("arguments") is not None else None


def _computed_name(call: "Node", position: int | None) -> "Node | None":
    """The expression that names what the call looks up, when it is not a plain string literal."""
    args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
    if position is None:  # globals() / locals() / vars(): a namespace dictionary
        if args:
            return None  # `vars(obj)` reads an object's attributes, not a function table
        holder = call.parent
        if holder is not None and holder.type == "subscript" and holder.child_by_field_name("value") == call:
            key = holder.child_by_field_name("subscript")
            return None if key is not None and _plain_string(key) else (key or call)
        return call
    if position >= len(args) or args[position].type == "keyword_argument":
        return None
    return None if _plain_string(args[position]) else args[position]


def _plain_string(node: "Node") -> bool:
    return node.type == "string" and not any(c.type == "interpolation" for c in node.named_children)


def _name_pattern(expr: "Node") -> str | None:
    """A regular expression for the names `expr` can build (`f"{name}_decay"` -> `\\w*_decay`);
    `None` when it has no literal part to match on."""
    pattern = _pattern_of(expr)
    return pattern if re.search(r"[A-Za-z0-9_]{2,}", pattern.replace(r"\w*", "")) else None


def _pattern_of(expr: "Node") -> str:
    if expr.type == "string":
        parts = []
        for child in expr.named_children:
            if child.type == "string_content":
                literal = _FORMAT_HOLE.split(_text(child))
                parts.append(r"\w*".join(re.escape(piece) for piece in literal))
            elif child.type == "interpolation":
                parts.append(r"\w*")
        return "".join(parts)
    if expr.type == "binary_operator":
        left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
        if left is not None and right is not None:
            # `"build_" + name` joins both sides; `"%s_decay" % name` is the format string's
            op = expr.child_by_field_name("operator")
            return _pattern_of(left) + (_pattern_of(right) if op is not None and op.type == "+" else "")
    if expr.type == "call":
        fn = expr.child_by_field_name("function")
        if fn is not None and fn.type == "attribute" and fn.child_by_field_name("object") is not None:
            return _pattern_of(fn.child_by_field_name("object"))  # `"{}_decay".format(name)`
    if expr.type == "parenthesized_expression" and expr.named_children:
        return _pattern_of(expr.named_children[0])
    return r"\w*"
