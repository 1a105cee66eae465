"""The parameter index: which value facts set which (canonical) parameter.

Shared by retrieval (the `param` signal) and the numeric judge. Names go
through the alias tables (`lr`, `learning_rate`, `optimizer.lr` and the keyword
`Adam(lr=...)` all answer to `learning_rate`); values are compared across
notations with `sa_align.numbers.values_equal`.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sa_align.aliases import canonical_param, normalize_key, param_aliases
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, ValueFact
from sa_align.index.walk import is_test_path
from sa_align.models import Param
from sa_align.numbers import parse_number, values_equal
from sa_align.resources import load_yaml
from sa_align.retrieve import callees


def norm_name(name: str) -> str:
    """Case- and separator-insensitive form of a name (`learningRate`, `args.lr` -> `learningrate`, `lr`)."""
    return normalize_key(name)


def canonical(name: str, context: str | None = None) -> str:
    """Key of the canonical parameter name through the alias tables, else of the name itself.

    `context` (callee, key path, enclosing function) picks the meaning of ambiguous
    names such as `gamma` (`StepLR(gamma=...)` is a decay factor, not a discount).
    """
    try:
        canon = canonical_param(name, context)
    except Exception:  # an odd identifier must never stop a lookup
        canon = None
    return norm_name(canon) if canon else norm_name(name)


def fact_names(fact: ValueFact) -> set[str]:
    """Every name a fact could be looked up by: its own, its key path's leaf, and the parameter a
    well-known library call's argument sets (`StepLR(opt, 30, 0.1)`: 30 is the step size)."""
    names = {fact.name}
    leaf = fact.key_path.rsplit(".", 1)[-1] if fact.key_path else ""
    if leaf:
        names.add(leaf)
    if (meant := call_meaning(fact)) is not None:
        names.add(meant)
    return {n for n in names if n}


# What each call argument of a live index means (`call_argument`), by fact identity: the callee is
# resolved through its file's imports, which only the index knows, while `fact_names` is asked
# about a bare fact. An entry holds its fact (so the id cannot be reused) and counts the indexes
# that registered it (copies of an index share facts); it goes when the last of them does.
_MEANINGS: dict[int, tuple[ValueFact, str, int]] = {}


def call_argument(fact: ValueFact, index: RepoIndex) -> str | None:
    """The parameter `units/calls.yaml: call_arguments` says this call argument sets, if any: the
    callee resolved through the imports of the fact's file (`retrieve.callees`)."""
    if not fact.call or fact.source not in ("kwarg", "positional"):
        return None
    return callees.call_argument(fact, callees.file_imports(index, fact.path))


def call_meaning(fact: ValueFact) -> str | None:
    """`call_argument` of a fact of an index whose parameter index was built (`None` otherwise)."""
    hit = _MEANINGS.get(id(fact))
    return hit[1] if hit is not None and hit[0] is fact else None


def _register_meanings(index: RepoIndex) -> None:
    ids = []
    for fact in index.values:
        if fact.call and fact.source in ("kwarg", "positional") and (meant := call_argument(fact, index)):
            held = _MEANINGS.get(id(fact))
            _MEANINGS[id(fact)] = (fact, meant, held[2] + 1 if held is not None else 1)
            ids.append(id(fact))
    weakref.finalize(index, _forget, ids)


def _forget(ids: list[int]) -> None:
    for i in ids:
        held = _MEANINGS.pop(i, None)
        if held is not None and held[2] > 1:
            _MEANINGS[i] = (held[0], held[1], held[2] - 1)


def fact_context(fact: ValueFact) -> str:
    """Words around a fact that disambiguate its name: callee, key path, enclosing symbol."""
    return " ".join(x.replace("_", " ").replace(".", " ") for x in (fact.call, fact.key_path, fact.symbol) if x)


@dataclass
class ParamIndex:
    """Value facts keyed by canonical parameter name."""

    by_name: dict[str, list[ValueFact]] = field(default_factory=dict)
    facts: list[ValueFact] = field(default_factory=list)
    _positions: dict[int, int] | None = field(default=None, repr=False)
    _by_key: tuple[dict[str, list[ValueFact]], dict[str, list[ValueFact]]] | None = field(default=None, repr=False)
    _values: tuple[dict[tuple[type, Any], list[ValueFact]], list[ValueFact]] | None = field(default=None, repr=False)

    def _position(self, fact: ValueFact) -> int:
        """Index of `fact` in `facts` (built on first use)."""
        if self._positions is None:
            self._positions = {id(f): i for i, f in enumerate(self.facts)}
        return self._positions.get(id(fact), len(self.facts))

    def sites(self, param: Param, *, include_tests: bool = False) -> list[ValueFact]:
        """Facts that set `param` (by name), in repository order, deduplicated."""
        keys = {canonical(param.name), norm_name(param.name)}
        if param.surface and canonical_param(param.name) is None:
            # Only an unknown name borrows its surface's meaning; a known one is already canonical.
            keys.add(canonical(param.surface))
        seen: set[int] = set()
        out: list[ValueFact] = []
        for key in sorted(keys):
            for f in self.by_name.get(key, []):
                if id(f) not in seen and (include_tests or not is_test_path(f.path)):
                    seen.add(id(f))
                    out.append(f)
        out.extend(f for f in self.element_sites(param, include_tests) if id(f) not in seen)
        own = norm_name(param.name)
        if canonical(param.name) != own:
            # A name that is not itself canonical (`eta_max`, an alias of the learning rate) is the
            # exact identifier the claim is about: where the code spells it, only those sites count.
            exact = [f for f in out if own in {norm_name(n) for n in fact_names(f)}]
            out = exact or out
        # Facts sharing a line keep index order, whichever name key found them first.
        return sorted(out, key=lambda f: (f.path, f.line, self._position(f)))

    def element_sites(self, param: Param, include_tests: bool = False) -> list[ValueFact]:
        """Elements of tuples the alias tables name (`betas[0]` is `beta1`): `betas=(0.9, 0.999)` sets beta1 to 0.9."""
        out: list[ValueFact] = []
        for alias in param_aliases(canonical_param(param.name) or param.name) or []:
            m = re.fullmatch(r"([A-Za-z_]\w*)\[(\d+)\]", alias)
            if not m:
                continue
            position = int(m.group(2))
            for f in self.by_name.get(norm_name(m.group(1)), []):
                if isinstance(f.value, list) and len(f.value) > position and (include_tests or not is_test_path(f.path)):
                    value = f.value[position]
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        out.append(f.model_copy(update={"value": value, "raw": f"{f.raw}[{position}]"}))
        return out

    def hint_sites(self, hints: list[str]) -> list[ValueFact]:
        """Facts the unit's hints name: a setting spelled like a hint (`base_width`), or the only
        literal passed to a hinted callee (`RandomHorizontalFlip(p=0.5)`). Test files are ignored."""
        keys = {norm_name(h.rsplit(".", 1)[-1]) for h in hints if re.fullmatch(r"[\w.]+", h.strip())}
        keys.discard("")
        by_name, by_callee = self._name_keys()
        named = {id(f): f for k in keys if len(k) >= 3 for f in by_name.get(k, [])}
        by_call: dict[tuple[str, int, str], list[ValueFact]] = {}
        for k in keys:
            for f in by_callee.get(k, []):
                if id(f) not in named:
                    by_call.setdefault((f.path, f.line, f.call or ""), []).append(f)
        out = list(named.values())
        for group in by_call.values():
            # Among several literals of a hinted call, only the ones a hint names (`p` of `Dropout`).
            out.extend(group if len(group) == 1 else [f for f in group if self._keys_of(f) & keys])
        return sorted({id(f): f for f in out}.values(), key=lambda f: (f.path, f.line))

    def _keys_of(self, fact: ValueFact) -> set[str]:
        return {norm_name(n) for n in fact_names(fact)}

    def _name_keys(self) -> tuple[dict[str, list[ValueFact]], dict[str, list[ValueFact]]]:
        """Non-test facts by the plain key of each of their names, and call arguments by callee key (built once)."""
        if self._by_key is None:
            by_name: dict[str, list[ValueFact]] = {}
            by_callee: dict[str, list[ValueFact]] = {}
            for f in self.facts:
                if is_test_path(f.path):
                    continue
                for k in self._keys_of(f):
                    by_name.setdefault(k, []).append(f)
                if f.call and f.source in ("kwarg", "positional"):
                    by_callee.setdefault(norm_name(f.call.rsplit(".", 1)[-1]), []).append(f)
            self._by_key = (by_name, by_callee)
        return self._by_key

    def value_matches(self, param: Param, rel_tol: float) -> list[ValueFact]:
        """Facts (any name) whose value equals the param's stated value in some notation."""
        wanted = [param.value] if param.value is not None else list(param.values)
        if not wanted or all(isinstance(w, bool) for w in wanted):
            return []
        scalars, lists = self._by_value()
        # Compare each distinct literal once: a large repository repeats a few hundred values.
        hits = {key for key in scalars if any(values_equal(key[1], w, rel_tol) for w in wanted if not isinstance(w, bool))}
        chosen = {id(f) for key in hits for f in scalars[key]}
        if param.values:
            chosen |= {id(f) for f in lists if len(f.value) == len(param.values)
                       and all(values_equal(a, b, rel_tol) for a, b in zip(f.value, param.values))}
        return [f for f in self.facts if id(f) in chosen]

    def _by_value(self) -> tuple[dict[tuple[type, Any], list[ValueFact]], list[ValueFact]]:
        """Scalar facts grouped by (type, value), and list facts (built once)."""
        if self._values is None:
            scalars: dict[tuple[type, Any], list[ValueFact]] = {}
            lists: list[ValueFact] = []
            for f in self.facts:
                if isinstance(f.value, (int, float, str)) and not isinstance(f.value, bool):
                    scalars.setdefault((type(f.value), f.value), []).append(f)
                elif isinstance(f.value, list):
                    lists.append(f)
            self._values = (scalars, lists)
        return self._values


_COMMON_VALUES = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0, 100.0, 0.5, 0.1, 0.01, -1.0}
"""Values too common to locate a parameter by value alone."""


def distinctive(param: Param) -> bool:
    """A stated value rare enough that finding it under any name says something."""
    vals = [param.value] if param.value is not None else list(param.values)
    nums = [parse_number(v) for v in vals if isinstance(v, (int, float, str)) and not isinstance(v, bool)]
    return bool(nums) and all(n is not None and n not in _COMMON_VALUES for n in nums)


def _code_key(source: str, name: str, context: str) -> str | None:
    """Canonical key of one of a fact's names, or `None` when the name says nothing on its own."""
    settings = load_yaml("numeric.yaml")
    raw = norm_name(name)
    if source in ("kwarg", "positional") and raw in set(settings["ignore_kwargs"]):
        return None
    if raw in set(settings["ambiguous_code_names"]):
        # Only a context that picks a meaning (`StepLR(gamma=...)`) canonicalizes a Greek name.
        with_ctx, without = canonical_param(name, context), canonical_param(name, "")
        return norm_name(with_ctx) if with_ctx and with_ctx != without else raw
    return canonical(name, context)


def _ambiguous() -> frozenset[str]:
    return frozenset(load_yaml("numeric.yaml")["ambiguous_code_names"])


def build_param_index(index: RepoIndex) -> ParamIndex:
    """Index every value fact by the canonical forms of its names."""
    _register_meanings(index)
    pidx = ParamIndex(facts=list(index.values))
    for fact in index.values:
        for key in _fact_keys(frozenset(fact_names(fact)), fact.source, fact_context(fact)):
            pidx.by_name.setdefault(key, []).append(fact)
    return pidx


@lru_cache(maxsize=100_000)
def _fact_keys(names: frozenset[str], source: str, context: str) -> tuple[str, ...]:
    """Sorted canonical keys of a fact's names (kept per process: the facts of successive
    commits of a history, and of copies of one repository, mostly repeat)."""
    keys = {_code_key(source, name, context) for name in names}
    # A Greek-letter name that context resolved (`loss.alpha` -> loss weight) stays findable
    # under its bare name too: a paper that just says "alpha" means the same site.
    keys |= {norm_name(n) for n in names if norm_name(n) in _ambiguous()}
    return tuple(sorted(k for k in keys if k))


def param_index(index: RepoIndex) -> ParamIndex:
    """The index's ParamIndex, built once."""
    return per_index(index, "params", build_param_index)
