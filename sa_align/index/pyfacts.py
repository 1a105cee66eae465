"""Python query matches -> value, call, import and stub facts."""

from __future__ import annotations

import re
from functools import lru_cache
from sys import intern
from typing import Any

from tree_sitter import Node

from sa_align.index.collected import Owners
from sa_align.index.fast import make, make_many
from sa_align.index.model import CallFact, StubFact, TextFact, ValueFact
from sa_align.index.queries import stub_patterns
from sa_align.index.values import NOT_LITERAL, literal_and_raw, literal_value, node_text, raw_text
from sa_align.resources import load_yaml

Caps = dict[str, list[Node]]

# When one literal is seen by several patterns, the most specific source wins.
_PRIORITY = {"cli": 0, "kwarg": 1, "positional": 2, "dict": 3, "default": 4, "assign": 5, "unpack": 5}
# Which stub form gives a StubFact its line and detail, most telling first.
_FORM_ORDER = ("not_implemented", "pass", "ellipsis", "docstring_only", "random_standin",
               "constant_standin", "constant_return", "none_return", "todo_comment")
MAX_CALLEE = 200
# Item keys that name a setting (`cfg["lr"]`, `cfg["warmup-steps"]`), not a sentence or a path.
_KEY = re.compile(r"[A-Za-z_][\w-]*")


def callee_text(node: Node, source: bytes | None = None) -> str:
    """Callee as written, whitespace removed (`torch.optim.Adam`; `source`: see `values.node_text`)."""
    text = node_text(node, source)
    if len(text) > MAX_CALLEE:
        text = text[:MAX_CALLEE]
    return "".join(text.split())


def _fact(name: str, key_path: str, value: Any, raw: str, node: Node, source: str, rel: str,
          owners: "Owners", call: str | None = None) -> dict[str, Any]:
    line = node.start_point[0] + 1
    # Names repeat a lot; one shared string each keeps memory and cache entries small.
    return {"name": intern(name), "key_path": intern(key_path), "value": value, "raw": intern(raw),
            "source": source, "path": rel, "line": line, "symbol": owners.function_of(line),
            "call": None if call is None else intern(call)}


def values(rel: str, raw: list[tuple[str, Caps]], owners: "Owners",
           call_nodes: list[tuple[Node, str, Node]] = (),  # type: ignore[assignment]
           source: bytes | None = None) -> list[ValueFact]:
    """ValueFacts from `@value.<source>` matches and call arguments, one per literal (most specific source kept).

    `source` is the parsed file's bytes (node texts are sliced from it, see `values.node_text`)."""
    best: dict[int, tuple[int, list[dict[str, Any]]]] = {}
    prefixes: dict[int, list[str]] = {}
    for kind, caps in raw:
        lit = caps["literal"][0]
        start = lit.start_byte
        rank = _PRIORITY.get(kind, 9)
        prev = best.get(start)
        if prev is not None and prev[0] <= rank:
            continue
        facts = _facts_for(kind, caps, lit, rel, owners, prefixes, source)
        if facts:
            best[start] = (rank, facts)
    Arguments(rel, owners, best, source).add_all(call_nodes)
    return make_many(ValueFact, [f for _, (_, facts) in sorted(best.items()) for f in facts])


# Node types that can be literals: keyword arguments and assignments (`lr=3e-4`, `lr = 3e-4`).
KWARG_LITERALS = frozenset({"integer", "float", "string", "concatenated_string", "true", "false", "none",
                            "unary_operator", "binary_operator", "tuple", "list", "parenthesized_expression"})
_POSITIONAL_LITERALS = frozenset({"integer", "float", "unary_operator", "binary_operator", "tuple", "list",
                                  "true", "false"})


@lru_cache(maxsize=1)
def call_rules() -> tuple[frozenset[str], tuple[re.Pattern[str], ...], re.Pattern[str]]:
    data = load_yaml("calls.yaml")
    return (frozenset(data["cli_methods"]), tuple(re.compile(p) for p in data["positional_skip_callees"]),
            re.compile(data["display_callees"]))


@lru_cache(maxsize=1)
def shape_keywords() -> tuple[frozenset[bytes], re.Pattern[str]]:
    """Keywords (as the parser's bytes) that give a shape or sample count in the matching callees."""
    data = load_yaml("calls.yaml")["shape_keywords"]
    return frozenset(k.encode() for k in data["keywords"]), re.compile(data["callees"])


class _Memo(dict):
    """`memo[key]` is `test(key)`, computed once per key."""

    def __init__(self, test) -> None:
        super().__init__()
        self.test = test

    def __missing__(self, key: str) -> bool:
        value = self[key] = self.test(key)
        return value


class Arguments:
    """`kwarg`, `positional` and `cli` facts from the argument list of each call (see units/calls.yaml).

    They join `best` (literal start byte -> (source rank, facts)) the way `values` adds the query's
    matches: a literal already held by a source of lower or equal rank is skipped before any work.
    """

    def __init__(self, rel: str, owners: "Owners", best: dict[int, tuple[int, list[dict[str, Any]]]],
                 source: bytes | None = None):
        self.rel, self.owners, self.best, self.source = rel, owners, best, source
        self.cli_methods, self.skips, self.display = call_rules()
        self.shape_names, self.shape_callees = shape_keywords()
        # Callee spellings recur: each test runs once per spelling and file (the tests hold no
        # reference to `self`, so no cycle outlives a file while the collector is off).
        skips, shaping, display = self.skips, self.shape_callees, self.display
        self.skipped = _Memo(lambda written: any(p.search(written) for p in skips))
        self.shaping = _Memo(lambda written: bool(shaping.search(written)))
        self.drawing = _Memo(lambda written: bool(display.search(written)))

    def add_all(self, call_nodes: list[tuple[Node, str, Node]]) -> None:
        cli_methods = self.cli_methods
        for callee, written, call in call_nodes:
            args = call.child_by_field_name("arguments")
            if args is None or args.type != "argument_list" or not args.named_child_count or self.drawing[written]:
                continue
            children = args.named_children
            cli = callee.type == "attribute" and written.rsplit(".", 1)[-1].strip() in cli_methods \
                and _first_is_string(children)
            self._add_call(callee_text_of(written), written, call, children, cli)

    def _add_call(self, callee: str, written: str, call: Node, children: list[Node], cli: bool) -> None:
        position = -1  # among the arguments that are not comments
        for arg in children:
            kind = arg.type
            if kind != "comment":
                position += 1
            if kind == "keyword_argument":
                name, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
                if name is None or value is None or name.type != "identifier":
                    continue
                if value.type in KWARG_LITERALS and self._free(value.start_byte, 1) and not self._shape(written, name):
                    self._kwarg(callee, name, value)
                if cli and name.text == b"default" and self._free(value.start_byte, 0):
                    self._cli(callee, call, value)
            elif kind in _POSITIONAL_LITERALS and not self.skipped[written] and self._free(arg.start_byte, 2):
                self._positional(callee, position, arg)

    def _free(self, start: int, rank: int) -> bool:
        prev = self.best.get(start)
        return prev is None or prev[0] > rank

    def _shape(self, written: str, name: Node) -> bool:
        """Whether the keyword gives a shape or sample count (`units/calls.yaml: shape_keywords`)."""
        return self.shaping[written] and name.text in self.shape_names

    def _kwarg(self, callee: str, name_node: Node, lit: Node) -> None:
        value, raw = literal_and_raw(lit, source=self.source)
        if value is not NOT_LITERAL:
            name = node_text(name_node, self.source)
            self.best[lit.start_byte] = (1, [_fact(name, f"{callee.rsplit('.', 1)[-1]}.{name}", value, raw, lit,
                                                   "kwarg", self.rel, self.owners, callee)])

    def _positional(self, callee: str, position: int, lit: Node) -> None:
        value, raw = literal_and_raw(lit, source=self.source)
        if value is not NOT_LITERAL:
            last = callee.rsplit(".", 1)[-1]
            self.best[lit.start_byte] = (2, [_fact(f"{last}[{position}]", f"{callee}[{position}]", value, raw, lit,
                                                   "positional", self.rel, self.owners, callee)])

    def _cli(self, callee: str, call: Node, lit: Node) -> None:
        value, raw = literal_and_raw(lit, source=self.source)
        name = _cli_name(call) if value is not NOT_LITERAL else None
        if name:
            self.best[lit.start_byte] = (0, [_fact(name, f"args.{name}", value, raw, lit, "cli", self.rel,
                                                   self.owners, callee)])


def _first_is_string(children: list[Node]) -> bool:
    first = next((c for c in children if c.type != "comment"), None)
    return first is not None and first.type == "string"


def _facts_for(kind: str, caps: Caps, lit: Node, rel: str, owners: "Owners",
               prefixes: dict[int, list[str]], source: bytes | None) -> list[dict[str, Any]]:
    if kind == "unpack":
        return _unpack(caps, lit, rel, owners, source)
    value, raw = literal_and_raw(lit, source=source)
    if value is NOT_LITERAL:
        return []
    if kind == "assign":
        written = _target_path(caps["name"][0], source)
        if written is None:
            return []
        return [_fact(written.rsplit(".", 1)[-1], written, value, raw, lit, "assign", rel, owners)]
    if kind == "dict":
        key_node = caps["key"][0]
        key = literal_value(key_node, source=source)
        if not isinstance(key, str) or not key or "/" in key:
            # A path-like key names a logged series (`{"train/lr": lr}`) or a file, not a setting.
            return []
        return [_fact(key, _dict_path(key, caps["value.dict"][0], prefixes, source), value, raw, lit, "dict", rel,
                      owners)]
    if kind == "default":
        name = node_text(caps["name"][0], source)
        owner = owners.of(lit.start_point[0] + 1)
        return [_fact(name, f"{owner.qualname}.{name}", value, raw, lit, "default", rel, owners)]
    return []


def _target_path(node: Node, source: bytes | None) -> str | None:
    """Key path of an assignment target: `lr`, `self.lr`; a string-keyed item `cfg["optim"]["lr"]`
    is `cfg.optim.lr`, like the keys of a config file. Any other item (`x[0]`) binds no setting."""
    if node.type != "subscript":
        return callee_text(node, source)
    key_node, base = node.child_by_field_name("subscript"), node.child_by_field_name("value")
    key = literal_value(key_node, source=source) if key_node is not None else NOT_LITERAL
    if base is None or not isinstance(key, str) or not _KEY.fullmatch(key):
        return None
    prefix = _target_path(base, source) if base.type in ("identifier", "attribute", "subscript") else None
    return f"{prefix}.{key}" if prefix else None


def _unpack(caps: Caps, lit: Node, rel: str, owners: "Owners", source: bytes | None) -> list[dict[str, Any]]:
    names = [n for n in caps["name"][0].named_children if n.type != "comment"]
    exprs = [n for n in lit.named_children if n.type != "comment"]
    if len(names) != len(exprs):
        return []
    out = []
    for name_node, expr in zip(names, exprs):
        value, raw = literal_and_raw(expr, source=source)
        if value is not NOT_LITERAL and name_node.type in ("identifier", "attribute"):
            written = callee_text(name_node, source)
            out.append(_fact(written.rsplit(".", 1)[-1], written, value, raw, expr, "assign", rel, owners))
    return out


def _cli_name(call: Node) -> str | None:
    """`--batch-size` -> `batch_size`; the long flag wins over a short one."""
    args = call.child_by_field_name("arguments")
    flags = [v for v in (literal_value(c) for c in (args.named_children if args else ()) if c.type == "string")
             if isinstance(v, str)]
    if not flags:
        return None
    flag = next((f for f in flags if f.startswith("--")), flags[0])
    name = flag.lstrip("-").replace("-", "_")
    return name or None


def _dict_path(key: str, pair: Node, prefixes: dict[int, list[str]], source: bytes | None) -> str:
    """`cfg = {"optim": {"lr": 1}}` -> `cfg.optim.lr` for the `lr` key of `pair` (prefixes memoized per dictionary)."""
    node = pair.parent  # the dictionary
    if node is None:
        return key
    prefix = prefixes.get(node.start_byte)
    if prefix is None:
        prefix = prefixes[node.start_byte] = _dict_prefix(node, source)
    return ".".join([*prefix, key])


def _dict_prefix(node: Node, source: bytes | None) -> list[str]:
    keys: list[str] = []
    for _ in range(32):
        parent = node.parent
        if parent is None:
            break
        if parent.type == "pair":
            k = literal_value(parent.child_by_field_name("key"), source=source)
            if not isinstance(k, str):
                break
            keys.append(k)
            node = parent.parent
            if node is None:
                break
            continue
        target = parent.child_by_field_name("left") or parent.child_by_field_name("name")
        if parent.type in ("assignment", "keyword_argument") and target is not None:
            keys.append(callee_text(target, source))
        break
    return keys[::-1]


def calls(rel: str, raw: list[tuple[int, str]], owners: "Owners") -> list[CallFact]:
    owner_id = owners.owner_id
    return make_many(CallFact, [
        {"caller": owner_id(line), "callee": intern("".join(c.split())[:MAX_CALLEE]), "resolved": None, "path": rel,
         "line": line} for line, c in raw
    ])


def imports(raw: list[Caps], module: str, is_package: bool) -> dict[str, str]:
    """Local name -> absolute dotted name; relative imports resolved against `module`."""
    out: dict[str, str] = {}
    for caps in raw:
        alias = node_text(caps["import.alias"][0]) if "import.alias" in caps else None
        if "import.from" not in caps:
            dotted = "".join(node_text(caps["import.module"][0]).split())
            out[alias or dotted.split(".")[0]] = dotted if alias else dotted.split(".")[0]
            continue
        base = absolute_module("".join(node_text(caps["import.from"][0]).split()), module, is_package)
        if "import.wildcard" in caps:
            out[f"*{base}"] = base
        elif "import.name" in caps:
            name = "".join(node_text(caps["import.name"][0]).split())
            out[alias or name] = f"{base}.{name}" if base else name
    return out


def absolute_module(spec: str, module: str, is_package: bool) -> str:
    """`from <spec> import ...` as an absolute module name, for a file of `module`."""
    level = len(spec) - len(spec.lstrip("."))
    if not level:
        return spec
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(len(parts) - (level - 1), 0)]
    rest = spec[level:]
    return ".".join(parts + ([rest] if rest else []))


def stubs(raw: list[tuple[str, Caps]], def_ids: dict[int, str], owners: "Owners",
          texts: list[TextFact], standins: list[tuple[str, Node, str]] = ()) -> list[StubFact]:  # type: ignore[assignment]
    """Per function: the placeholder forms found, with the most telling one's line and detail."""
    found: dict[str, dict[str, tuple[int, str]]] = {}

    def add(sid: str | None, form: str, node_or_line: Any, detail: str) -> None:
        if sid is None:
            return
        line = node_or_line if isinstance(node_or_line, int) else node_or_line.start_point[0] + 1
        found.setdefault(sid, {}).setdefault(form, (line, detail[:200]))

    for key, caps in raw:
        form, fn = key[5:], caps[key][0]
        evidence = caps["evidence"][0]
        got = _shape(form, evidence)
        if got is not None:
            add(def_ids.get(fn.start_byte), got[0], evidence, got[1])
    for form, call, callee in standins:
        _standin(form, call, callee_text_of(callee), owners, add)
    for t in texts:
        if t.marker and t.symbol and t.kind in ("comment", "docstring"):
            if owners.symbols[t.symbol].kind in ("function", "method"):
                add(t.symbol, "todo_comment", t.line, t.text)
    out = []
    for sid, forms in found.items():
        ordered = [f for f in _FORM_ORDER if f in forms]
        line, detail = forms[ordered[0]]
        out.append(make(StubFact, symbol=sid, forms=ordered, line=line, detail=detail))
    return out


def callee_text_of(text: str) -> str:
    """`callee_text` of an already decoded callee."""
    return "".join(text[:MAX_CALLEE].split())


def _shape(form: str, evidence: Node) -> tuple[str, str] | None:
    if form == "constant_return":
        value = literal_value(evidence)
        if value is NOT_LITERAL:
            return None
        return ("none_return", "return None") if value is None else (form, f"return {raw_text(evidence, 80)}")
    if form == "none_return":
        return None if evidence.named_child_count else (form, "return")
    return form, raw_text(evidence, 80)


def _standin(form: str, call: Node, callee: str, owners: "Owners", add: Any) -> None:
    """A stand-in call that is returned (`return torch.randn(...)`, also inside a tuple) or assigned to a data name."""
    parent = call.parent
    if parent is None:
        return
    kind = parent.type
    if kind == "tuple":
        parent = parent.parent
        if parent is None or parent.type != "return_statement":
            return
        kind = "tuple_return"
    if kind in ("return_statement", "tuple_return"):
        line = parent.start_point[0] + 1
        add(owners.function_of(line), form, line, f"return {callee}(...)")
        return
    if kind != "assignment" or parent.child_by_field_name("right") != call:
        return
    left = parent.child_by_field_name("left")
    if left is None or left.type not in ("identifier", "attribute"):
        return
    target = callee_text(left)
    if not stub_patterns().data_names.match(target):
        return
    line = parent.start_point[0] + 1
    add(owners.function_of(line), form, line, f"{target} = {callee}(...)")
