"""Dead code: implementations nothing that runs can reach, by the call graph or by name.

The call graph misses dynamic dispatch (registries, `getattr`, callbacks), so a
function counts as dead only when both views agree: no entry point reaches it,
and by the liveness definition of `units/liveness.yaml` (`usage.py`, shared
with the benchmark generator) nothing that runs uses it: every spelling of its
name lies inside other dead functions, as a fixpoint, and no rule keeps it
(decorators, framework hooks, configs, computed names, re-exports, ...).

The judge sees one state of the code, so "nothing spells its name" alone
proves nothing: the name may be reached in a way no rule knows. A dead
function is `proven` (what a `stubbed` verdict may rest on) only when the code
keeps a trace of the call it lost: commented-out code calling it (a call
someone switched off; certain), a call written in a placeholder's comment
(`# TODO: return name(x)`; certain), an import of it that nothing in the
importing file uses (likely), or dead callers that are proven in turn. What
only unproven code calls is unproven too. Nothing is dead in a repository that
declares no entry points: there is nothing to be unreachable from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex
from sa_align.index.walk import is_test_path
from sa_align.judges.evidence.liveness.facts import Spelled, python_facts
from sa_align.judges.evidence.liveness.usage import Key, Program, dead_among
from sa_align.judges.evidence.placeholders import placeholder


@dataclass(frozen=True)
class Trace:
    """A spelling that says a dead function was called once."""

    path: str
    line: int
    kind: str
    """`off` (commented-out code calling it), `mention` (a call a placeholder's comment writes) or
    `import` (an import nothing in its file uses)."""
    owner: str | None
    """Symbol id of the function holding it, if any."""


@dataclass(frozen=True)
class DeadCode:
    """Dead functions and why each one is."""

    dead: frozenset[str]
    """Symbol ids of the functions and methods nothing that runs uses (no entry point reaches them and
    the liveness definition finds no use), including those nothing names at all."""
    callers: dict[str, tuple[str, ...]]
    """Dead symbol id -> the dead functions whose lines still name it (empty: none do)."""
    traces: dict[str, tuple[Trace, ...]] = field(default_factory=dict)
    """Dead symbol id -> the switched-off calls and unused imports that still name it."""
    proven: frozenset[str] = frozenset()
    """The dead functions whose lost callers the code still shows: a trace of their own, or dead callers
    that are proven in turn. Only these are `stubbed`; the rest may be reached in a way no rule knows."""
    certain: frozenset[str] = frozenset()
    """Proven functions whose every lost caller is known from a switched-off call (not only an unused import)."""


def program_of(index: RepoIndex) -> Program:
    """The index's code as liveness sees it (the texts the index kept, never the file system)."""

    def build(ix: RepoIndex) -> Program:
        texts = {f.path: ix.file_text(f.path) for f in ix.files if not is_test_path(f.path)}
        program = Program.from_texts({p: t for p, t in texts.items() if not p.endswith(".ipynb")})
        for f in ix.files:
            if f.kind == "notebook" and f.path in texts:
                program.files[f.path] = python_facts(texts[f.path])  # already the virtual code text
        return program

    return per_index(index, "liveness-program", build)


def _function_ids(index: RepoIndex, program: Program) -> dict[Key, str]:
    """Each function of the program -> the index's symbol id for it (same file, first line and name)."""
    ids = {(s.path, s.start_line, s.name): s.id for s in index.symbols if s.kind in ("function", "method")}
    return {(p, fn): ids[(p, fn.start_line, fn.name)] for p, fn in program.functions
            if (p, fn.start_line, fn.name) in ids}


def _pool(index: RepoIndex, program: Program, ids: dict[Key, str]) -> dict[Key, str]:
    """Functions no entry point reaches and no rule keeps -> symbol id."""
    return {key: sid for key, sid in ids.items()
            if not index.is_reachable(sid) and program.kept(*key) is None}


def _owner_id(ids: dict[Key, str], owner: Key | None) -> str | None:
    """The symbol id of a user; a user the index does not know counts as code that runs."""
    return ids.get(owner) if owner is not None else None


def build_dead_code(index: RepoIndex) -> DeadCode:
    """Dead, proven and certain functions of the index (see the module docstring)."""
    if not index.entry_points or not index.reachable:
        return DeadCode(frozenset(), {})
    program = program_of(index)
    ids = _function_ids(index, program)
    pool = _pool(index, program, ids)
    program.spellings({fn.name for _, fn in pool})
    users: dict[str, set[str | None]] = {}
    traces: dict[str, tuple[Trace, ...]] = {}
    for (path, fn), sid in pool.items():
        found = program.users(path, fn)
        users[sid] = {_owner_id(ids, u) for u in found.users}
        traces[sid] = tuple(t for t in (_trace(ids, w, sp) for w, sp in found.traces) if _telling(index, t))
    dead = dead_among(users)
    # A root nothing names and nothing traces proves nothing: it may run, and so may what it calls.
    proven = dead_among({sid: (owners if owners or traces[sid] else {None}) for sid, owners in users.items()})
    callers = {sid: tuple(sorted(u for u in users[sid] if u is not None)) for sid in dead}
    return DeadCode(frozenset(dead), callers, {sid: traces[sid] for sid in dead if traces[sid]},
                    frozenset(proven), _certain(proven, callers, traces))


def _trace(ids: dict[Key, str], path: str, sp: Spelled) -> Trace:
    return Trace(path, sp.line, sp.kind, _owner_id(ids, (path, sp.owner) if sp.owner is not None else None))


def _telling(index: RepoIndex, trace: Trace) -> bool:
    """A call a comment writes in prose (`# TODO: return name(x)`) tells only inside a placeholder,
    where it says what the placeholder stands in for; commented-out code and unused imports always do."""
    if trace.kind != "mention":
        return True
    owner = index.symbol_by_id.get(trace.owner) if trace.owner else None
    return owner is not None and placeholder(index, owner) is not None


def _certain(dead: set[str], callers: dict[str, tuple[str, ...]], traces: dict[str, tuple[Trace, ...]]) -> frozenset[str]:
    """Dead functions with a switched-off call of their own, or whose every dead caller is certain."""
    # The same fixpoint as deadness: a switched-off call is a seed (no user to wait for); a function
    # with no dead caller and no such call never becomes certain (`None` is a user that never dies).
    users = {sid: set() if any(t.kind in ("off", "mention") for t in traces.get(sid, ()))
             else (set(callers[sid]) or {None}) for sid in dead}
    return frozenset(dead_among(users))


def dead_code(index: RepoIndex) -> DeadCode:
    """The index's dead functions, computed once."""
    return per_index(index, "dead-code", build_dead_code)


__all__ = ["DeadCode", "Trace", "build_dead_code", "dead_among", "dead_code", "program_of"]
