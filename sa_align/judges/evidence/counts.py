"""Count parameters (seeds, runs, folds): every site that says how many, loops included.

A paper's "5 seeds" is set in code as a number (`num_seeds = 5`, `--runs 5`),
as a list of seeds (`seeds = [0, 1, 2, 3, 4]`: its length counts), or by a loop
(`sa_align/index/loops.py`): `for seed in range(5)` states the count itself and
sits where a literal in running code would (tier 2, or a module constant's tier
at module level); `for run in range(args.runs)` and `for seed in SEEDS` defer
to the sites of the setting they name, which keep their own precedence.
"""

from __future__ import annotations

from functools import lru_cache

from sa_align.index.loops import count_loops
from sa_align.index.model import RepoIndex, ValueFact
from sa_align.models import Param
from sa_align.numbers import parse_number
from sa_align.resources import load_yaml
from sa_align.retrieve.params import (
    canonical,
    fact_names,
    is_test_path,
    norm_name,
    param_index,
)


@lru_cache(maxsize=1)
def _count_params() -> frozenset[str]:
    return frozenset(canonical(str(p)) for p in load_yaml("numeric.yaml")["count_loops"])


def is_count(p: Param) -> bool:
    """The parameter counts repetitions (seeds, runs, folds) and states how many."""
    if p.value is None or isinstance(p.value, bool) or canonical(p.name) not in _count_params():
        return False
    n = parse_number(p.value)
    return n is not None and float(n).is_integer()


def param_sites(p: Param, index: RepoIndex) -> list[ValueFact]:
    """The facts that set `p`; for a count, lists counted by length and loops that state it."""
    sites = param_index(index).sites(p)
    if not is_count(p):
        return sites
    out = [as_count(f) for f in sites]
    out += loop_sites(canonical(p.name), index)
    seen: set[tuple[str, int, str]] = set()
    unique = []
    for f in out:
        key = (f.path, f.line, f.key_path)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return sorted(unique, key=lambda f: (f.path, f.line))


def as_count(fact: ValueFact) -> ValueFact:
    """A list of seeds (`[0, 1, 2]`) states how many by its length."""
    if not isinstance(fact.value, list) or any(isinstance(v, (list, dict)) for v in fact.value):
        return fact
    return fact.model_copy(update={"value": len(fact.value), "raw": f"{fact.raw} ({len(fact.value)} items)"})


def loop_sites(param_key: str, index: RepoIndex) -> list[ValueFact]:
    """Sites that loops over `param_key` (a canonical count) state or defer to."""
    out: list[ValueFact] = []
    for loop in count_loops(index):
        if canonical(loop.param) != param_key:
            continue
        fn = _function_at(index, loop.path, loop.line)
        if loop.count is not None:
            out.append(ValueFact(name=loop.var, key_path=loop.var, value=loop.count, raw=f"for {loop.var} in {loop.raw}",
                                 source="assign", path=loop.path, line=loop.line, symbol=fn))
            continue
        for f in _setting_facts(index, loop.setting or "", loop.bare, loop.path, fn):
            if loop.form == "items" and isinstance(f.value, list):
                out.append(as_count(f))
            elif loop.form == "range" and isinstance(f.value, int) and not isinstance(f.value, bool):
                out.append(f)
    return out


def _setting_facts(index: RepoIndex, name: str, bare: bool, path: str, fn: str | None) -> list[ValueFact]:
    """Facts that set the setting a loop names: for a bare name, in its own function or file
    top level, or a module constant anywhere (imported); for `args.x` or `cfg["x"]`, any
    flag, config key or assignment of `x`. Another call's arguments never are."""
    own = norm_name(name)
    found = param_index(index).by_name.get(canonical(name), []) + param_index(index).by_name.get(own, [])
    out = []
    for f in found:
        # A bare name is one Python variable (`SEEDS` is not `seeds`); a flag or key matches loosely.
        names = fact_names(f) if bare else {norm_name(n) for n in fact_names(f)}
        if is_test_path(f.path) or f.source in ("kwarg", "positional") or (name if bare else own) not in names:
            continue
        if bare and not ((f.path == path and f.symbol in (fn, None)) or (f.source == "assign" and f.symbol is None)):
            continue
        out.append(f)
    return out


def _function_at(index: RepoIndex, path: str, line: int) -> str | None:
    """Id of the innermost function or method around `line`, `None` at module level."""
    around = [s for s in index.symbols if s.path == path and s.kind in ("function", "method")
              and s.start_line <= line <= s.end_line]
    return max(around, key=lambda s: s.start_line).id if around else None
