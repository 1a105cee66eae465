"""What code reads, from the indexed text: names a Python function body uses, variables a shell script expands.

A literal takes effect only where something reads it: a parameter default the
function body never uses, or a shell variable the script never expands or
exports, sets nothing. The answers come from tree-sitter over
`RepoIndex.file_text`; the audited code is never imported or run. A file is
parsed at most once per index, and only when a judge asks about it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex
from sa_align.index.queries import parser
from sa_align.resources import load_yaml

# Identifiers in these fields bind or name something (`def f`, `f(lr=...)`, `x.lr`); they never read a local.
_NOT_READ_FIELDS = frozenset({"name", "attribute"})
# Where a shell `variable_name` is bound rather than read.
_SHELL_BINDERS = frozenset({"variable_assignment", "for_statement", "declaration_command", "unset_command"})


@dataclass(frozen=True)
class ShellReads:
    """How a shell script uses its variables."""

    expanded: frozenset[str]
    """Names the script reads: `$NAME`, `${NAME}`, `$((NAME - 1))`, `(( i < NAME ))`."""
    exported: frozenset[str]
    """Names handed to the commands it runs: `export NAME=...`, `declare -x NAME=...`, `NAME=... cmd`."""


def _walk(node: Any) -> Iterator[tuple[Any, str | None]]:
    """Every node under `node` with the field name it has in its parent (iterative: deep trees are fine)."""
    cursor = node.walk()
    depth = 0
    while True:
        yield cursor.node, cursor.field_name
        if cursor.goto_first_child():
            depth += 1
            continue
        while depth > 0 and not cursor.goto_next_sibling():
            cursor.goto_parent()
            depth -= 1
        if depth == 0:
            return


def _cache(index: RepoIndex, key: str) -> dict:
    return per_index(index, f"reads:{key}", lambda _ix: {})


def _tree(index: RepoIndex, path: str, language: str) -> Any:
    trees = _cache(index, f"trees:{language}")
    if path not in trees:
        trees[path] = parser(language).parse(index.file_text(path).encode("utf-8"))
    return trees[path]


def shell_reads(index: RepoIndex, path: str) -> ShellReads:
    """The variables the shell script `path` expands and exports."""
    cache = _cache(index, "shell")
    if path not in cache:
        cache[path] = _shell_reads(_tree(index, path, "bash").root_node)
    return cache[path]


def _shell_reads(root: Any) -> ShellReads:
    expanded: set[str] = set()
    exported: set[str] = set()
    for node, _field in _walk(root):
        if node.type != "variable_name" or node.parent is None:
            continue
        name = node.text.decode("utf-8", "replace")
        parent = node.parent
        if parent.type not in _SHELL_BINDERS:
            expanded.add(name)
        elif _exports(parent):
            exported.add(name)
    return ShellReads(frozenset(expanded), frozenset(exported))


def _exports(binder: Any) -> bool:
    """`export X=1`, `declare -x X=1` and the `X=1 cmd` prefix hand the variable to child processes."""
    holder = binder.parent if binder.type == "variable_assignment" else binder
    if holder is None:
        return False
    if holder.type == "command":
        return True
    if holder.type != "declaration_command" or not holder.children:
        return False
    keywords = ("export", "word", "declare", "typeset")
    words = [c.text.decode("utf-8", "replace") for c in holder.children if c.type in keywords]
    return "export" in words or any(w.startswith("-") and "x" in w for w in words)


def body_reads(index: RepoIndex, symbol_id: str) -> frozenset[str] | None:
    """Names the body of function `symbol_id` reads; `None` when unknown (not found, or it reads
    its locals reflectively through `locals()`, `vars()`, `eval`, ...)."""
    cache = _cache(index, "body")
    if symbol_id not in cache:
        cache[symbol_id] = _body_reads(index, symbol_id)
    return cache[symbol_id]


def _body_reads(index: RepoIndex, symbol_id: str) -> frozenset[str] | None:
    sym = index.symbol_by_id.get(symbol_id)
    if sym is None or sym.kind not in ("function", "method"):
        return None
    fn = _function_node(index, sym.path, sym.name, sym.start_line, sym.end_line)
    body = fn.child_by_field_name("body") if fn is not None else None
    if body is None:
        return None
    names = {
        node.text.decode("utf-8", "replace")
        for node, field in _walk(body)
        if node.type == "identifier" and field not in _NOT_READ_FIELDS
    }
    reflective = set(load_yaml("numeric.yaml")["reflective_reads"])
    return None if names & reflective else frozenset(names)


def _function_node(index: RepoIndex, path: str, name: str, start: int, end: int) -> Any:
    """The `function_definition` node of `def name` between lines `start` and `end` (decorators come first)."""
    head = re.compile(rf"^(\s*)(?:async\s+)?def\s+{re.escape(name)}\b")
    # Rows as tree-sitter counts them (`\n` only), which `splitlines` would not match on `\f` or `\r`.
    for offset, line in enumerate(index.file_text(path).split("\n")[max(start - 1, 0) : end]):
        m = head.match(line)
        if m is None:
            continue
        node = _tree(index, path, "python").root_node.descendant_for_point_range(
            (start - 1 + offset, len(m.group(1))), (start - 1 + offset, len(m.group(1)))
        )
        while node is not None and node.type != "function_definition":
            node = node.parent
        found = node.child_by_field_name("name") if node is not None else None
        return node if found is not None and found.text.decode("utf-8", "replace") == name else None
    return None
