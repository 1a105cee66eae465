"""Which code uses each function: the liveness definition of `units/liveness.yaml` over a whole program.

A `Program` is the non-test Python files and notebooks of a repository (as
`liveness.PyFacts`) and the names its config files point at. For a function it
answers two questions, which the dead-code judge (`dead.py`) and the benchmark
generator (`bench/orphans.py`) both ask and must answer alike:

- `kept`: is it used whatever spells its name? (the runtime or a framework
  calls it, a decorator may register it, a config or a computed name can reach
  it, its name is defined more than once and so could be any of them, ...);
- `users`: which functions spell its name where a run would use it (`None`
  for module- and class-level code, which runs on import), and which traces
  say it was called once (a commented-out call, an import nothing else uses).

Functions whose every user is itself unused are unused too (`dead_among`);
what each caller does with that is its own policy.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from sa_align.index.walk import is_test_path
from sa_align.judges.evidence.liveness.facts import (
    Class,
    Function,
    PyFacts,
    Spelled,
    config_names,
    is_config,
    module_of,
    python_facts,
    rules,
)

PYTHON_SUFFIXES = (".py", ".pyw")
NOTEBOOK_SUFFIX = ".ipynb"

Key = tuple[str, Function]
"""A function: its file and its definition."""


@dataclass(frozen=True)
class Users:
    """Who spells one function's name."""

    users: frozenset[Key | None]
    """Functions whose bodies name it (`None`: code that runs on import names it)."""
    traces: tuple[tuple[str, Spelled], ...]
    """Spellings that say it was called once: calls in comments (commented-out code, or a call a comment
    writes) and imports nothing else in their file uses."""


@dataclass
class Program:
    """A repository's code as liveness sees it."""

    files: dict[str, PyFacts]
    """Python files and notebooks (virtual code text), test files left out."""
    config: frozenset[str] = frozenset()
    """Names config values point at (`_target_: pkg.losses.focal_loss` -> `focal_loss`)."""
    _spelled: dict[str, list[tuple[str, Spelled]]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_texts(cls, texts: Mapping[str, str]) -> "Program":
        """From file texts (path -> text); notebooks as their JSON, Python as source."""
        from sa_align.index.other import notebook_text

        files: dict[str, PyFacts] = {}
        config: set[str] = set()
        for path, text in texts.items():
            if is_test_path(path):
                continue
            if path.endswith(PYTHON_SUFFIXES):
                files[path] = python_facts(text)
            elif path.endswith(NOTEBOOK_SUFFIX) and (code := notebook_text(text)) is not None:
                files[path] = python_facts(code)
            elif is_config(path):
                config |= config_names(text)
        return cls(files, frozenset(config))

    @cached_property
    def functions(self) -> list[Key]:
        return [(path, fn) for path, facts in self.files.items() for fn in facts.functions]

    @cached_property
    def _name_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for _, fn in self.functions:
            counts[fn.name] += 1
        return counts

    @cached_property
    def _classes(self) -> tuple[dict[tuple[str, str], Class], dict[str, list[Class]]]:
        by_qual = {(p, c.qualname): c for p, f in self.files.items() for c in f.classes}
        by_name: dict[str, list[Class]] = defaultdict(list)
        for c in by_qual.values():
            by_name[c.name].append(c)
        return by_qual, by_name

    @cached_property
    def _dynamic(self) -> tuple[set[str], re.Pattern[str] | None]:
        """Files any computed lookup may reach, and the names computed lookups can build (one pattern)."""
        modules = {p: module_of(p) for p in self.files}
        reached = {p for p, f in self.files.items() if f.dynamic}
        targets = {t.lstrip(".") for f in self.files.values() for t in f.lookup_modules}
        for path, mod in modules.items():
            if any(mod == t or mod.endswith("." + t) for t in targets):
                reached.add(path)
        patterns = sorted({p for f in self.files.values() for p in f.patterns})
        return reached, re.compile("^(?:" + "|".join(patterns) + ")$") if patterns else None

    @cached_property
    def _star_exported(self) -> set[str]:
        """Files whose public functions an `__init__.py` re-exports with `from .mod import *`."""
        out: set[str] = set()
        stars = [m for p, f in self.files.items() if p.endswith("__init__.py") for m in f.star_imports]
        for path in self.files:
            mod = module_of(path)
            if any(mod == m or mod.endswith("." + m) for m in stars if m):
                out.add(path)
        return out

    def ancestry(self, path: str, fn: Function) -> set[str]:
        """Names (last dotted part) of every base class of `fn`'s class, through the repository's classes."""
        by_qual, by_name = self._classes
        start = by_qual.get((path, fn.cls)) if fn.cls else None
        seen: set[str] = set()
        todo = [start] if start is not None else []
        visited: set[Class] = set()
        while todo:
            cls = todo.pop()
            if cls in visited:
                continue
            visited.add(cls)
            for base in cls.bases:
                name = base.rsplit(".", 1)[-1]
                seen.add(name)
                todo.extend(by_name.get(name, ()))
        return seen

    def kept(self, path: str, fn: Function) -> str | None:
        """Why `fn` is used whatever spells its name, or `None`."""
        r = rules()
        if r.implicit.match(fn.name):
            return "the runtime calls it by its name"
        if opaque := [d for d in fn.decorators if not r.transparent_decorator(d)]:
            return f"the decorator `@{opaque[0]}` may register it"
        if fn.cls is not None and r.hook(fn.name, self.ancestry(path, fn)):
            return "a framework calls it on subclasses of its base class"
        if self._name_counts[fn.name] > 1:
            return f"its name is defined {self._name_counts[fn.name]} times, so a call could reach any of them"
        if fn.name in self.config:
            return "a config value points at it"
        reached, computed = self._dynamic
        if path in reached:
            return "its module is read by a lookup of a computed name (`getattr`, `globals()`, ...)"
        if computed is not None and computed.match(fn.name):
            return "a computed name can spell it"
        if path in self._star_exported and not fn.name.startswith("_") and fn.cls is None:
            return "a package `__init__.py` re-exports its module"
        return None

    def spellings(self, names: set[str]) -> dict[str, list[tuple[str, Spelled]]]:
        """Where each of `names` is spelled (memoized per name)."""
        todo = {n.encode() for n in names if n not in self._spelled}
        if todo:
            for n in todo:
                self._spelled[n.decode()] = []
            for path, facts in self.files.items():
                for name, sp in facts.spellings(todo, export_imports=path.endswith("__init__.py")):
                    self._spelled[name].append((path, sp))
        return {n: self._spelled[n] for n in names}

    def users(self, path: str, fn: Function) -> Users:
        """Who spells `fn`'s name, outside its own definition (call `spellings` first for speed)."""
        spelled = self.spellings({fn.name})[fn.name]
        users: set[Key | None] = set()
        traces: list[tuple[str, Spelled]] = []
        imports: list[tuple[str, Spelled]] = []
        used_in: set[str] = set()
        for where, sp in spelled:
            if where == path and fn.span[0] <= sp.start < fn.span[1]:
                continue  # recursion, or a comment in its own body
            if sp.kind in ("use", "export"):
                users.add((where, sp.owner) if sp.owner is not None else None)
                used_in.add(where)
            elif sp.kind in ("off", "mention"):
                traces.append((where, sp))
            else:
                imports.append((where, sp))
        traces += [(w, sp) for w, sp in imports if w not in used_in]
        return Users(frozenset(users), tuple(traces))


K = TypeVar("K", bound=Hashable)


def dead_among(users: Mapping[K, set[K | None] | frozenset[K | None]]) -> set[K]:
    """The keys whose every user is itself dead (`None`: code that always runs), as a fixpoint:
    nothing uses a key, or only keys already dead do. A cycle nothing else uses stays alive
    (no proof either way), and so does a key used by anything that is not a key."""
    waiting = {k: set(owners) for k, owners in users.items() if None not in owners}
    used_by: dict[K, list[K]] = defaultdict(list)
    for key, owners in waiting.items():
        for owner in owners:
            used_by[owner].append(key)  # type: ignore[index]
    ready = [k for k, owners in waiting.items() if not owners]
    dead: set[K] = set()
    while ready:
        key = ready.pop()
        dead.add(key)
        for other in used_by.get(key, ()):
            left = waiting[other]
            left.discard(key)
            if not left and other not in dead:
                ready.append(other)
    return dead


__all__ = ["Key", "Program", "Users", "dead_among"]
