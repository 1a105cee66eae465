"""Python facts through tree-sitter: symbols, calls, imports, values, texts, stubs,
names read unbound and imports never read (`scopes.py`).

The repository's code is never imported or run, and the `ast` module is never
used: one pass of the compiled `units/queries/python-*.scm` query yields all
matches, and this module dispatches on their capture names. Facts are bound
to their enclosing definition through a per-line owner table, so nothing here
recurses over the syntax tree (deeply nested code cannot hit the recursion limit).
"""

from __future__ import annotations

import logging

from tree_sitter import Node

from sa_align.index import pyfacts, scopes
from sa_align.index.collected import Collected, Owners, _Def
from sa_align.index.fast import make, make_many
from sa_align.index.model import EntryPoint, FileFacts, FileInfo, Symbol, TextFact
from sa_align.index.queries import error_count, matches, parser, stub_patterns
from sa_align.index.values import node_text, string_text

MAX_TEXT = 500
log = logging.getLogger(__name__)


def module_name(rel: str) -> str:
    """Dotted module name of a repository path (`pkg/__init__.py` -> `pkg`)."""
    stem = rel.rsplit(".", 1)[0] if rel.endswith((".py", ".pyi", ".pyw", ".ipynb")) else rel
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)



_KIND_PREFIXES = ("definition.", "decorated", "reference.call", "import.module", "import.from", "value.", "stub.",
                  "text.comment", "text.string", "entry.main", "doc.module", "error", "bind.", "scope.")
_PATTERN_KINDS: dict[str, dict[int, str]] = {}


def kind_key(caps: dict[str, list[Node]]) -> str:
    """The capture that says what a match is (`definition.class`, `value.kwarg`, ...)."""
    for prefix in _KIND_PREFIXES:
        for key in caps:
            if key == prefix or (prefix.endswith(".") and key.startswith(prefix)):
                return key
    return ""


def collect(lang: str, root: Node, source: bytes | None = None) -> Collected:
    """Group one pass of `lang`'s query matches by kind (known per pattern after its first match);
    `source`: the bytes `root` was parsed from."""
    out = Collected(source=source)
    kinds = _PATTERN_KINDS.setdefault(lang, {})
    calls = out.calls
    strings = out.strings
    values = out.values
    python = lang == "python"
    call_nodes = out.call_nodes
    for idx, caps in matches(lang, root):
        key = kinds.get(idx)
        if key is None:
            key = kinds[idx] = kind_key(caps)
        # The three most frequent kinds first, inline: this loop sees every match.
        if key == "reference.call":
            callee = caps["name.reference.call"][0]
            text = node_text(callee, source)
            calls.append((callee.start_point[0] + 1, text))
            if python:
                call = caps["reference.call"][0]
                call_nodes.append((callee, text, call))
                form = _standin_form(text)
                if form is not None:
                    out.standins.append((form, call, text))
        elif key == "text.string":
            strings.append(caps[key][0])
        elif key[:6] == "value.":
            # The assignment pattern takes any right-hand side; only literals can give a fact.
            if python and key == "value.assign" and caps["literal"][0].type not in pyfacts.KWARG_LITERALS:
                continue
            values.append((key[6:], caps))
        else:
            _dispatch(out, caps, key)
    out.errors += error_count(lang, root)
    return out


_STANDINS: dict[str, str | None] = {}


def _standin_form(callee: str) -> str | None:
    """`stub_patterns().standin` of a callee as written, memoized (callees repeat a lot)."""
    form = _STANDINS.get(callee, 0)
    if form == 0:
        if len(_STANDINS) > 100_000:
            _STANDINS.clear()
        form = _STANDINS[callee] = stub_patterns().standin("".join(callee[:pyfacts.MAX_CALLEE].split()))
    return form  # type: ignore[return-value]


def _dispatch(out: Collected, caps: dict[str, list[Node]], key: str) -> None:
    if key.startswith("definition."):
        kind = key[len("definition."):]
        node = caps[key][0]
        name = caps.get(f"name.definition.{kind}")
        out.defs.append(
            _Def(node, kind, node_text(name[0], out.source) if name else "?", node.start_point[0] + 1,
                 node.end_point[0] + 1, (caps.get("doc") or [None])[0], (caps.get("params") or [None])[0],
                 (caps.get("bases") or [None])[0])
        )
    elif key == "reference.call":
        callee = caps["name.reference.call"][0]
        out.calls.append((callee.start_point[0] + 1, node_text(callee, out.source)))
    elif key.startswith("value."):
        out.values.append((key[len("value."):], caps))
    elif key == "text.string":
        out.strings.append(caps[key][0])
    elif key == "text.comment":
        out.comments.append(caps[key][0])
    elif key == "decorated":
        out.decorated[caps["decorated.target"][0].start_byte] = caps[key][0].start_point[0] + 1
    elif key in ("import.module", "import.from"):
        out.imports.append(caps)
    elif key.startswith("stub."):
        out.stubs.append((key, caps))
    elif key[:5] == "bind." or key[:6] == "scope.":
        out.scopes.append((key, caps[key][0]))
    elif key == "entry.main":
        out.mains.append(caps[key][0])
    elif key == "doc.module":
        out.module_doc = caps[key][0]
    elif key == "error":
        out.errors += 1



def _params(node: Node | None, source: bytes | None) -> list[str]:
    names: list[str] = []
    for child in node.named_children if node is not None else ():
        target = child.child_by_field_name("name") or child
        if target.type != "identifier":
            target = next((c for c in target.named_children if c.type == "identifier"), None)
        if target is not None:
            prefix = "**" if child.type == "dictionary_splat_pattern" else "*" if child.type == "list_splat_pattern" else ""
            names.append(prefix + node_text(target, source))
    return names


def _bases(node: Node | None, source: bytes | None) -> list[str]:
    if node is None:
        return []
    return ["".join(node_text(c, source).split())[:200]
            for c in node.named_children if c.type in ("identifier", "attribute")]


def _docstring(node: Node | None, source: bytes | None) -> str | None:
    if node is None:
        return None
    return string_text(node_text(node, source)).strip()[:4000] or None


def _symbols(rel: str, col: Collected, n_lines: int) -> tuple[Owners, dict[int, str]]:
    """Build symbols and the line-owner table; returns owners and def start_byte -> id."""
    mod_id = f"{rel}::<module>"
    module = make(Symbol, 
        id=mod_id, name=module_name(rel).rsplit(".", 1)[-1] or rel, qualname="<module>", kind="module",
        path=rel, start_line=1, end_line=max(n_lines, 1), docstring=_docstring(col.module_doc, col.source), params=[], parent=None, bases=[],
    )
    owners = Owners(module, n_lines)
    by_start: dict[int, str] = {}
    for d in col.defs:
        d.start = col.decorated.get(d.node.start_byte, d.start)
    for d in sorted(col.defs, key=lambda d: (d.start, -d.end)):
        parent = owners.of(d.start)
        qual = d.name if parent.kind == "module" else f"{parent.qualname}.{d.name}"
        sid = f"{rel}::{qual}"
        n = 2
        while sid in owners.symbols:
            sid, n = f"{rel}::{qual}~{n}", n + 1
        kind = "class" if d.kind == "class" else "method" if parent.kind == "class" else "function"
        owners.symbols[sid] = make(Symbol, 
            id=sid, name=d.name, qualname=qual, kind=kind, path=rel, start_line=d.start, end_line=d.end,
            docstring=_docstring(d.doc, col.source), params=_params(d.params, col.source),
            parent=None if parent.kind == "module" else parent.id, bases=_bases(d.bases, col.source),
        )
        owners.by_line[d.start : d.end + 1] = [sid] * (d.end - d.start + 1)
        by_start[d.node.start_byte] = sid
    return owners, by_start


def _texts(rel: str, col: Collected, owners: Owners) -> list[TextFact]:
    pats = stub_patterns()
    marker = pats.marker
    out: list[dict] = []
    doc_starts = {d.doc.start_byte for d in col.defs if d.doc is not None}
    if col.module_doc is not None:
        doc_starts.add(col.module_doc.start_byte)
    for sym in owners.symbols.values():
        if sym.docstring:
            out.append({"kind": "docstring", "text": sym.docstring[:MAX_TEXT], "path": rel, "line": sym.start_line,
                        "symbol": None if sym.kind == "module" else sym.id, "marker": marker(sym.docstring)})
    function_of, source = owners.function_of, col.source
    for node in col.comments:
        text = node_text(node, source).lstrip("#").strip()[:MAX_TEXT]
        line = node.start_point[0] + 1
        out.append({"kind": "comment", "text": text, "path": rel, "line": line, "symbol": function_of(line),
                    "marker": marker(text)})
    for node in col.strings:
        start, end = node.start_byte, node.end_byte
        if end - start < 4 or start in doc_starts:
            continue
        text = string_text(node_text(node, source)[: MAX_TEXT + 8]).strip()
        if text:
            line = node.start_point[0] + 1
            out.append({"kind": "string", "text": text[:MAX_TEXT], "path": rel, "line": line,
                        "symbol": function_of(line), "marker": None})
    return make_many(TextFact, out)


def extract_python(rel: str, source: bytes, kind: str = "python") -> FileFacts:
    """All facts of one Python source (or a notebook's virtual concatenated text)."""
    tree = parser("python").parse(source)
    col = collect("python", tree.root_node, source)
    n_lines = source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)
    owners, def_ids = _symbols(rel, col, n_lines)
    mod = module_name(rel)
    texts = _texts(rel, col, owners)
    try:
        unbound, unused = scopes.scope_facts(rel, source, tree.root_node, col, owners, def_ids,
                                             notebook=kind == "notebook", module=mod)
    except Exception as exc:  # these two facts must never cost the file its other facts
        log.warning("no scope facts for %s: %s: %s", rel, type(exc).__name__, exc)
        unbound, unused = [], []
    facts = make(FileFacts, 
        info=make(FileInfo, path=rel, kind=kind, language="python", sha256="", size=len(source),
                                      lines=n_lines, parse_errors=col.errors),
        symbols=list(owners.symbols.values()),
        values=pyfacts.values(rel, col.values, owners, col.call_nodes, source),
        calls=pyfacts.calls(rel, col.calls, owners),
        texts=texts,
        stubs=pyfacts.stubs(col.stubs, def_ids, owners, texts, col.standins),
        imports=pyfacts.imports(col.imports, mod, rel.endswith("__init__.py")),
        entry_points=[
            make(EntryPoint, symbol=owners.module.id, path=rel, line=m.start_point[0] + 1,
                                       end_line=m.end_point[0] + 1, kind="main_block", detail="if __name__ == '__main__'",
                 target=None)
            for m in col.mains
        ],
        unbound=unbound,
        unused_imports=unused,
    )
    return facts

