"""Syntax facts behind "is this function used?", shared by the dead-code judge and the benchmark generator.

`units/liveness.yaml` states the definition and holds its tables; this module
reads one Python source (or a notebook's virtual code text) with tree-sitter
and answers where each name is spelled and in which function, so that
`usage.py` can decide which functions code that runs uses (`lookups.py` reads
the calls that look a name up from a computed string). Nothing here
needs the repository index: the generator computes the same facts from file
texts alone, and the judge from the texts the index kept. The audited code is
never imported or run.

Facts are cached by content (a benchmark indexes the same files once per
variant) and a file is parsed once: names are found by a byte scan, and the
syntax tree only says which ranges are comments, docstrings, imports and
function bodies.
"""

from __future__ import annotations

import hashlib
import logging
import re
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator

from sa_align.index.extract import has_long_line
from sa_align.judges.evidence.liveness.lookups import computed_lookups
from sa_align.resources import data_dir, load_yaml

if TYPE_CHECKING:
    from tree_sitter import Node

log = logging.getLogger(__name__)
_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_NOQA = re.compile(rb"#\s*noqa\b", re.I)
_CONFIG_REF = re.compile(r"(?<![\w.])@?[A-Za-z_]\w*(?:[.:][A-Za-z_]\w*)+|(?<![\w.])@[A-Za-z_]\w*")
CACHE_BYTES = 64_000_000
"""Source bytes whose facts stay in memory across indexes (the facts hold their source)."""


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Rules:
    """Compiled `units/liveness.yaml`."""

    implicit: re.Pattern[str]
    hooks: tuple[tuple[frozenset[str], frozenset[str], tuple[str, ...]], ...]
    """(bases, names, prefixes) per framework."""
    transparent: tuple[str, ...]
    config_suffixes: tuple[str, ...]

    def hook(self, name: str, bases: set[str]) -> bool:
        """Whether a framework calls `name` on a subclass of any of `bases`."""
        return any(b & bases and (name in names or name.startswith(prefixes)) for b, names, prefixes in self.hooks)

    def transparent_decorator(self, dotted: str) -> bool:
        return any(dotted == d or dotted.endswith("." + d) for d in self.transparent)


@lru_cache(maxsize=1)
def rules() -> Rules:
    data = load_yaml("liveness.yaml")
    return Rules(
        implicit=re.compile("^(?:" + "|".join(f"(?:{p})" for p in data["implicit_names"]) + ")$"),
        hooks=tuple((frozenset(h["bases"]), frozenset(h.get("names", ())), tuple(h.get("prefixes", ())))
                    for h in data["hooks"]),
        transparent=tuple(data["transparent_decorators"]),
        config_suffixes=tuple(data["config_suffixes"]),
    )


# --------------------------------------------------------------------------- per-file facts


@dataclass(frozen=True)
class Function:
    """A function or method definition."""

    name: str
    qualname: str
    start_line: int
    """First line, decorators included (as `Symbol.start_line`)."""
    end_line: int
    span: tuple[int, int]
    """Byte range of the definition, decorators included."""
    body: tuple[int, int]
    """Byte range of its block: the uses that belong to the function."""
    decorators: tuple[str, ...]
    """Dotted names of its decorators, without arguments."""
    cls: str | None
    """Qualname of the class it is a method of, if it is one."""


@dataclass(frozen=True)
class Class:
    name: str
    qualname: str
    bases: tuple[str, ...]
    """Base classes as written, without whitespace (`nn.Module`)."""


@dataclass(frozen=True)
class Spelled:
    """One place a name is spelled that may make it used."""

    kind: str
    """`use` (code or a string), `export` (a re-export), `import` (an import only), `off` (a commented-out
    call: `# x = name(y)`), `mention` (a call written in a comment that is not code: `# TODO: name(y)`)."""
    line: int
    start: int
    """Byte offset (to tell whether it lies inside a definition)."""
    owner: Function | None
    """The function whose body holds it; `None`: module or class level, which runs on import."""


@dataclass(frozen=True)
class PyFacts:
    """What liveness needs from one Python text."""

    source: bytes
    functions: tuple[Function, ...]
    classes: tuple[Class, ...]
    quiet: tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]
    """Starts, ends and whether it is a comment (else a docstring) of the ranges where a name is no use."""
    imports: tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]
    """Starts, ends and whether a `# noqa` marks the import as a deliberate re-export."""
    def_names: frozenset[int]
    dynamic: bool
    """The file looks a name up from a computed string (`units/liveness.yaml: dynamic_lookups`)."""
    patterns: tuple[str, ...]
    """Regular expressions for the names such lookups can build (`\\w*_decay`)."""
    lookup_modules: tuple[str, ...]
    """Dotted modules (as imported) whose attributes such a lookup reads (`getattr(losses, name)`)."""
    star_imports: tuple[str, ...]
    """Modules named by `from X import *`, leading dots dropped."""

    def spellings(self, names: set[bytes], export_imports: bool) -> Iterator[tuple[str, Spelled]]:
        """Every spelling of `names` that is not a definition's name, a docstring or a plain comment, in order."""
        source = self.source
        if not names:
            return
        bodies = sorted(self.functions, key=lambda f: f.body[0])
        stack: list[Function] = []
        nxt, line, last = 0, 1, 0
        quiet_starts, quiet_ends, quiet_off = self.quiet
        import_starts, import_ends, noqa = self.imports
        for at, end, word in _occurrences(source, names):
            i = bisect_right(quiet_starts, at) - 1
            if i >= 0 and at < quiet_ends[i]:
                if not quiet_off[i] or source[end:end + 40].lstrip()[:1] != b"(":
                    continue  # a docstring, or a comment that does not call it
                kind = "off" if self._switched_off(i, word) else "mention"
            elif at in self.def_names:
                continue
            else:
                j = bisect_right(import_starts, at) - 1
                kind = "use" if j < 0 or at >= import_ends[j] else "export" if export_imports or noqa[j] else "import"
            while nxt < len(bodies) and bodies[nxt].body[0] <= at:
                while stack and stack[-1].body[1] <= bodies[nxt].body[0]:
                    stack.pop()
                stack.append(bodies[nxt])
                nxt += 1
            while stack and stack[-1].body[1] <= at:
                stack.pop()
            line += source.count(b"\n", last, at)
            last = at
            yield word.decode(), Spelled(kind, line, at, stack[-1] if stack else None)

    def _switched_off(self, i: int, name: bytes) -> bool:
        """Whether comment `i` (with the lines of comment right around it) is code that calls `name`
        (`# loss = self.name(x)`), not prose (`# TODO: call name() here`): prose about a function is
        no trace of a call it lost."""
        starts, ends, is_comment = self.quiet
        if _calls(_uncomment(self.source[starts[i]:ends[i]]), name):
            return True
        first = last = i
        while first > 0 and is_comment[first - 1] and not self.source[ends[first - 1]:starts[first]].strip():
            first -= 1
        while last + 1 < len(starts) and is_comment[last + 1] and not self.source[ends[last]:starts[last + 1]].strip():
            last += 1
        if first == last:
            return False
        block = b"\n".join(_uncomment(self.source[starts[k]:ends[k]]) for k in range(first, last + 1))
        return _calls(block, name)


def _occurrences(source: bytes, names: set[bytes]) -> list[tuple[int, int, bytes]]:
    """(start, end, name) of every whole-word occurrence of `names`, in order."""
    return [(m.start(), m.end(), word) for m in _TOKEN.finditer(source) if (word := m[0]) in names]


def _uncomment(comment: bytes) -> bytes:
    return comment.lstrip(b"#").strip()


def _calls(code: bytes, name: bytes) -> bool:
    """Whether `code` parses as Python and calls `name` (bare, or as an attribute)."""
    from sa_align.index.queries import parser

    root = parser("python").parse(code).root_node
    if root.has_error:
        return False
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "call" and (fn := node.child_by_field_name("function")) is not None:
            callee = fn.child_by_field_name("attribute") if fn.type == "attribute" else fn
            if callee is not None and callee.text == name:
                return True
        stack.extend(node.children)
    return False


_FACTS: OrderedDict[str, PyFacts] = OrderedDict()
_cached_bytes = [0]


def python_facts(text: str) -> PyFacts:
    """The liveness facts of one Python text (cached by content: a benchmark indexes the same files
    once per variant, and the generator reads them before and after every edit)."""
    source = text.encode("utf-8", "replace")
    key = hashlib.sha1(source).hexdigest()
    hit = _FACTS.get(key)
    if hit is not None:
        _FACTS.move_to_end(key)
        return hit
    facts = _extract_safely(source)
    _FACTS[key] = facts
    _cached_bytes[0] += len(source)
    while _cached_bytes[0] > CACHE_BYTES and len(_FACTS) > 1:
        _cached_bytes[0] -= len(_FACTS.popitem(last=False)[1].source)
    return facts


def _extract_safely(source: bytes) -> PyFacts:
    """`_extract`, or, for a text tree-sitter should not or cannot read (a minified line, a failure),
    facts in which every name it spells is a use by code that runs: unreadable code keeps alive
    whatever it may call, and defines nothing that could die."""
    try:
        if not has_long_line(source):
            return _extract(source)
        log.info("liveness reads a file with a very long line as plain uses")
    except Exception as exc:  # one unreadable file must not cost the judge its dead-code view
        log.warning("liveness reads a file as plain uses: %s: %s", type(exc).__name__, exc)
    return PyFacts(source, (), (), ((), (), ()), ((), (), ()), frozenset(), False, (), (), ())


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    from sa_align.index.queries import language

    lang = language("python")
    if lang is None:
        raise LookupError("tree-sitter grammar for 'python' is not installed")
    return Query(lang, (data_dir("units") / "queries" / "liveness" / "python.scm").read_text(encoding="utf-8"))


def _extract(source: bytes) -> PyFacts:
    from tree_sitter import QueryCursor

    from sa_align.index.queries import parser

    tree = parser("python").parse(source)
    caps = QueryCursor(_query()).captures(tree.root_node)
    ranges = {k: sorted((n.start_byte, n.end_byte) for n in caps.get(k, ())) for k in ("comment", "docstring", "import")}
    imports = ranges["import"]
    noqa = tuple(bool(_NOQA.search(source, s, _line_end(source, e))) for s, e in imports)
    functions, classes = _definitions(caps)
    names = {n.start_byte for k in ("function.name", "class.name") for n in caps.get(k, ())}
    dynamic, patterns, modules = computed_lookups(tree.root_node, source, _columns(ranges["comment"]),
                                                  _columns(ranges["docstring"]))
    quiet = sorted([(s, e, True) for s, e in ranges["comment"]] + [(s, e, False) for s, e in ranges["docstring"]])
    return PyFacts(
        source=source, functions=functions, classes=classes,
        quiet=(tuple(q[0] for q in quiet), tuple(q[1] for q in quiet), tuple(q[2] for q in quiet)),
        imports=(*_columns(imports), noqa), def_names=frozenset(names),
        dynamic=dynamic, patterns=patterns, lookup_modules=modules,
        star_imports=_star_imports(caps.get("import", ())),
    )


def _line_end(source: bytes, at: int) -> int:
    end = source.find(b"\n", at)
    return len(source) if end < 0 else end


def _columns(pairs: list[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(s for s, _ in pairs), tuple(e for _, e in pairs)


def _text(node: "Node") -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _definitions(caps: dict[str, list["Node"]]) -> tuple[tuple[Function, ...], tuple[Class, ...]]:
    """Functions and classes with their qualnames (outer definitions first)."""
    nodes = sorted(caps.get("function", []) + caps.get("class", []), key=lambda n: (n.start_byte, -n.end_byte))
    open_defs: list[tuple[int, str, bool]] = []  # (end byte, qualname, is class)
    functions: list[Function] = []
    classes: list[Class] = []
    for node in nodes:
        while open_defs and open_defs[-1][0] <= node.start_byte:
            open_defs.pop()
        name = _text(node.child_by_field_name("name"))
        qual = f"{open_defs[-1][1]}.{name}" if open_defs else name
        outer = node.parent if node.parent is not None and node.parent.type == "decorated_definition" else node
        if node.type == "class_definition":
            supers = node.child_by_field_name("superclasses")
            bases = tuple("".join(_text(c).split()) for c in (supers.named_children if supers else ())
                          if c.type in ("identifier", "attribute"))
            classes.append(Class(name, qual, bases))
        else:
            body = node.child_by_field_name("body")
            decorators = tuple(_decorator_name(d) for d in outer.named_children if d.type == "decorator")
            cls = open_defs[-1][1] if open_defs and open_defs[-1][2] else None
            functions.append(Function(name, qual, outer.start_point[0] + 1, node.end_point[0] + 1,
                                      (outer.start_byte, node.end_byte), (body.start_byte, body.end_byte),
                                      decorators, cls))
        open_defs.append((node.end_byte, qual, node.type == "class_definition"))
    return tuple(functions), tuple(classes)


def _decorator_name(decorator: "Node") -> str:
    expr = decorator.named_children[0] if decorator.named_children else decorator
    if expr.type == "call":
        expr = expr.child_by_field_name("function") or expr
    return "".join(_text(expr).split())


def _star_imports(imports: list["Node"]) -> tuple[str, ...]:
    out = []
    for node in imports:
        if node.type == "import_from_statement" and any(c.type == "wildcard_import" for c in node.children):
            module = node.child_by_field_name("module_name")
            if module is not None:
                out.append(_text(module).lstrip("."))
    return tuple(out)


# --------------------------------------------------------------------------- configs


def config_names(text: str) -> set[str]:
    """Names config values point at: the last part of a dotted or `module:function` value, gin's `@name`."""
    out: set[str] = set()
    for m in _CONFIG_REF.finditer(text):
        out.add(re.split(r"[.:@]", m.group())[-1])
    return out


def is_config(path: str) -> bool:
    return path.lower().endswith(rules().config_suffixes)


def module_of(path: str) -> str:
    """Dotted module of a repository path (`pkg/__init__.py` -> `pkg`)."""
    from sa_align.index.python import module_name

    return module_name(path)


__all__ = ["Class", "Function", "PyFacts", "Rules", "Spelled", "config_names", "is_config", "module_of",
           "python_facts", "rules"]
