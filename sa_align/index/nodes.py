"""Questions about a parsed tree's nodes that need no parser, so a module asking them imports no tree-sitter."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node


def call_by_callee(ref: "Node") -> "Node | None":
    """The call whose callee is `ref`, a bare name (`f(x)`) or the attribute of `obj.f(x)`; else `None`."""
    callee = ref
    if ref.parent is not None and ref.parent.type == "attribute" and ref.parent.child_by_field_name("attribute") == ref:
        callee = ref.parent
    call = callee.parent
    if call is None or call.type != "call" or call.child_by_field_name("function") != callee:
        return None
    return call
