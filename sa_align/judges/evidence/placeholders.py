"""Placeholder facts turned into judgements: is this function a stand-in for its work?

Whole-body forms (the body is only `pass`, `...`, a docstring or
`raise NotImplementedError`) are certain; a body that only returns a constant
or `None` is likely. The weaker signs count only where they are the work rather
than a detail of it:

- a deferring marker (TODO, FIXME, not implemented: `units/stubs.yaml`
  entries with `defers: true`) counts in a body that does almost nothing
  (`pass`, `x = None`, returning a constant or a parameter unchanged); a TODO
  about a future extension of a working body is not a stub, nor is a remark
  like "for now" or "HACK";
- a random or constant stand-in counts in a short body; a random one only beside
  a deferring marker, or when neither the function's name nor the claim is about
  drawing random values (`sampling_words`): sampling timesteps or noise is the work.

Declarations are never placeholders: methods of interface classes (`Protocol`,
`ABC`, `metaclass=ABCMeta`: `interface_bases`), `@abstractmethod` and `@overload`
definitions, `.pyi` stub files and `if TYPE_CHECKING:` blocks, and a base-class
method that some repository subclass (at any depth) overrides, in a class that
code outside the tests never constructs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from sa_align.aliases import split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, StubFact, Symbol
from sa_align.index.walk import is_test_path
from sa_align.judges.evidence.classes import class_node, hierarchy, methods_by_class
from sa_align.judges.evidence.words import root
from sa_align.resources import load_yaml
from sa_align.retrieve.text import tokenize

WHOLE_BODY = {"not_implemented", "pass", "ellipsis", "docstring_only"}
THIN_BODY = {"constant_return", "none_return"}
IN_BODY = {"random_standin", "constant_standin", "todo_comment"}
SHORT_BODY_LINES = 4
_DECORATED_ABSTRACT = re.compile(r"@\s*([\w.]+\.)?(abstract(method|property|classmethod|staticmethod)|overload)\b")
_DEF = re.compile(r"^\s*(async\s+)?def\b")
_TYPE_CHECKING = re.compile(r"^(typing\.)?TYPE_CHECKING$")
# Statements that do no work: what a body left undone is made of.
_LITERALS = frozenset({"none", "true", "false", "integer", "float", "string", "concatenated_string"})
_EMPTY_DISPLAYS = frozenset({"list", "dictionary", "tuple", "set"})


@lru_cache(maxsize=1)
def _stub_data() -> tuple[re.Pattern[str], frozenset[str]]:
    data = load_yaml("stubs.yaml")
    deferring = [m["pattern"] for m in data["markers"] if m.get("defers")]
    return re.compile("|".join(f"(?:{p})" for p in deferring), re.IGNORECASE), frozenset(root(w) for w in data["sampling_words"])


def defers(text: str) -> bool:
    """True when the comment or docstring says the work is left undone (a marker with `defers: true`)."""
    return bool(_stub_data()[0].search(text))


def stubs_by_symbol(index: RepoIndex) -> dict[str, StubFact]:
    """Stub facts by function id, declarations (`.pyi` files, `if TYPE_CHECKING:` blocks) left out."""

    def build(ix: RepoIndex) -> dict[str, StubFact]:
        out = {}
        for fact in ix.stubs:
            sym = ix.symbol_by_id.get(fact.symbol)
            if sym is not None and not declaration_only(ix, sym):
                out[fact.symbol] = fact
        return out

    return per_index(index, "stubs", build)


def function_node(index: RepoIndex, sym: Symbol) -> Any:
    """The tree-sitter `function_definition` node of `sym` (`None` when not found)."""
    from sa_align.index.reads import _function_node as find

    return find(index, sym.path, sym.name, sym.start_line, sym.end_line)


def declaration_only(index: RepoIndex, sym: Symbol) -> bool:
    """A type declaration, not code that runs: a `.pyi` stub file or an `if TYPE_CHECKING:` block."""
    if sym.path.endswith(".pyi"):
        return True
    cache = per_index(index, "declarations", lambda _ix: {})
    if sym.id not in cache:
        cache[sym.id] = "TYPE_CHECKING" in index.file_text(sym.path) and _type_checking_only(index, sym)
    return cache[sym.id]


def _type_checking_only(index: RepoIndex, sym: Symbol) -> bool:
    node = class_node(index, sym) if sym.kind == "class" else function_node(index, sym)
    while node is not None:
        if node.type == "if_statement":
            cond = node.child_by_field_name("condition")
            if cond is not None and _TYPE_CHECKING.match("".join(cond.text.decode("utf-8", "replace").split())):
                return True
        node = node.parent
    return False


def _body_lines(index: RepoIndex, sym: Symbol) -> int:
    """Non-blank, non-comment lines after the signature (docstring lines included)."""
    lines = index.lines(sym.path, sym.start_line + 1, sym.end_line)
    return sum(1 for ln in lines if ln.strip() and not ln.strip().startswith("#"))


def _decorated_abstract(index: RepoIndex, sym: Symbol) -> bool:
    """`@abstractmethod`, `@abc.abstractproperty`, `@overload` among the decorators (they come first in the span)."""
    for line in index.lines(sym.path, sym.start_line, sym.end_line):
        if _DEF.match(line):
            return False
        if _DECORATED_ABSTRACT.search(line):
            return True
    return False


def is_abstract(index: RepoIndex, sym: Symbol) -> bool:
    """True when `sym` declares an interface rather than deferring work (see the module docstring)."""
    cache = per_index(index, "abstract", lambda _ix: {})
    if sym.id not in cache:
        cache[sym.id] = _decorated_abstract(index, sym) or _interface_method(index, sym)
    return cache[sym.id]


def _interface_method(index: RepoIndex, sym: Symbol) -> bool:
    cls = index.symbol_by_id.get(sym.parent) if sym.kind == "method" and sym.parent else None
    if cls is None or cls.kind != "class":
        return False
    classes = hierarchy(index)
    if cls.id in classes.interfaces:
        return True
    if _instantiated(index, cls.name):
        return False  # a class the code constructs is concrete: its empty method is a stub
    methods = methods_by_class(index)
    stubs = stubs_by_symbol(index)
    for sub in classes.subclasses(cls.id):
        for other in methods.get(sub, ()):
            fact = stubs.get(other.id)
            if other.name == sym.name and (fact is None or stub_strength(index, other, fact) is None):
                return True
    return False


def _instantiated(index: RepoIndex, cls: str) -> bool:
    """True when code outside the tests calls the class by name (a test may build a base to probe it)."""

    def build(ix: RepoIndex) -> frozenset[str]:
        return frozenset(c.callee.rsplit(".", 1)[-1] for c in ix.calls if not is_test_path(c.path))

    return cls in per_index(index, "callee-names-outside-tests", build)


def _deferring_marker(index: RepoIndex, sym: Symbol) -> bool:
    """A deferring comment or docstring inside the function's own lines."""
    return any(t.marker and defers(t.text) for t in _marked_texts(index).get(sym.id, ()))


def _marked_texts(index: RepoIndex) -> dict[str, list[Any]]:
    def build(ix: RepoIndex) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for t in ix.texts:
            if t.marker and t.symbol and t.kind in ("comment", "docstring"):
                out.setdefault(t.symbol, []).append(t)
        return out

    return per_index(index, "marked-texts", build)


def does_nothing(index: RepoIndex, sym: Symbol) -> bool:
    """True when every statement of the body is inert: `pass`, `...`, a docstring, `x = None`,
    `return` of a constant or of a parameter unchanged, `raise NotImplementedError`, `super().__init__()`."""
    node = function_node(index, sym)
    body = node.child_by_field_name("body") if node is not None else None
    if body is None:
        return False
    return all(_inert(stmt, set(sym.params)) for stmt in body.named_children if stmt.type != "comment")


def _inert(stmt: Any, params: set[str]) -> bool:
    kind = stmt.type
    if kind == "pass_statement":
        return True
    if kind == "return_statement":
        return all(_inert_value(v, params) for v in stmt.named_children)
    if kind == "raise_statement":
        return "NotImplemented" in stmt.text.decode("utf-8", "replace")
    if kind != "expression_statement" or not stmt.named_children:
        return False
    inner = stmt.named_children[0]
    if inner.type in ("string", "ellipsis"):
        return True
    if inner.type == "assignment":
        right = inner.child_by_field_name("right")
        return right is not None and right.type == "none"
    text = "".join(inner.text.decode("utf-8", "replace").split())
    return inner.type == "call" and text.startswith("super().__init__(")


def _inert_value(node: Any, params: set[str]) -> bool:
    kind = node.type
    if kind in _LITERALS:
        return True
    if kind == "identifier":
        return node.text.decode("utf-8", "replace") in params
    if kind == "unary_operator":
        return all(c.type in ("integer", "float") for c in node.named_children)
    if kind in ("tuple", "expression_list", "parenthesized_expression"):
        return all(_inert_value(c, params) for c in node.named_children)
    return kind in _EMPTY_DISPLAYS and not node.named_child_count


def _about_sampling(sym: Symbol, claim: str) -> bool:
    """True when the function's name (or its class's) or the claim is about drawing random values."""
    owner = sym.parent.split("::")[-1].rsplit(".", 1)[-1] if sym.parent else ""
    words = split_identifier(sym.name) + split_identifier(owner)
    words += tokenize(claim)
    return bool({root(w) for w in words} & _stub_data()[1])


def stub_strength(index: RepoIndex, sym: Symbol, fact: StubFact, claim: str = "") -> tuple[float, bool] | None:
    """(confidence, certain) that the function is a placeholder, or `None` when it is not.
    `claim` is the unit's claim text, when there is one (a sampling claim makes random draws the work)."""
    forms = set(fact.forms)
    if forms & WHOLE_BODY:
        return 0.95, True
    deferring = "todo_comment" in forms and _deferring_marker(index, sym)
    if forms & THIN_BODY:
        return (0.9, True) if deferring else (0.8, False)
    short = _body_lines(index, sym) <= SHORT_BODY_LINES
    if short and "constant_standin" in forms:
        return 0.85, deferring
    if short and "random_standin" in forms and (deferring or not _about_sampling(sym, claim)):
        return 0.85, deferring
    if deferring and does_nothing(index, sym):
        return 0.7, False
    return None


def placeholder(index: RepoIndex, sym: Symbol, claim: str = "") -> tuple[StubFact, float, bool] | None:
    """(fact, confidence, certain) when `sym` is a placeholder that is not a declaration.
    `claim`: the unit's claim and quote, when judging one (see `stub_strength`)."""
    fact = stubs_by_symbol(index).get(sym.id)
    if fact is None or is_abstract(index, sym):
        return None
    strength = stub_strength(index, sym, fact, claim)
    return None if strength is None else (fact, *strength)

