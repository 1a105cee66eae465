"""Resolve call sites to repository symbols, across modules.

Order of attempts for a callee: `self.m()`/`cls.m()` to a method of the caller's
class (or a base class defined in the repository); a bare name to an enclosing
scope, the same module, then its imports (re-exports through `__init__.py`
followed) and wildcard imports; a dotted name through its imported head
(`m.func` with `import pkg.mod as m`); finally, as a best effort, an attribute
call `obj.name()` to the one method of that name in the repository, when there
is exactly one and the head is not an imported outside module.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sa_align.index.fast import make
from sa_align.index.model import CallFact, FileFacts, Symbol
from sa_align.index.python import module_name

MAX_HOPS = 6


class Resolver:
    """Repository-wide name tables built from per-file facts."""

    def __init__(self, facts: list[FileFacts]):
        self.modules: dict[str, str] = {}
        self.tails: dict[str, list[str]] = defaultdict(list)
        self.defs: dict[str, dict[str, str]] = {}
        self.imports: dict[str, dict[str, str]] = {}
        self.symbols: dict[str, Symbol] = {}
        self.methods: dict[str, dict[str, str]] = defaultdict(dict)
        by_name: dict[str, list[str]] = defaultdict(list)
        for ff in facts:
            rel = ff.info.path
            self.imports[rel] = ff.imports
            self.defs[rel] = {s.qualname: s.id for s in ff.symbols}
            for s in ff.symbols:
                self.symbols[s.id] = s
                if s.kind == "method" and s.parent:
                    self.methods[s.parent].setdefault(s.name, s.id)
                    by_name[s.name].append(s.id)
            if ff.info.kind == "python":
                mod = module_name(rel)
                self.modules.setdefault(mod, rel)
                parts = mod.split(".")
                for i in range(1, len(parts)):
                    self.tails[".".join(parts[i:])].append(rel)
        self.unique_methods = {n: ids[0] for n, ids in by_name.items() if len(ids) == 1 and not n.startswith("__")}

    def module_path(self, mod: str, near: str = "") -> str | None:
        """File of module `mod`: exact name first, else the closest file whose name ends with it."""
        if mod in self.modules:
            return self.modules[mod]
        cands = self.tails.get(mod)
        if not cands:
            return None
        return max(cands, key=lambda p: (len(_common_prefix(p, near)), -len(p)))

    def dotted(self, dotted: str, near: str = "", hops: int = 0) -> str | None:
        """Symbol id of an absolute dotted name (`pkg.models.Net`, `pkg.models.Net.forward`)."""
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            path = self.module_path(".".join(parts[:i]), near)
            if path is None:
                continue
            rest = parts[i:]
            if not rest:
                return None  # a module object, not a callable
            hit = self.defs[path].get(".".join(rest))
            if hit:
                return hit
            target = self.imports[path].get(rest[0])
            if target and hops < MAX_HOPS and target != dotted:
                return self.dotted(".".join([target, *rest[1:]]), path, hops + 1)
            return None
        return None

    def method(self, class_id: str, name: str, hops: int = 0) -> str | None:
        """Method `name` of a class or of a base class defined in the repository."""
        hit = self.methods.get(class_id, {}).get(name)
        if hit or hops >= MAX_HOPS:
            return hit
        cls = self.symbols.get(class_id)
        for base in cls.bases if cls else ():
            base_id = self.name_in_file(base, cls.path, cls.parent and self.symbols.get(cls.parent))
            if base_id and base_id != class_id and self.symbols[base_id].kind == "class":
                hit = self.method(base_id, name, hops + 1)
                if hit:
                    return hit
        return None

    def _base_method(self, cls: Symbol, name: str) -> str | None:
        for base in cls.bases:
            base_id = self.name_in_file(base, cls.path, cls.parent and self.symbols.get(cls.parent))
            if base_id and self.symbols[base_id].kind == "class":
                hit = self.method(base_id, name)
                if hit:
                    return hit
        return None

    def name_in_file(self, name: str, rel: str, scope: Symbol | None) -> str | None:
        """A (possibly dotted) name as seen from `scope` in file `rel`."""
        parts = name.split(".")
        defs = self.defs.get(rel, {})
        if scope is not None and scope.kind != "module":
            quals = scope.qualname.split(".")
            for i in range(len(quals), 0, -1):
                enclosing = defs.get(".".join(quals[:i]))
                if enclosing and self.symbols[enclosing].kind == "class":
                    continue  # a class body is not an enclosing scope for its methods
                hit = defs.get(".".join([*quals[:i], *parts]))
                if hit:
                    return hit
        hit = defs.get(name)
        if hit:
            return hit
        imports = self.imports.get(rel, {})
        if parts[0] in imports:
            return self.dotted(".".join([imports[parts[0]], *parts[1:]]), rel)
        for key, mod in imports.items():
            if key.startswith("*"):
                hit = self.dotted(f"{mod}.{name}", rel)
                if hit:
                    return hit
        return None

    def resolve(self, call: CallFact) -> str | None:
        caller = self.symbols.get(call.caller)
        parts = call.callee.split(".")
        if parts[0] in ("self", "cls") and len(parts) == 2:
            cls = self._class_of(caller)
            hit = self.method(cls.id, parts[1]) if cls else None
            return hit or self.unique_methods.get(parts[1])
        if parts[0] == "super()" and len(parts) == 2:
            cls = self._class_of(caller)
            return self._base_method(cls, parts[1]) if cls else None
        if "(" in call.callee or "[" in call.callee:
            return None
        hit = self.name_in_file(call.callee, call.path, caller)
        if hit or len(parts) == 1:
            return hit
        if parts[0] in self.imports.get(call.path, {}):
            return None  # an outside module such as `torch.save`
        return self.unique_methods.get(parts[-1])

    def _class_of(self, sym: Symbol | None) -> Symbol | None:
        hops = 0
        while sym is not None and sym.kind != "class" and hops < 64:
            sym = self.symbols.get(sym.parent) if sym.parent else None
            hops += 1
        return sym


_SCOPED = frozenset({"self", "cls", "super()"})
_UNSEEN: Any = object()
_SCOPED_HIT: Any = object()
"""Memo mark of a callee whose resolution depends on the calling scope."""


def _nested_names(symbols: list[Symbol]) -> set[str]:
    """Names that appear below the top level of some qualname (`fit` in `Model.fit`)."""
    return {part for s in symbols if "." in s.qualname for part in s.qualname.split(".")[1:]}


def _common_prefix(a: str, b: str) -> str:
    n = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        n += len(x) + 1
    return a[:n]


def _resolve_file(r: Resolver, calls: list[CallFact], scoped: set[str] | frozenset[str]) -> None:
    """Fill `resolved` of one file's calls, resolving each distinct (scope, callee) once."""
    # Only `self`/`cls`/`super()` and names defined inside some function or class depend on
    # the calling scope; anything else resolves the same from everywhere in the file, so it
    # is memoized by the callee alone (a file's calls repeat the same few callees).
    by_callee: dict[str, Any] = {}
    by_scope: dict[tuple[str, str], str | None] = {}
    for c in calls:
        fields = c.__dict__  # read and set directly: this loop sees every call of the repository
        callee = fields["callee"]
        hit = by_callee.get(callee, _UNSEEN)
        if hit is _UNSEEN:
            if callee.split(".", 1)[0] in scoped:
                hit = by_callee[callee] = _SCOPED_HIT
            else:
                hit = by_callee[callee] = r.resolve(c)
        if hit is _SCOPED_HIT:
            key = (fields["caller"], callee)
            hit = by_scope.get(key, _UNSEEN)
            if hit is _UNSEEN:
                hit = by_scope[key] = r.resolve(c)
        if hit is not None:
            # Per-file facts are fresh objects (cached before resolution), so set in place.
            fields["resolved"] = hit


def resolve_calls(facts: list[FileFacts], implicit: list[str]) -> tuple[Resolver, list[CallFact]]:
    """All call sites with `resolved` filled, plus implicit class -> method edges.

    Instantiating a class reaches the class symbol; the class reaches its
    `implicit` methods (`__init__`, `forward`, `__call__`, ...), its own or
    inherited from a base class in the repository.
    """
    r = Resolver(facts)
    out: list[CallFact] = []
    for ff in facts:
        _resolve_file(r, ff.calls, _nested_names(ff.symbols) | _SCOPED)
        out.extend(ff.calls)
    for sym in list(r.symbols.values()):
        if sym.kind != "class":
            continue
        for name in implicit:
            mid = r.method(sym.id, name)
            if mid:
                m = r.symbols[mid]
                out.append(make(CallFact, caller=sym.id, callee=f"{sym.name}.{name}", resolved=mid,
                                                    path=sym.path, line=m.start_line))
    return r, out
