"""What one pass of the Python query collects from a file, and which definition owns each line.

Shared by the Python fact readers (`python`, `pyfacts`, `scopes`), below all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from sa_align.index.model import Symbol


@dataclass
class _Def:
    node: Node
    kind: str
    name: str
    start: int
    end: int
    doc: Node | None = None
    params: Node | None = None
    bases: Node | None = None


@dataclass
class Collected:
    """Raw matches of one file, grouped by what they are."""

    defs: list[_Def] = field(default_factory=list)
    decorated: dict[int, int] = field(default_factory=dict)
    calls: list[tuple[int, str]] = field(default_factory=list)
    imports: list[dict[str, list[Node]]] = field(default_factory=list)
    values: list[tuple[str, dict[str, list[Node]]]] = field(default_factory=list)
    comments: list[Node] = field(default_factory=list)
    strings: list[Node] = field(default_factory=list)
    stubs: list[tuple[str, dict[str, list[Node]]]] = field(default_factory=list)
    call_nodes: list[tuple[Node, str, Node]] = field(default_factory=list)
    """(callee node, callee as written, call node) of every call, for the argument walk of `pyfacts.values`
    (the call comes from the match: `Node.parent` searches down from the root every time)."""
    standins: list[tuple[str, Node, str]] = field(default_factory=list)
    """(stand-in form, call node, callee text) of calls whose callee produces stand-in values."""
    scopes: list[tuple[str, Node]] = field(default_factory=list)
    """(capture name, node) of the `@bind.*` and `@scope.*` matches of python-scopes.scm."""
    mains: list[Node] = field(default_factory=list)
    module_doc: Node | None = None
    errors: int = 0
    source: bytes | None = None
    """The bytes the tree was parsed from: node texts are sliced from them (`values.node_text`)."""


class Owners:
    """Which symbol encloses each line: innermost definition wins."""

    def __init__(self, module: Symbol, n_lines: int):
        self.module = module
        self.by_line: list[str] = [module.id] * (n_lines + 2)
        self.symbols: dict[str, Symbol] = {module.id: module}
        self._fn_by_line: list[str | None] | None = None

    def of(self, line: int) -> Symbol:
        if 0 <= line < len(self.by_line):
            return self.symbols[self.by_line[line]]
        return self.module

    def owner_id(self, line: int) -> str:
        """Id of the innermost symbol at `line` (the module symbol at top level)."""
        by_line = self.by_line
        return by_line[line] if 0 <= line < len(by_line) else self.module.id

    def function_of(self, line: int) -> str | None:
        """Id of the enclosing function/class, `None` at module level."""
        table = self._fn_by_line
        if table is None:
            # Built on first use, once every definition is in `by_line`.
            mod = self.module.id
            table = self._fn_by_line = [None if sid == mod else sid for sid in self.by_line]
        return table[line] if 0 <= line < len(table) else None
