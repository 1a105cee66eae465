"""Functions a structural edit cuts off: alive before the edit, dead after it.

A stubbed or deleted function no longer calls its helpers, and commenting out a
call site silences its callee; whatever only those calls reached stops running
even though its code is intact. By the label definitions such code is
`stubbed` (a real implementation nothing reachable calls), so the generator
must know it when it sets the gold of the other units.

Which code uses a function is the one liveness definition the dead-code judge
uses too (`units/liveness.yaml`, `judges/evidence/liveness/usage.py`): the same spellings count,
the same rules keep a function alive (decorators, framework hooks, configs,
computed names, re-exports, names defined twice, tests that are no users), and
it is computed from the file texts alone, never from the judges' index. A
function is dead when every use of its name lies inside other dead functions,
as a fixpoint; module- and class-level code always runs.

The generator knows one thing the judge cannot: the state before the edit. A
function that was used and that nothing names afterwards was cut off by the
edit, trace or not; the judge, seeing only the result, needs a trace to tell
such a function from one reached in a way no rule knows (`judges/evidence/liveness/dead.py`).
"""

from __future__ import annotations

from collections import defaultdict

from sa_align.judges.evidence.liveness.facts import Function
from sa_align.judges.evidence.liveness.usage import Key, Program, dead_among

Identity = tuple[str, str, int]
"""A function across versions of the code: file, qualname, and which definition of that qualname."""


def _identities(program: Program) -> dict[Identity, Function]:
    """Functions by identity: a getter and its setter, or two conditional definitions, stay apart."""
    out: dict[Identity, Function] = {}
    seen: dict[tuple[str, str], int] = defaultdict(int)
    for path, fn in program.functions:
        n = seen[(path, fn.qualname)]
        seen[(path, fn.qualname)] += 1
        out[(path, fn.qualname, n)] = fn
    return out


def dead_functions(texts: dict[str, str]) -> tuple[set[Identity], dict[Identity, Function]]:
    """Identities of the functions no code that runs uses, and every function by identity."""
    program = Program.from_texts(texts)
    mortal: list[Key] = [key for key in program.functions if program.kept(*key) is None]
    program.spellings({fn.name for _, fn in mortal})
    users = {key: program.users(*key).users for key in mortal}
    dead = dead_among(users)
    functions = _identities(program)
    return {ident for ident, fn in functions.items() if (ident[0], fn) in dead}, functions


def cut_off_lines(before: dict[str, str], after: dict[str, str]) -> dict[str, set[int]]:
    """Old lines (path -> line numbers) of the functions that are alive in `before` and dead in `after`.

    `after` holds only the edited files; the others are as in `before`. A function the
    edit deleted is not cut off: it is gone. Notebooks count as code that uses
    functions, but their lines are cells of a virtual text, so none is reported.
    """
    dead_before, defs_before = dead_functions(before)
    dead_after, defs_after = dead_functions({**before, **after})
    out: dict[str, set[int]] = defaultdict(set)
    for ident in dead_after - dead_before:
        if ident in defs_before and ident in defs_after and not ident[0].endswith(".ipynb"):
            fn = defs_before[ident]
            out[ident[0]].update(range(fn.start_line, fn.end_line + 1))
    return dict(out)


__all__ = ["cut_off_lines", "dead_functions"]
