"""Where the code *uses* a dataset or metric, as opposed to merely naming it.

A function called `cifar10_loaders` that builds `datasets.CIFAR100(...)` names
CIFAR-10 but uses CIFAR-100. Uses come in two strengths:

- 2, selected by the run's configuration: string values of config files and
  command-line defaults, and the words of shell scripts (`--dataset cifar100`);
- 1, used by code: string literals (docstrings excluded), string values of
  assignments and arguments, and called library names (`datasets.CIFAR100(...)`);
- 0, mentioned in a data path (`./data/cifar10`).

A suite and its members (`units/aliases/suites.yaml`: MuJoCo and HalfCheetah)
never stand in for each other.

Identifiers such as function or variable names are not uses, and neither are
config or code file paths (`configs/cifar10.yaml`) or sentences (help texts,
log messages).
"""

from __future__ import annotations

import re
from functools import lru_cache

from sa_align.aliases import canonical_entity
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex
from sa_align.index.walk import is_test_path
from sa_align.judges.evidence.tables import docstring_lines, entity_grams, strip_comment
from sa_align.resources import load_yaml

Location = tuple[str, int]
MENTIONED = 0
"""A data path naming the entity (`./data/cifar10`): shows it is used, never outranks a value."""
MAX_VALUE_WORDS = 2
_FILE = re.compile(r"\.(ya?ml|json|toml|cfg|ini|py|sh|txt|csv|pt|pth|ckpt|npz?)\b", re.IGNORECASE)
CONFIGURED, CODED = 2, 1


Entity = tuple[str, str]
"""(category, canonical name)."""


def entity_uses(index: RepoIndex) -> dict[Entity, tuple[int, Location]]:
    """Entity -> (strongest use, its first location), built once per index."""

    def best(ix: RepoIndex) -> dict[Entity, tuple[int, Location]]:
        out: dict[Entity, tuple[int, Location]] = {}
        for entity, uses in all_uses(ix).items():
            top = max(u[0] for u in uses)
            out[entity] = next(u for u in uses if u[0] == top)
        return out

    return per_index(index, "entity-uses", best)


def all_uses(index: RepoIndex) -> dict[Entity, list[tuple[int, Location]]]:
    """Entity -> every (strength, location) it is used at, built once per index."""
    return per_index(index, "entity-all-uses", _build)


def _build(index: RepoIndex) -> dict[Entity, list[tuple[int, Location]]]:
    out: dict[Entity, list[tuple[int, Location]]] = {}

    def add(text: str, path: str, line: int, strength: int) -> None:
        kind = _value_kind(text)
        if is_test_path(path) or kind is None:
            return
        strength = strength if kind == "value" else MENTIONED
        for key in entity_grams(text[:500]):
            hit = canonical_entity(key) if key else None
            if hit is not None:
                out.setdefault(hit, []).append((strength, (path, line)))

    for f in index.values:
        if isinstance(f.value, str):
            add(f.value, f.path, f.line, CONFIGURED if f.source in ("config", "cli", "shell") else CODED)
        elif isinstance(f.value, list):
            for v in f.value:
                if isinstance(v, str):
                    add(v, f.path, f.line, CONFIGURED if f.source in ("config", "cli", "shell") else CODED)
    docs = docstring_lines(index)
    for t in index.texts:
        if t.kind == "string" and (t.path, t.line) not in docs:
            add(t.text, t.path, t.line, CODED)
    for c in index.calls:
        if c.resolved is None:  # a library class (`datasets.CIFAR100`); the repo's own functions are names
            add(c.callee.rsplit(".", 1)[-1], c.path, c.line, CODED)
    for info in index.files:
        if info.kind == "shell":
            for no, line in enumerate(index.file_text(info.path).splitlines(), 1):
                add(strip_comment(line, "shell"), info.path, no, CONFIGURED)
    return out


def _value_kind(text: str) -> str | None:
    """`value` for a short value (`cifar100`), `path` for a data path (`./data/cifar10`), `None`
    for a config or code file path or a sentence (help text, a log message)."""
    text = text.strip()
    if _FILE.search(text) or len(text.split()) > MAX_VALUE_WORDS:
        return None
    return "path" if "/" in text or "\\" in text else "value"


def is_used(index: RepoIndex, entity: Entity) -> bool:
    """True when the code uses the entity, or a suite it belongs to or a member of it (data paths count)."""
    uses = all_uses(index)
    return entity in uses or any(e[0] == entity[0] and related(e[1], entity[1]) for e in uses)


@lru_cache(maxsize=1)
def _suites() -> dict[str, frozenset[str]]:
    """Canonical name -> names it shares a suite with (the suite and its members)."""
    out: dict[str, set[str]] = {}
    for suite, members in (load_yaml("aliases/suites.yaml").get("suites") or {}).items():
        group = {str(suite), *(str(m) for m in members)}
        for name in group:
            out.setdefault(name, set()).update(group - {name})
    return {k: frozenset(v) for k, v in out.items()}


def related(a: str, b: str) -> bool:
    """True when one names a suite the other belongs to, or both belong to one suite."""
    return b in _suites().get(a, frozenset())


@lru_cache(maxsize=1)
def _metric_families() -> dict[str, frozenset[str]]:
    """Metric -> the families it belongs to (`metric_families` in `units/protocol.yaml`)."""
    out: dict[str, set[str]] = {}
    for family, members in (load_yaml("protocol.yaml").get("metric_families") or {}).items():
        for name in members:
            out.setdefault(str(name), set()).add(str(family))
    return {k: frozenset(v) for k, v in out.items()}


def can_replace(entity: Entity, other: str) -> bool:
    """Whether `other`, of `entity`'s category, could stand in its place: any dataset, a metric of a shared family."""
    if entity[0] != "metric":
        return True
    families = _metric_families()
    name = (canonical_entity(entity[1]) or entity)[1]
    return bool(families.get(name, frozenset()) & families.get(other, frozenset()))


def substituted(index: RepoIndex, entity: Entity, named: set[str]) -> list[tuple[str, Location]] | None:
    """Entities of the same category used in place of `entity`, or `None` when `entity` holds its place.

    The strongest kind of use that any entity of the category has decides: when
    configuration selects datasets, the configured ones are what runs.
    """
    uses = entity_uses(index)
    same = {e: u for e, u in uses.items() if e[0] == entity[0]}
    if not same:
        return None
    top = max(u[0] for u in same.values())
    if entity in same and same[entity][0] == top:
        return None
    subs = [(e[1], u[1]) for e, u in same.items()
            if u[0] == top and e[1] not in named and e != entity and not related(e[1], entity[1])]
    return subs or None


def substituted_here(index: RepoIndex, entity: Entity, named: set[str], spans: list[tuple[str, int, int]]) -> list[tuple[str, Location]] | None:
    """Entities of the same category used in place of `entity` inside the unit's located code.

    The first span (best candidate first) that uses any entity of the category
    decides: it uses `entity` (no substitute) or only others (those are returned).
    """
    uses = all_uses(index)
    for path, start, end in spans:
        here = {e: loc for e, locs in uses.items() if e[0] == entity[0]
                for _s, loc in locs if loc[0] == path and start <= loc[1] <= end}
        if not here:
            continue
        if entity in here:
            return None
        subs = [(e[1], loc) for e, loc in here.items() if e[1] not in named and not related(e[1], entity[1])]
        return subs or None
    return None
