"""Deferred statements inside a longer function: a TODO comment, then `name = None` or `pass`.

A function can be mostly real while the part a claim needs is left undone:

    # TODO: not implemented yet
    self.reverse_variance = None

The block is a deferring marker comment (`units/stubs.yaml`, `defers: true`)
plus the placeholder statements right after it (`x = None`, `pass`, `...`,
`return None`). A name it leaves unset counts only when no other code gives it
a value: `self.optimizer = None` in `__init__` beside a `setup()` that builds it
is a declaration (attributes: `self.x = ...` in the same class, its bases or
subclasses, or `obj.x = ...` anywhere; locals: a later assignment in the same
function, since an earlier one is what the `= None` overwrites). A block without unset names (a bare `pass`)
counts only at the top level of the function body: inside an `if` or a loop it
is an edge case handled, and an `except` body is never one (the fallback when
an optional import fails). It belongs to a unit when one of the names it leaves
unset is one of the unit's hints, or when every word of the name is a specific
word of the claim or quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sa_align.aliases import canonical_param, split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, StubFact, Symbol, TextFact
from sa_align.judges.base import JudgeContext, decide, line_span
from sa_align.judges.evidence.classes import hierarchy
from sa_align.judges.evidence.ownership import candidate_functions, unit_hints
from sa_align.judges.evidence.placeholders import IN_BODY, defers, function_node
from sa_align.judges.evidence.words import generic_words
from sa_align.models import Label, Verdict
from sa_align.resources import load_yaml
from sa_align.retrieve.names import name_key
from sa_align.retrieve.text import tokenize

NAME = "stub"
MAX_BLOCK_LINES = 8
MIN_COMMENT_WORD = 3
"""Shortest comment word that can tie a bare block to a claim (not `f`, `1` of "F1")."""
MIN_NAMED_KEY = 4
"""Shortest hint part that names a deferred value outside the candidates (`accs`, not `x`)."""
_TARGET = r"[\w.\[\]\"']+"
# `x = None`, `self.x: T = None`, `a, b = None` (a tuple target left unset in one go).
_NONE_ASSIGN = re.compile(rf"^\s*({_TARGET}(?:\s*,\s*{_TARGET})*)\s*(?::\s*[\w\[\], .]+)?=\s*None\s*(#.*)?$")
_EMPTY = re.compile(r"^\s*(pass|\.\.\.|return|return None)\s*(#.*)?$")


@dataclass
class DeferredBlock:
    """A marker comment and the placeholder statements after it."""

    symbol: Symbol
    line: int
    """Line of the marker comment."""
    comment: str
    unset: list[str]
    """Names assigned `None` in the block (`self.reverse_variance` -> `reverse_variance`)."""


def _markers(index: RepoIndex) -> dict[str, list[TextFact]]:
    """Deferring marker comments by file."""

    def build(ix: RepoIndex) -> dict[str, list[TextFact]]:
        out: dict[str, list[TextFact]] = {}
        for t in ix.texts:
            if t.kind == "comment" and t.marker and defers(t.text):
                out.setdefault(t.path, []).append(t)
        return out

    return per_index(index, "deferring-markers", build)


def _block_at(index: RepoIndex, sym: Symbol, t: TextFact) -> DeferredBlock | None:
    unset, empty = [], False
    for no, line in enumerate(index.lines(sym.path, t.line + 1, min(sym.end_line, t.line + MAX_BLOCK_LINES)), t.line + 1):
        if m := _NONE_ASSIGN.match(line):
            for part in m.group(1).split(","):
                name = re.split(r"[.\[]", part.strip().strip("\"'"))[-1].strip("\"']")
                if not _set_elsewhere(index, name, "." in part, sym, no):
                    unset.append(name)
        elif _EMPTY.match(line):
            empty = True
        else:
            break
    if not unset and not (empty and _top_level(index, sym, t)):
        return None
    if _position(index, sym, t) == "except":
        return None  # the fallback when something optional is unavailable
    return DeferredBlock(sym, t.line, t.text, unset)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _top_level(index: RepoIndex, sym: Symbol, t: TextFact) -> bool:
    """True when the marker sits at the top level of the function body (not in an `if`, loop or `try`)."""
    node = function_node(index, sym)
    body = node.child_by_field_name("body") if node is not None else None
    line = index.lines(sym.path, t.line, t.line)
    return body is not None and bool(line) and _indent(line[0]) == body.start_point[1]


def _position(index: RepoIndex, sym: Symbol, t: TextFact) -> str | None:
    """The keyword of the innermost statement header around the marker (`except`, `if`, `def`, ...)."""
    lines = index.lines(sym.path, sym.start_line, t.line)
    if not lines:
        return None
    depth = _indent(lines[-1])
    for line in reversed(lines[:-1]):
        code = line.strip()
        if code and not code.startswith("#") and _indent(line) < depth:
            return code.split(None, 1)[0].rstrip(":")
    return None


# Targets of an assignment (`a, self.b[0] = ...`, `x: int = ...`, `n += 1`) and what is assigned.
_ASSIGN = re.compile(r"^\s*([\w.\[\]\"', *]+?)\s*(?::[^=]+)?(?:[-+*/%&|^@]|//|\*\*|>>|<<)?=(?!=)\s*(.*)$")
_LOOP_TARGET = re.compile(r"^\s*(?:async\s+)?for\s+([\w, ]+?)\s+in\b|\bas\s+(\w+)\s*[:,)]")


def _assignments(index: RepoIndex) -> tuple[dict[str, list[tuple[str, int, bool]]], dict[tuple[str, str], set[int]]]:
    """Where names get real values: attribute name -> (path, line, through `self`) of `.name = ...`,
    and (path, local name) -> lines of `name = ...`, `for name in`, `as name`. `= None` sets
    nothing, and neither does an update of the name from itself (`loss = loss + reg`, `n += 1`)."""

    def build(ix: RepoIndex) -> tuple[dict[str, list[tuple[str, int, bool]]], dict[tuple[str, str], set[int]]]:
        attrs: dict[str, list[tuple[str, int, bool]]] = {}
        local: dict[tuple[str, str], set[int]] = {}
        for info in ix.files:
            if info.kind not in ("python", "notebook"):
                continue
            for no, line in enumerate(ix.file_text(info.path).splitlines(), 1):
                for name, owner in _targets(line[:2000]):
                    if owner is None:
                        local.setdefault((info.path, name), set()).add(no)
                    else:
                        attrs.setdefault(name, []).append((info.path, no, owner == "self"))
        return attrs, local

    return per_index(index, "block-assignments", build)


def _targets(line: str) -> list[tuple[str, str | None]]:
    """(name, object it is an attribute of, or `None` for a plain name) for each name the line
    gives a real value."""
    out: list[tuple[str, str | None]] = []
    if m := _LOOP_TARGET.search(line):
        out += [(n.strip(), None) for n in (m.group(1) or m.group(2)).split(",") if n.strip()]
    m = _ASSIGN.match(line)
    if m is None or not m.group(2).strip() or re.fullmatch(r"None\s*(#.*)?", m.group(2).strip()):
        return out
    for part in m.group(1).split(","):
        target = part.strip().lstrip("*").split("[", 1)[0]
        owner, _, name = target.rpartition(".")
        # An update from itself (`self.x = self.x * 2`, `loss = loss + reg`) does not give the name a value.
        itself = rf"\.{re.escape(name)}\b" if owner else rf"(?<![.\w]){re.escape(name)}\b"
        if name.isidentifier() and not re.search(itself, m.group(2)):
            out.append((name, owner or None))
    return out


def _set_elsewhere(index: RepoIndex, name: str, attribute: bool, sym: Symbol, line: int) -> bool:
    """True when other code gives `name` a value, so the `= None` only declares it: for an
    attribute, `self.name = ...` in the same class (its bases and subclasses too) or `obj.name = ...`
    anywhere; for a local, a later assignment in the same function."""
    attrs, local = _assignments(index)
    if not attribute:
        return any(line < no <= sym.end_line for no in local.get((sym.path, name), ()))
    related = _related_lines(index, sym)
    return any((path, no) != (sym.path, line) and (not through_self or (path, no) in related)
               for path, no, through_self in attrs.get(name, ()))


def _related_lines(index: RepoIndex, sym: Symbol) -> set[tuple[str, int]]:
    """(path, line) of the class around `sym`, of its repository bases and of its subclasses."""
    cls = index.symbol_by_id.get(sym.parent) if sym.parent else None
    if cls is None or cls.kind != "class":
        return {(sym.path, no) for no in range(sym.start_line, sym.end_line + 1)}
    classes = hierarchy(index)
    out: set[tuple[str, int]] = set()
    for cid in {cls.id} | classes.ancestors(cls.id) | classes.subclasses(cls.id):
        c = index.symbol_by_id[cid]
        out.update((c.path, no) for no in range(c.start_line, c.end_line + 1))
    return out


def deferred_blocks(index: RepoIndex, sym: Symbol) -> list[DeferredBlock]:
    """Every deferred block inside `sym`."""
    found = (_block_at(index, sym, t) for t in _markers(index).get(sym.path, []) if sym.start_line < t.line <= sym.end_line)
    return [b for b in found if b is not None]


def deferred_elsewhere(index: RepoIndex, sym: Symbol, fact: StubFact) -> bool:
    """A TODO that leaves named values unset in a longer body: the deferred blocks, not the whole
    function, say whose work is undone (`deferred_block` decides)."""
    return set(fact.forms) <= IN_BODY and any(b.unset for b in deferred_blocks(index, sym))


def all_deferred_blocks(index: RepoIndex) -> list[DeferredBlock]:
    """Every deferred block in the repository's functions (innermost function of each marker)."""

    def build(ix: RepoIndex) -> list[DeferredBlock]:
        out = []
        for path, markers in _markers(ix).items():
            for t in markers:
                sym = ix.symbol_at(path, t.line)
                if sym is not None and sym.kind in ("function", "method") and (b := _block_at(ix, sym, t)):
                    out.append(b)
        return out

    return per_index(index, "deferred-blocks", build)


def _belongs(ctx: JudgeContext, block: DeferredBlock) -> str | None:
    """The unit's word the block leaves undone, if any."""
    keys = {h.key for h in unit_hints(ctx) if h.key}
    # Words of the claim itself: a hint's inner words (`variance` of `p_mean_variance`) name another thing.
    terms = set(tokenize(f"{ctx.unit.claim} {ctx.unit.quote}")) - generic_words()
    mine = []
    for name in block.unset:
        words = set(split_identifier(name))
        if name_key(name) in keys or (words and words <= terms and any(len(w) >= 4 for w in words)):
            mine.append(name)
    if block.unset:
        # A bulk `features, labels, idx_train = None` is about the unit only when most of it is.
        return mine[0] if 2 * len(mine) > len(block.unset) else None
    # A bare `pass` says nothing by itself: the comment must name what is left undone.
    words = {w for w in tokenize(block.comment) if len(w) >= MIN_COMMENT_WORD and not w.isdigit()} - generic_words()
    shared = (words & keys) | (words & terms if len(words & terms) >= 2 else set())
    return min(shared) if shared else None


def _unit_names(ctx: JudgeContext) -> set[str]:
    """Keys of every identifier the unit's hints spell, dotted parts included (`accs.mean` -> accs, mean)."""
    keys = set()
    for hint in ctx.unit.hints:
        if re.fullmatch(r"\s*[\w.]+\s*", hint):
            keys |= {name_key(part) for part in hint.strip().split(".") if len(part) >= MIN_NAMED_KEY}
    return keys


def deferred_block(ctx: JudgeContext, relevant: list[Symbol]) -> Verdict | None:
    """`stubbed` when a candidate function defers the statements the unit's names point to, or
    when any function in the repository leaves one of the names the unit's hints spell unset."""
    pool = relevant + [s for s in candidate_functions(ctx, limit=5) if s not in relevant]
    for sym in pool:
        for block in deferred_blocks(ctx.index, sym):
            what = _belongs(ctx, block)
            if what is not None:
                return _verdict(block, what)
    # Outside the candidates only exact names count, and the block must be about them: every
    # name it leaves unset is the unit's (`sampler = None` for the hint `sampler`; not a bulk
    # `features, labels, idx_train = None` that shares one name with the unit).
    names = _unit_names(ctx)
    for block in all_deferred_blocks(ctx.index):
        if block.unset and all(name_key(n) in names for n in block.unset):
            return _verdict(block, block.unset[0])
    return None


def _verdict(block: DeferredBlock, what: str) -> Verdict:
    sym = block.symbol
    reason = f"`{sym.qualname}` leaves `{what}` undone at line {block.line} ({block.comment.strip()[:80]})"
    return decide(NAME, Label.STUBBED, reason, rule="STB005", confidence=0.8, evidence=[line_span(sym.path, block.line, sym.qualname)])


def deferred_carrier(ctx: JudgeContext) -> Verdict | None:
    """`stubbed` for a numerical unit when a deferred block anywhere leaves unset the object that
    carries its parameters (`units/roles.yaml`: `optimizer = None` for a learning rate or betas)."""
    wanted = {canonical_param(p.name) or p.name for p in ctx.unit.params}
    carriers: dict[str, str] = {}
    for role, spec in load_yaml("roles.yaml")["roles"].items():
        if wanted & set(spec["params"]):
            carriers.update({name_key(n): role for n in spec["names"]})
    for block in all_deferred_blocks(ctx.index):
        for name in block.unset:
            if name_key(name) in carriers:
                reason = (f"`{block.symbol.qualname}` leaves the {carriers[name_key(name)]} `{name}` undone at line "
                          f"{block.line} ({block.comment.strip()[:80]}), and nowhere that runs sets the stated value")
                return decide(NAME, Label.STUBBED, reason, rule="STB006", confidence=0.7,
                              evidence=[line_span(block.symbol.path, block.line, block.symbol.qualname)])
    return None

