"""Names a Python file reads that nothing binds, and imports it never reads.

An unbound read would raise NameError when run: the telltale of a deleted
definition or statement. A false finding costs more than a missed one, so the
work has two steps, and only the second one decides:

1. A pre-filter cheap enough for every file. The lines of each scope give the
   words they read (one regex pass that skips strings, comments, attribute
   names and keyword names) and the names they assign; keywords, builtins and
   the names the scope chain binds (those, plus the query matches of
   `units/queries/python-scopes.scm` and the tags query) are removed.
   Over-approximating a binding here may lose a finding, never make one.
2. A check of each word that is left on the syntax tree (`scopetree`).

Files whose names cannot be known statically are skipped: syntax errors, star
imports, code run from strings, namespace writes, Python 2 (`units/scopes.yaml`).
"""

from __future__ import annotations

import builtins
import keyword
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, groupby

from tree_sitter import Node

from sa_align.index import scopetree
from sa_align.index.collected import Collected, Owners
from sa_align.index.fast import make_many
from sa_align.index.model import UnboundName, UnusedImport
from sa_align.index.pyfacts import absolute_module
from sa_align.resources import load_yaml

_QUOTED = (rb"(?:'\'\'(?:[^'\\]++|\\.|'(?!''))*+'\'\'|\"\"\"(?:[^\"\\]++|\\.|\"(?!\"\"))*+\"\"\""
           rb"|'(?:[^'\\\n]++|\\.)*+'|\"(?:[^\"\\\n]++|\\.)*+\")")
# Group 1 is a word in a read position. Skipped: comments, strings (f-strings come from the
# `@scope.fstring` matches), attribute names, defined names, numbers and words before `=`
# (keyword arguments, assignment targets). Import statements are blanked before the scan.
# Every alternative starts with one of the characters of the leading lookahead: with it, the
# engine rejects the other positions (spaces, operators, brackets) at once instead of trying
# each alternative there, a third less time for the same matches.
_TOKENS = re.compile(rb"(?=[\w#'\".])(?:#[^\n]*+|[rRbBuUfF]{0,2}" + _QUOTED + rb"|\.\s*+\w++|(?:def|class)\s++\w++"
                     rb"|([A-Za-z_]\w*+)(?!\s*+=(?!=))|\w++)", re.S)
# A statement `name = ...` / `name: T = ...` (keyword arguments on their own line have no spaces).
_ASSIGNED = re.compile(rb"\n([A-Za-z_]\w*+)(?:[ \t]++|[ \t]*+:[^=\n]*+)=(?!=)")
_INDENT = re.compile(rb"\n[ \t]++")
_WORDS = re.compile(rb"(?<![\w.])[A-Za-z_]\w*")
# What a binding form binds: not the objects of `a.b = ...` or `a[i] = ...` (brackets removed first).
_TARGET_WORDS = re.compile(rb"(?<![\w.])[A-Za-z_]\w*+(?!\s*+[.(\[])")
_BRACKETS = re.compile(rb"\[[^\[\]]*\]")
_PUNCTUATION = re.compile(rb"\s*([,|\[\]])\s*")
_NAME_LIKE = re.compile(rb"[\w.,|\[\]'\"\\]+")
_FILE_NOQA = re.compile(rb"#\s*(?:flake8|ruff)\s*:\s*noqa\b(?:\s*:\s*([\w, ]+))?", re.I)

Segments = list[tuple[str, int, int]]


@dataclass(frozen=True)
class _Rules:
    """Compiled `units/scopes.yaml`."""

    known: frozenset[bytes]
    notebook: frozenset[bytes]
    binds: frozenset[bytes]
    reads: frozenset[bytes]
    namespaces: frozenset[bytes]
    namespace_call: re.Pattern[bytes]
    namespace_read: re.Pattern[bytes]
    magics: re.Pattern[bytes]

    def dynamic(self, read: set[bytes], source: bytes) -> tuple[bool, bool]:
        """Whether names may be bound at run time, and whether a string may read an import."""
        if read & self.binds or b"modules[__name__]" in source:
            return True, True
        calls = len(self.namespace_call.findall(source)) if read & self.namespaces else 0
        if calls and calls > len(self.namespace_read.findall(source)):
            return True, True
        return False, bool(calls or read & self.reads)


def _encoded(names: list[str] | set[str]) -> frozenset[bytes]:
    return frozenset(n.encode() for n in names)


@lru_cache(maxsize=1)
def rules() -> _Rules:
    data = load_yaml("scopes.yaml")
    dyn = data["dynamic"]
    call = b"(?:" + b"|".join(_encoded(dyn["namespaces"])) + rb")\(\s*\)"
    return _Rules(
        known=_encoded({*keyword.kwlist, *keyword.softkwlist, *dir(builtins), *data["implicit"],
                        *data["other_builtins"]}),
        notebook=_encoded(data["notebook"]), binds=_encoded(dyn["binds"]), reads=_encoded(dyn["reads"]),
        namespaces=_encoded(dyn["namespaces"]), namespace_call=re.compile(rb"\b" + call),
        namespace_read=re.compile(rb"(?:\*\*|\bin\s+)" + call + rb"|\b" + call
                                  + rb"\s*(?:\[[^\]\n]*\](?!\s*=(?!=))|\.\s*(?:get|keys|values|items|copy)\s*\()"),
        magics=re.compile(rb"^\s*# %%?(?:" + b"|".join(_encoded(data["notebook_magics"])) + rb")\b", re.M),
    )


@dataclass
class _Import:
    local: bytes
    """Name the import binds."""
    imported: str
    """Absolute dotted name imported."""
    line: int
    statement: Node
    reexport: bool
    """`import x as x` / `from m import x as x`: the typing convention for an explicit re-export."""


def scope_facts(rel: str, source: bytes, root: Node, col: Collected, owners: Owners, def_ids: dict[int, str],
                notebook: bool, module: str) -> tuple[list[UnboundName], list[UnusedImport]]:
    """Unbound names and unused imports of one parsed file; none when the file cannot be checked."""
    if root.has_error:
        return [], []
    imports, star = _imports(col, module, rel.endswith("__init__.py"))
    # Without indentation the scan has less to skip (line numbers are unchanged).
    lines = _blank_imports(_INDENT.sub(b"\n", source).split(b"\n"), imports, col)
    segments = _segments(owners)
    words, assigned = _scope_words(lines, segments, col, owners)
    read = set().union(*words.values())
    compiled = rules()
    binds, reads = compiled.dynamic(read, source)
    if binds:
        return [], []
    silenced = _silenced(source)
    unused = [] if reads or b"F401" in silenced or rel.endswith("__init__.py") \
        else _unused(rel, source, root, imports, read)
    if star or b"F821" in silenced or any(k == "scope.py2" for k, _ in col.scopes) \
            or (notebook and compiled.magics.search(source)) \
            or any(i.imported in ("builtins", "__builtin__") for i in imports):
        return [], unused
    bound, glob = _cheap_bindings(col, owners, imports, assigned, lines if notebook else None)
    known = compiled.known | compiled.notebook if notebook else compiled.known
    candidates = _candidates(words, bound, glob | known, owners)
    if not candidates:
        return [], unused
    checker = scopetree.Checker(root, {c.text for k, n in col.scopes if k == "bind.global" for c in n.named_children})
    return _confirm(rel, root, source, segments, candidates, checker, def_ids, owners.module.id), unused


def _silenced(source: bytes) -> bytes:
    """Codes a file-wide `# flake8: noqa` / `# ruff: noqa: F401` turns off (`F401 F821` for all)."""
    if b"noqa" not in source:
        return b""
    found = [m[1] for m in _FILE_NOQA.finditer(source)]
    return b" ".join(codes or b"F401 F821" for codes in found)


def _segments(owners: Owners) -> Segments:
    """(symbol id, first line, last line) of each run of lines with the same innermost symbol."""
    out, line = [], 1
    for sid, run in groupby(owners.by_line[1:-1]):
        n = len(list(run))
        out.append((sid, line, line + n - 1))
        line += n
    return out


def _blank_imports(lines: list[bytes], imports: list[_Import], col: Collected) -> list[bytes]:
    """The lines with import statements blanked: what they bind comes from the matches."""
    statements = {i.statement.id: i.statement for i in imports}
    statements.update((node.id, node) for key, node in col.scopes if key == "scope.future")
    out = list(lines)
    for statement in statements.values():
        first, last = statement.start_point[0], statement.end_point[0]
        out[first:last + 1] = [b""] * (last + 1 - first)
    return out


def _scope_words(lines: list[bytes], segments: Segments, col: Collected,
                 owners: Owners) -> tuple[dict[str, set[bytes]], dict[str, set[bytes]]]:
    """Symbol id -> the words its own lines read, and the names they assign (both over-approximated)."""
    words: dict[str, set[bytes]] = {}
    assigned: dict[str, set[bytes]] = {}
    text = b"\n" + b"\n".join(lines)
    ends = [0, *accumulate(map(len, lines))]  # line k (1-based) spans text[ends[k-1] + k : ends[k] + k]
    tokens, targets = _TOKENS.findall, _ASSIGNED.findall
    for sid, first, last in segments:
        # From the newline before the first line, so that `_ASSIGNED` sees where that line starts.
        start, end = ends[first - 1] + first - 1, ends[last] + last
        words.setdefault(sid, set()).update(tokens(text, start, end))
        assigned.setdefault(sid, set()).update(targets(text, start, end))
    for key, node in col.scopes:
        if key == "scope.fstring":
            words.setdefault(owners.owner_id(node.start_point[0] + 1), set()).update(_WORDS.findall(node.text))
    for got in words.values():
        got.discard(b"")
    return words, assigned


def _imports(col: Collected, module: str, is_package: bool) -> tuple[list[_Import], bool]:
    """Every import's local name, absolute dotted name and statement; whether a star import exists."""
    out, star = [], False
    for caps in col.imports:
        if "import.wildcard" in caps:
            star = True
            continue
        alias = caps["import.alias"][0].text if "import.alias" in caps else None
        name = caps["import.name" if "import.from" in caps else "import.module"][0]
        written = "".join(name.text.decode("utf-8", "replace").split())
        if "import.from" in caps:
            base = absolute_module("".join(caps["import.from"][0].text.decode("utf-8", "replace").split()),
                                   module, is_package)
            local, imported = alias or name.text, f"{base}.{written}" if base else written
        else:
            local, imported = alias or written.split(".")[0].encode(), written
        statement = name
        while statement.parent is not None and statement.type not in scopetree.IMPORTS:
            statement = statement.parent
        out.append(_Import(local, imported, name.start_point[0] + 1, statement, alias == name.text))
    return out, star


def _cheap_bindings(col: Collected, owners: Owners, imports: list[_Import], bound: dict[str, set[bytes]],
                    notebook_lines: list[bytes] | None) -> tuple[dict[str, set[bytes]], set[bytes]]:
    """Symbol id -> the names its scope binds (`bound` holds the assigned ones), and the `global` names."""
    owner_id, module = owners.owner_id, owners.module.id
    glob: set[bytes] = set()
    for key, node in col.scopes:
        if key[:5] == "bind.":
            text = node.text
            names = _TARGET_WORDS.findall(_BRACKETS.sub(b"", text) if b"[" in text else text)
            (glob if key == "bind.global" else bound.setdefault(owner_id(node.start_point[0] + 1), set())).update(names)
    for sym in owners.symbols.values():
        if sym.kind != "module":
            bound.setdefault(sym.parent or module, set()).add(sym.name.encode())
            bound.setdefault(sym.id, set()).update(p.lstrip("*").encode() for p in sym.params)
    for imp in imports:
        bound.setdefault(owner_id(imp.line), set()).add(imp.local)
    for line in notebook_lines or ():  # `%time y = f(x)` and `%%capture out` bind in commented-out magics
        if line.lstrip().startswith((b"# %", b"# !")):
            glob.update(_WORDS.findall(line))
    return bound, glob


def _candidates(words: dict[str, set[bytes]], bound: dict[str, set[bytes]], everywhere: set[bytes],
                owners: Owners) -> dict[str, set[bytes]]:
    """Symbol id -> words read that no scope of its chain binds according to the pre-filter."""
    module = owners.module.id
    everywhere = everywhere | bound.get(module, set())
    out = {}
    for sid, names in words.items():
        left = names - everywhere
        sym = owners.symbols[sid]
        while left and sym.kind != "module":
            left -= bound.get(sym.id, set())
            sym = owners.symbols[sym.parent or module]
            while sym.kind == "class":  # a class body is not visible from the scopes inside it
                sym = owners.symbols[sym.parent or module]
        if left:
            out[sid] = left
    return out


def _confirm(rel: str, root: Node, source: bytes, segments: Segments, candidates: dict[str, set[bytes]],
             checker: scopetree.Checker, def_ids: dict[int, str], module_id: str) -> list[UnboundName]:
    """Each occurrence of a candidate checked on the tree; the first line per (symbol, name)."""
    lines = source.split(b"\n")
    ends = [0, *accumulate(map(len, lines))]
    found: dict[tuple[str, str], int] = {}
    for sid, first, last in segments:
        names = candidates.get(sid)
        if not names:
            continue
        pattern = re.compile(rb"(?<![\w.])(?:" + b"|".join(map(re.escape, sorted(names, key=len, reverse=True)))
                             + rb")(?!\w)")
        for m in pattern.finditer(source, ends[first - 1] + first - 1, ends[last] + last - 1):
            node = root.descendant_for_byte_range(m.start(), m.end())
            if node is None or node.type != "identifier" or (node.start_byte, node.end_byte) != m.span():
                continue
            scope = checker.unbound_read(node)
            line = node.start_point[0] + 1
            if scope is not None and b"noqa" not in lines[line - 1]:
                definition = scopetree.definition_of(scope)
                sym = module_id if definition is None else def_ids.get(definition.start_byte, module_id)
                found.setdefault((sym, m[0].decode()), line)
    probed = {name.decode() for name in checker.probed}
    return make_many(UnboundName, [{"name": name, "path": rel, "line": line, "symbol": sym}
                                   for (sym, name), line in sorted(found.items(), key=lambda kv: kv[1])
                                   if name not in probed])


def _unused(rel: str, source: bytes, root: Node, imports: list[_Import], read: set[bytes]) -> list[UnusedImport]:
    """Imported names read nowhere outside the import statements, each confirmed on the tree."""
    out, done = [], set()
    lines = source.split(b"\n") if b"noqa" in source else None
    for imp in imports:
        if imp.local in done:
            continue
        done.add(imp.local)
        if imp.local in read or imp.reexport:
            continue
        noqa = lines is not None and (b"noqa" in lines[imp.line - 1] or b"noqa" in lines[imp.statement.start_point[0]])
        if noqa or _read_anywhere(imp.local, source, root):
            continue
        out.append({"name": imp.local.decode("utf-8", "replace"), "imported": imp.imported, "path": rel,
                    "line": imp.line})
    return make_many(UnusedImport, out)


def _read_anywhere(name: bytes, source: bytes, root: Node) -> bool:
    """Whether an identifier outside the imports reads `name`, or a name-like string mentions it
    (`__all__` entries, string annotations, `cast("Foo", x)`)."""
    for m in re.finditer(rb"(?<![\w.])" + re.escape(name) + rb"(?!\w)", source):
        node = root.descendant_for_byte_range(m.start(), m.end())
        if node is None:
            continue
        if node.type == "identifier" and scopetree.is_read(node):
            return True
        if node.type == "string_content" and (scopetree.in_annotation(node)
                                              or _NAME_LIKE.fullmatch(_PUNCTUATION.sub(rb"\1", node.text.strip()))):
            return True
    return False
