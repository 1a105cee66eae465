"""The repository's class hierarchy: in-repo bases, subclasses, interface classes, framework classes.

Bases are read from each class header (tree-sitter) and resolved by their last
dotted part to classes the repository defines: a class of that name in the same
file first, else any class of that name, unless the file imports the name from a
module outside the repository (`nn.Module`, `from gym import Env`). A base that
resolves to nothing is external (a framework or library class).

Resolution errs toward linking: a subclass link found wrongly only makes a base
method look abstract (the stub judge then holds back), and an unresolved base only
stops the judges from reading the class's `self.x` reads as lost names.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, Symbol
from sa_align.resources import load_yaml

_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^#\n]+)", re.MULTILINE)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\S+)[ \t]+import[ \t]+(\([^)]*\)|[^#\n]+)", re.MULTILINE)
_NO_BASE = frozenset({"object"})


@lru_cache(maxsize=1)
def interface_bases() -> frozenset[str]:
    """Base and metaclass names that declare an interface (`units/stubs.yaml: interface_bases`)."""
    return frozenset(load_yaml("stubs.yaml")["interface_bases"])


@dataclass
class Hierarchy:
    """Classes of one repository and how they derive from each other."""

    bases: dict[str, list[str]] = field(default_factory=dict)
    """Class id -> ids of the repository classes its bases resolve to."""
    children: dict[str, list[str]] = field(default_factory=dict)
    """Class id -> ids of the classes that name it as a base."""
    external: dict[str, list[str]] = field(default_factory=dict)
    """Class id -> its bases defined outside the repository (other than `object`), as absolute
    dotted names where the file's imports tell (`nn.Module` -> `torch.nn.Module`)."""
    interfaces: set[str] = field(default_factory=set)
    """Ids of classes declared on an interface base or metaclass (`Protocol`, `ABC`, `metaclass=ABCMeta`)."""

    def subclasses(self, cls_id: str) -> set[str]:
        """Every class deriving from `cls_id`, directly or not."""
        return _closure(cls_id, self.children)

    def ancestors(self, cls_id: str) -> set[str]:
        """Every repository class `cls_id` derives from."""
        return _closure(cls_id, self.bases)

    def outside_bases(self, cls_id: str) -> set[str]:
        """Bases from outside the repository of the class and of its repository ancestors."""
        return {b for c in {cls_id} | self.ancestors(cls_id) for b in self.external.get(c, ())}


def _closure(start: str, edges: dict[str, list[str]]) -> set[str]:
    seen: set[str] = set()
    todo = list(edges.get(start, ()))
    while todo:
        cur = todo.pop()
        if cur not in seen and cur != start:
            seen.add(cur)
            todo.extend(edges.get(cur, ()))
    return seen


def hierarchy(index: RepoIndex) -> Hierarchy:
    """The class hierarchy of `index`, built once per index."""
    return per_index(index, "class-hierarchy", _build)


def _build(index: RepoIndex) -> Hierarchy:
    by_name: dict[str, list[Symbol]] = defaultdict(list)
    for sym in index.symbols:
        if sym.kind == "class":
            by_name[sym.name].append(sym)
    local = _local_packages(index)
    out = Hierarchy()
    imports: dict[str, dict[str, str]] = {}
    for classes in by_name.values():
        for cls in classes:
            if cls.path not in imports:
                imports[cls.path] = file_imports(index.file_text(cls.path))
            written, metas = header_bases(index, cls)
            if {_last(b) for b in written + metas} & interface_bases():
                out.interfaces.add(cls.id)
            for base in written:
                found = _resolve(base, cls, by_name, imports[cls.path], local)
                if not found:
                    if _last(base) not in _NO_BASE:
                        out.external.setdefault(cls.id, []).append(absolute(base, imports[cls.path]))
                    continue
                for target in found:
                    out.bases.setdefault(cls.id, []).append(target.id)
                    out.children.setdefault(target.id, []).append(cls.id)
    return out


def _last(dotted: str) -> str:
    return dotted.rsplit(".", 1)[-1]


def absolute(dotted: str, imports: dict[str, str]) -> str:
    """`dotted` as an absolute name through the file's imports (`nn.Module` -> `torch.nn.Module`)."""
    head, _, rest = dotted.partition(".")
    module = imports.get(head)
    return dotted if module is None else f"{module}.{rest}" if rest else module


def _resolve(base: str, cls: Symbol, by_name: dict[str, list[Symbol]], imports: dict[str, str],
             local: frozenset[str]) -> list[Symbol]:
    """Repository classes `base` (as written in the header of `cls`) may be."""
    found = [c for c in by_name.get(_last(base), []) if c.id != cls.id]
    same_file = [c for c in found if c.path == cls.path]
    head = base.split(".", 1)[0]
    if "." not in base and same_file:
        return same_file
    module = imports.get(head)
    if module is not None and not module.startswith(".") and module.split(".", 1)[0] not in local:
        return []  # imported from a library: `nn.Module`, `from gym import Env`
    return found


def _local_packages(index: RepoIndex) -> frozenset[str]:
    """Directory and module names of the repository's Python files: an import of one is in-repo."""
    names: set[str] = set()
    for info in index.files:
        if info.kind == "python":
            parts = info.path.split("/")
            names.update(parts[:-1])
            names.add(parts[-1].rsplit(".", 1)[0])
    return frozenset(names)


def file_imports(text: str) -> dict[str, str]:
    """Local name -> what it is bound to, as written (`nn` -> `torch.nn`, `Env` -> `gym.Env`)."""
    out: dict[str, str] = {}
    for m in _IMPORT.finditer(text):
        for part in m.group(1).split(","):
            words = part.split()
            if len(words) == 3 and words[1] == "as":
                out[words[2]] = words[0]
            elif words:
                out[words[0].split(".")[0]] = words[0]
    for m in _FROM.finditer(text):
        for part in m.group(2).strip("()").split(","):
            words = part.split()
            if words and words[0] != "*":
                out[words[-1]] = f"{m.group(1).rstrip('.')}.{words[0]}" if m.group(1).strip(".") else f"{m.group(1)}{words[0]}"
    return out


def header_bases(index: RepoIndex, cls: Symbol) -> tuple[list[str], list[str]]:
    """(bases, metaclasses) of a class as written, subscripts dropped (`Protocol[T]` -> `Protocol`)."""
    node = class_node(index, cls)
    args = node.child_by_field_name("superclasses") if node is not None else None
    if args is None:
        return [], []
    bases: list[str] = []
    metas: list[str] = []
    for arg in args.named_children:
        if arg.type == "subscript":
            arg = arg.child_by_field_name("value") or arg
        if arg.type in ("identifier", "attribute"):
            bases.append(_compact(arg))
        elif arg.type == "keyword_argument":
            name, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if name is not None and value is not None and _compact(name) == "metaclass":
                metas.append(_compact(value))
    return bases, metas


def _compact(node: Any) -> str:
    return "".join(node.text.decode("utf-8", "replace").split())


def class_node(index: RepoIndex, cls: Symbol) -> Any:
    """The `class_definition` node of `cls` (decorators come first in its line range)."""
    from sa_align.index.reads import _tree

    head = re.compile(rf"^(\s*)class\s+{re.escape(cls.name)}\b")
    lines = index.file_text(cls.path).split("\n")
    for row in range(max(cls.start_line - 1, 0), min(cls.end_line, len(lines))):
        m = head.match(lines[row])
        if m is None:
            continue
        node = _tree(index, cls.path, "python").root_node.descendant_for_point_range(
            (row, len(m.group(1))), (row, len(m.group(1))))
        while node is not None and node.type != "class_definition":
            node = node.parent
        return node
    return None


def methods_by_class(index: RepoIndex) -> dict[str, list[Symbol]]:
    """Class id -> its methods."""

    def build(ix: RepoIndex) -> dict[str, list[Symbol]]:
        out: dict[str, list[Symbol]] = defaultdict(list)
        for sym in ix.symbols:
            if sym.kind == "method" and sym.parent:
                out[sym.parent].append(sym)
        return dict(out)

    return per_index(index, "methods-by-class", build)


__all__ = ["Hierarchy", "class_node", "file_imports", "header_bases", "hierarchy", "interface_bases", "methods_by_class"]
