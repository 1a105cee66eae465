"""Functions a structural edit cuts off: alive before the edit, dead after it.

A stubbed or deleted function no longer calls its helpers, and commenting out a
call site silences its callee; whatever only those calls reached stops running
even though its code is intact. By the label definitions such code is
`stubbed` (a real implementation nothing reachable calls), so the generator
must know it when it sets the gold of the other units.

The computation is syntactic and independent of the index the judges use (only
the fixpoint itself, `dead.dead_among`, is shared): a
function is dead when every identifier spelling its name (outside its own
body, its definition and imports) lies inside another dead function, as a
fixpoint; module- and class-level code always runs. Only names defined once in
the repository count (a shared method name could be called on anything), and
names the runtime calls implicitly never die.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sa_align.bench import syntax as sx
from sa_align.judges.dead import dead_among

if TYPE_CHECKING:
    from tree_sitter import Node

IMPLICIT_PREFIXES = ("__", "test")
IMPLICIT = {"forward", "main", "setup", "run", "step", "call", "build", "training_step", "validation_step", "test_step"}
"""Names frameworks or the interpreter call without naming them in the repository."""


@dataclass(frozen=True)
class _Def:
    path: str
    qualname: str
    name: str
    start: int
    end: int


def _qualname(node: "Node") -> str:
    parts = [sx.def_name(node)]
    cur = node.parent
    while cur is not None:
        if cur.type in ("function_definition", "class_definition"):
            parts.append(sx.def_name(cur))
        cur = cur.parent
    return ".".join(reversed(parts))


def _innermost(defs: list[_Def], line: int) -> str | None:
    best = None
    for d in defs:
        if d.start <= line <= d.end and (best is None or d.start >= best.start):
            best = d
    return best.qualname if best is not None else None


def _dead(texts: dict[str, str]) -> tuple[set[tuple[str, str]], dict[tuple[str, str], _Def]]:
    """(path, qualname) of dead functions, and every function by (path, qualname)."""
    trees = {p: sx.parse(t) for p, t in texts.items() if sx.is_python(p)}
    defs: dict[tuple[str, str], _Def] = {}
    for path, tree in trees.items():
        for fn in sx.functions(tree):
            if fn.type == "function_definition":
                d = _Def(path, _qualname(fn), sx.def_name(fn), sx.first_line(sx.outer(fn)), sx.last_line(fn))
                defs[(path, d.qualname)] = d
    counts: dict[str, int] = defaultdict(int)
    for d in defs.values():
        counts[d.name] += 1
    by_path: dict[str, list[_Def]] = defaultdict(list)
    for d in defs.values():
        by_path[d.path].append(d)
    return dead_among(_users(trees, defs, counts, by_path)), defs


def _users(trees, defs, counts, by_path) -> dict[tuple[str, str], set[tuple[str, str] | None]]:
    """For each function that can die: the functions (or `None`, running code) whose lines name it."""
    mortal = {d.name: k for k, d in defs.items()
              if counts[d.name] == 1 and d.name not in IMPLICIT and not d.name.startswith(IMPLICIT_PREFIXES)}
    users: dict[tuple[str, str], set[tuple[str, str] | None]] = {k: set() for k in mortal.values()}
    for path, tree in trees.items():
        for node in sx.walk(tree.root_node):
            if node.type != "identifier" or (key := mortal.get(sx.node_text(node))) is None:
                continue
            if node.parent is not None and node.parent.type in sx.DEF_TYPES and node.parent.child_by_field_name("name") == node:
                continue
            if sx.in_import(node) is not None:
                continue
            line = sx.first_line(node)
            own = defs[key]
            if own.path == path and own.start <= line <= own.end:
                continue
            owner = _innermost(by_path[path], line)
            users[key].add((path, owner) if owner is not None else None)
    return users


def cut_off_lines(before: dict[str, str], after: dict[str, str]) -> dict[str, set[int]]:
    """Old lines (path -> line numbers) of the functions that are alive in `before` and dead in `after`.

    `after` holds only the edited files; the others are as in `before`. A function the
    edit deleted is not cut off: it is gone.
    """
    dead_before, defs_before = _dead(before)
    dead_after, defs_after = _dead({**before, **after})
    out: dict[str, set[int]] = defaultdict(set)
    for key in dead_after - dead_before:
        if key in defs_before and key in defs_after:
            d = defs_before[key]
            out[d.path].update(range(d.start, d.end + 1))
    return dict(out)
