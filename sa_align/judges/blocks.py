"""Deferred statements inside a longer function: a TODO comment, then `name = None` or `pass`.

A function can be mostly real while the part a claim needs is left undone:

    # TODO: not implemented yet
    self.reverse_variance = None

The block is the marker comment plus the placeholder statements right after it
(`x = None`, `pass`, `...`, `return None`). It belongs to a unit when one of
the names it leaves unset is one of the unit's hints, or when every word of
the name is a specific word of the claim or quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sa_align.aliases import split_identifier
from sa_align.index.model import RepoIndex, Symbol, TextFact
from sa_align.judges.base import JudgeContext, decide, line_span
from sa_align.judges.ownership import candidate_functions, unit_hints
from sa_align.models import Label, Verdict
from sa_align.retrieve.names import name_key
from sa_align.retrieve.params import per_index
from sa_align.retrieve.text import tokenize

NAME = "stub"
DEFERRING_MARKERS = {"TODO", "FIXME", "XXX", "not-implemented", "implement-later", "placeholder", "stub"}
MAX_BLOCK_LINES = 8
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
            if t.kind == "comment" and t.marker in DEFERRING_MARKERS:
                out.setdefault(t.path, []).append(t)
        return out

    return per_index(index, "deferring-markers", build)


def _block_at(index: RepoIndex, sym: Symbol, t: TextFact) -> DeferredBlock | None:
    unset, empty = [], False
    for line in index.lines(sym.path, t.line + 1, min(sym.end_line, t.line + MAX_BLOCK_LINES)):
        if m := _NONE_ASSIGN.match(line):
            unset += [re.split(r"[.\[]", part.strip().strip("\"'"))[-1].strip("\"']") for part in m.group(1).split(",")]
        elif _EMPTY.match(line):
            empty = True
        else:
            break
    return DeferredBlock(sym, t.line, t.text, unset) if unset or empty else None


def deferred_blocks(index: RepoIndex, sym: Symbol) -> list[DeferredBlock]:
    """Every deferred block inside `sym`."""
    found = (_block_at(index, sym, t) for t in _markers(index).get(sym.path, []) if sym.start_line < t.line <= sym.end_line)
    return [b for b in found if b is not None]


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
    from sa_align.judges.missing import generic_words

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
    words = set(tokenize(block.comment)) - generic_words()
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
    return decide(NAME, Label.STUBBED, reason, confidence=0.8, evidence=[line_span(sym.path, block.line, sym.qualname)])
