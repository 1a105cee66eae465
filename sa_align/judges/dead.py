"""Dead code: implementations nothing that runs can reach, by the call graph or by name.

The call graph misses dynamic dispatch (registries, `getattr`, callbacks), so a
function counts as dead only when both views agree: no entry point reaches it,
and every line that spells its name (outside its own body, definitions,
imports and comments) lies inside another dead function. The second clause is
a fixpoint: a helper only called from an orphaned caller is dead too, which is
what happens when a placeholder or a deletion cuts a whole chain off.

Names the runtime calls implicitly (dunders, `forward`, `training_step`, ...;
`units/kinds.yaml`-independent, see `IMPLICIT`), test functions and abstract
methods are never dead. Nothing is dead in a repository that declares no
entry points: there is nothing to be unreachable from.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from sa_align.index.model import RepoIndex, Symbol
from sa_align.judges.evidence import docstring_lines, strip_comment
from sa_align.retrieve.params import is_test_path, per_index

# Called by frameworks or the interpreter, never by name in the repository.
IMPLICIT = re.compile(
    r"^(__\w+__|forward|call|setup|main|run|step|build|compute_loss|training_step|validation_step|test_step)$"
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEF_OR_IMPORT = re.compile(r"^\s*(async\s+def|def|class|import|from\s+\S+\s+import)\b")


@dataclass(frozen=True)
class DeadCode:
    """Dead functions and why each one is."""

    dead: frozenset[str]
    """Symbol ids of dead functions and methods."""
    callers: dict[str, tuple[str, ...]]
    """Dead symbol id -> the dead functions whose lines still name it (empty: nothing names it)."""


def _unreached(index: RepoIndex) -> dict[str, Symbol]:
    """Functions no entry point reaches that could be called by name."""
    out: dict[str, Symbol] = {}
    for sym in index.symbols:
        if sym.kind not in ("function", "method") or index.is_reachable(sym.id):
            continue
        if IMPLICIT.match(sym.name) or sym.name.startswith("test") or is_test_path(sym.path):
            continue
        out[sym.id] = sym
    return out


def _reference_owners(index: RepoIndex, names: set[str]) -> dict[str, list[tuple[str, int]]]:
    """Name -> (path, line) of every code line that spells it, outside definitions, imports and comments."""
    docs = docstring_lines(index)
    refs: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for info in index.files:
        if info.kind not in ("python", "notebook") or is_test_path(info.path):
            continue
        for no, raw in enumerate(index.file_text(info.path).splitlines(), 1):
            if (info.path, no) in docs or _DEF_OR_IMPORT.match(raw):
                continue
            for ident in set(_IDENT.findall(strip_comment(raw, "python")[:2000])) & names:
                refs[ident].append((info.path, no))
    return refs


def _functions_by_path(index: RepoIndex) -> dict[str, list[Symbol]]:
    out: dict[str, list[Symbol]] = defaultdict(list)
    for sym in index.symbols:
        if sym.kind in ("function", "method"):
            out[sym.path].append(sym)
    return out


def _owner(functions: list[Symbol], line: int) -> str | None:
    """The innermost function or method holding a line (`None`: module or class level, which runs)."""
    best: Symbol | None = None
    for sym in functions:
        if sym.start_line <= line <= sym.end_line and (best is None or sym.start_line >= best.start_line):
            best = sym
    return best.id if best is not None else None


def _inside(sym: Symbol, path: str, line: int) -> bool:
    return sym.path == path and sym.start_line <= line <= sym.end_line


K = TypeVar("K", bound=Hashable)


def dead_among(users: Mapping[K, set[K | None]]) -> set[K]:
    """The keys whose every user is itself dead (`None`: code that always runs), as a fixpoint:
    nothing uses a key, or only keys already dead do."""
    dead: set[K] = set()
    changed = True
    while changed:
        changed = False
        for key, owners in users.items():
            if key not in dead and all(o is not None and o in dead for o in owners):
                dead.add(key)
                changed = True
    return dead


def build_dead_code(index: RepoIndex) -> DeadCode:
    if not index.entry_points or not index.reachable:
        return DeadCode(frozenset(), {})
    pool = _unreached(index)
    refs = _reference_owners(index, {s.name for s in pool.values()})
    functions = _functions_by_path(index)
    owners: dict[str, set[str | None]] = {}
    for sid, sym in pool.items():
        owners[sid] = {_owner(functions[p], ln) for p, ln in refs.get(sym.name, []) if not _inside(sym, p, ln)}
    dead = dead_among(owners)
    callers = {sid: tuple(sorted(u for u in owners[sid] if u is not None)) for sid in dead}
    return DeadCode(frozenset(dead), callers)


def dead_code(index: RepoIndex) -> DeadCode:
    """The index's dead functions, computed once."""
    return per_index(index, "dead-code", build_dead_code)


__all__ = ["DeadCode", "IMPLICIT", "dead_among", "dead_code"]
