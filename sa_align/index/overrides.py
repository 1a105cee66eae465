"""Hard-coded overrides: literals assigned to a setting after the code read it from configuration.

    lr = cfg["lr"]                    args = parser.parse_args()
    lr = 0.01                         args.lr = 0.1

In both, the configured value never reaches the run: the literal does. An
assignment overrides a read when, in the same scope (one function body, or the
module's top level outside any definition), after the read:

- its target was bound from an expression that reads the same setting
  (`lr = cfg["lr"]`, `self.lr = float(args.lr)`, `learning_rate = cfg.get("lr", 1e-3)`;
  names compared through the alias tables);
- or its target is an item or attribute of an object a configuration reader
  returned (`args = p.parse_args()` ... `args.lr = 0.1`, `self.cfg = load_config()`
  ... `self.cfg.lr = 0.1`; the readers are in `units/numeric.yaml`);
- or its target is that item or attribute and the scope read it before
  (`print(cfg.lr)` ... `cfg.lr = 0.1`; not `self.lr`, an instance attribute).

A literal under a branch or loop that the read is not also under (`if debug:`,
`for epoch in ...:`, `except:`) overrides only sometimes and is left out. Names
a scope binds from parameters or elsewhere are not overrides: the value came
from a caller, which the precedence policy already ranks. Answers come from
tree-sitter over `RepoIndex.file_text`; the audited code is never run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from typing import Any

from sa_align.aliases import canonical_param, normalize_key
from sa_align.index.model import RepoIndex
from sa_align.resources import load_yaml

# Definitions open a scope of their own: what they bind is not the enclosing scope's.
_SCOPES = frozenset({"function_definition", "class_definition", "decorated_definition", "lambda"})
# Blocks that always run once their statement is reached; any other block is a branch or a loop body.
_UNCONDITIONAL_PARENTS = frozenset({"function_definition", "try_statement", "with_statement", "finally_clause"})
_LITERALS = frozenset({"integer", "float", "string", "concatenated_string", "true", "false", "none",
                       "unary_operator", "binary_operator", "tuple", "list", "parenthesized_expression"})


@dataclass
class _Scope:
    """What one scope has read so far, walking its statements in order."""

    loaded: dict[str, Any] = field(default_factory=dict)
    """Name -> the assignment binding it to what a configuration reader returned (`args`, `cfg`)."""
    bound: dict[str, Any] = field(default_factory=dict)
    """Target as written -> the assignment binding it from a configuration read (`lr`, `self.lr`)."""
    reads: dict[tuple[str, str], Any] = field(default_factory=dict)
    """(object as written, key) -> first expression reading it (`cfg["lr"]`, `args.lr`)."""
    found: dict[tuple[int, str], int] = field(default_factory=dict)
    """(line of the literal, setting name) -> line of the read it overrides."""


@lru_cache(maxsize=1)
def _readers() -> tuple[frozenset[str], frozenset[str]]:
    """Configuration readers: bare callee names (`parse_args`), dotted suffixes (`yaml.load`)."""
    names = [str(n) for n in load_yaml("numeric.yaml")["config_readers"]]
    return frozenset(n for n in names if "." not in n), frozenset(n for n in names if "." in n)


def _text(node: Any) -> str:
    return "".join(node.text.decode("utf-8", "replace").split())


def _is_reader(call: Any) -> bool:
    if call is None or call.type != "call" or call.child_by_field_name("function") is None:
        return False
    callee = _text(call.child_by_field_name("function"))
    bare, dotted = _readers()
    return callee.rsplit(".", 1)[-1] in bare or any(callee == d or callee.endswith("." + d) for d in dotted)


def _string(node: Any) -> str | None:
    from sa_align.index.values import NOT_LITERAL, literal_value

    if node is None or node.type != "string":
        return None
    value = literal_value(node)
    return value if value is not NOT_LITERAL and isinstance(value, str) else None


def _access(node: Any) -> tuple[str, str] | None:
    """(object, key) of `obj["key"]`, `obj.key`, `obj.get("key", ...)`, `getattr(obj, "key")`."""
    if node.type == "subscript":
        key, obj = _string(node.child_by_field_name("subscript")), node.child_by_field_name("value")
        return (_text(obj), key) if key and obj is not None else None
    if node.type == "attribute":
        obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
        parent = node.parent
        if parent is not None and parent.type == "call" and parent.child_by_field_name("function") == node:
            return None  # `cfg.get(...)`, `model.forward(...)`: a method, not a setting
        return (_text(obj), _text(attr)) if obj is not None and attr is not None else None
    if node.type == "call":
        fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        named = [a for a in (args.named_children if args is not None else ()) if a.type != "comment"]
        if fn is None or not named:
            return None
        if fn.type == "attribute" and _text(fn.child_by_field_name("attribute")) == "get":
            key = _string(named[0])
            return (_text(fn.child_by_field_name("object")), key) if key else None
        if _text(fn) == "getattr" and len(named) >= 2 and _string(named[1]):
            return _text(named[0]), _string(named[1]) or ""
    return None


def _target(node: Any) -> tuple[str | None, str] | None:
    """(object or `None` for a bare name, setting name) of an assignment target."""
    if node.type == "identifier":
        return None, _text(node)
    if node.type in ("attribute", "subscript"):
        return _access(node)
    return None


def _walk(node: Any) -> Iterator[Any]:
    """Nodes of one scope in source order, not entering nested definitions."""
    stack = list(reversed(node.named_children))
    while stack:
        n = stack.pop()
        yield n
        if n.type not in _SCOPES:
            stack.extend(reversed(n.named_children))


def _branches(node: Any, scope: Any) -> list[Any]:
    """Blocks between `node` and its scope that may run zero times (branches, loop bodies, handlers)."""
    out = []
    n = node.parent
    while n is not None and n != scope:
        if n.type == "block" and n.parent is not None and n.parent.type not in _UNCONDITIONAL_PARENTS:
            out.append(n)
        n = n.parent
    return out


def _inside(node: Any, block: Any) -> bool:
    return block.start_byte <= node.start_byte and node.end_byte <= block.end_byte


def _same_name(a: str, b: str) -> bool:
    """One setting under two spellings (`lr`, `learning_rate`), through the alias tables."""
    if normalize_key(a) == normalize_key(b):
        return True
    ca = canonical_param(a)
    return ca is not None and ca == canonical_param(b)


def _reads_setting(node: Any, name: str) -> bool:
    """True when the expression reads the setting `name` (an item, attribute or `.get` of an object)."""
    return any((acc := _access(n)) is not None and _same_name(acc[1], name) for n in chain((node,), _walk(node)))


def _calls_reader(node: Any) -> bool:
    return any(_is_reader(n) for n in chain((node,), _walk(node)) if n.type == "call")


def _evidence(state: _Scope, left: Any) -> Any:
    """The earlier read a literal assigned to `left` overrides, or `None`."""
    written = _text(left)
    if written in state.bound:
        return state.bound[written]
    target = _target(left)
    if target is None or target[0] is None:
        return None
    obj, key = target
    for name, binding in state.loaded.items():
        if obj == name or obj.startswith((name + ".", name + "[")):
            return binding
    return state.reads.get((obj, key)) if obj != "self" else None


def _assignment(node: Any, state: _Scope, scope: Any) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return
    if right.type in _LITERALS:
        read = _evidence(state, left)
        target = _target(left)
        if read is not None and target is not None and all(_inside(read, b) for b in _branches(node, scope)):
            state.found[(right.start_point[0] + 1, target[1])] = read.start_point[0] + 1
        return
    if _calls_reader(right):
        first = left if left.type in ("identifier", "attribute") else next(iter(left.named_children), None)
        if first is not None and first.type in ("identifier", "attribute"):
            state.loaded[_text(first)] = node  # `args`, `self.cfg`; of `args, rest = ...` the first
    target = _target(left)
    if target is not None and _reads_setting(right, target[1]):
        state.bound[_text(left)] = node


def _scan(scope: Any, body: Any) -> dict[tuple[int, str], int]:
    state = _Scope()
    for node in _walk(body):
        if node.type == "assignment":
            _assignment(node, state, scope)
            continue
        access = _access(node) if node.type in ("subscript", "attribute", "call") else None
        parent = node.parent
        is_target = parent is not None and parent.type == "assignment" and parent.child_by_field_name("left") == node
        if access is not None and not is_target:
            state.reads.setdefault(access, node)
    return state.found


def overrides(index: RepoIndex, path: str, symbol_id: str | None) -> dict[tuple[int, str], int]:
    """(line of the literal, setting name) -> line of the read it overrides, for the function
    `symbol_id` or, when `None`, the top level of module `path`."""
    from sa_align.index.reads import _cache, _function_node, _tree

    cache = _cache(index, "overrides")
    key = (path, symbol_id)
    if key not in cache:
        cache[key] = {}
        if symbol_id is None:
            root = _tree(index, path, "python").root_node
            cache[key] = _scan(root, root)
        else:
            sym = index.symbol_by_id.get(symbol_id)
            fn = _function_node(index, sym.path, sym.name, sym.start_line, sym.end_line) if sym else None
            body = fn.child_by_field_name("body") if fn is not None else None
            if body is not None:
                cache[key] = _scan(fn, body)
    return cache[key]
