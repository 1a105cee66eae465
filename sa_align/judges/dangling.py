"""Dangling names: code still reads what the unit's implementation produced, but nothing defines it.

When a claim's implementation is removed, its results often stay in use:
`ratio` is still read by the loss after the function computing it is gone,
`splits` is still returned after `make_splits` disappeared. The indexer
records such reads (`RepoIndex.unbound`: names a scope reads that nothing
binds, so the code would fail with `NameError`). They decide `missing` when:

- the unbound name is one of the unit's hints (`ratio`, `policy_loss`), or a
  specific word of a compound hint that names no definition any more (`env`
  of `make_env`, `splits` of `make_splits`);
- no hint names a definition that still exists (`named.named_definitions`):
  the code the unit points at is gone, not merely elsewhere;
- no dead function still carries the name (then the implementation exists but
  was cut off, which the stub judge calls `stubbed`).

The verdict is certain: a read nothing can satisfy is a mechanical fact, and a
unit whose named code is absent while its results dangle is not implemented.
"""

from __future__ import annotations

import re

from sa_align.aliases import split_identifier
from sa_align.index.model import RepoIndex, UnboundName
from sa_align.judges.base import JudgeContext, decide, line_span
from sa_align.judges.dead import dead_code
from sa_align.judges.named import named_definitions
from sa_align.judges.ownership import unit_hints
from sa_align.models import Label, Verdict
from sa_align.retrieve.names import name_key

NAME = "missing"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MIN_WORD = 3


def _wanted(ctx: JudgeContext) -> dict[str, str]:
    """Unbound spelling key -> the hint it comes from."""
    from sa_align.judges.missing import generic_words

    out: dict[str, str] = {}
    for hint in ctx.unit.hints:
        h = hint.strip()
        last = h.rsplit(".", 1)[-1]
        if not _IDENT.match(last):
            continue
        out.setdefault(name_key(last), h)
        if "." not in h and len(split_identifier(last)) >= 2:
            for word in set(split_identifier(last)) - generic_words():
                if len(word) >= MIN_WORD and not word.isdigit():
                    out.setdefault(word, h)
    return out


def _cut_off(index: RepoIndex, name: str) -> bool:
    """A dead function still spells the name: the code exists, its callers are gone."""
    dead = dead_code(index).dead
    word = re.compile(rf"\b{re.escape(name)}\b")
    for sid in dead:
        sym = index.symbol_by_id.get(sid)
        if sym is not None and (name in split_identifier(sym.name) or any(
                word.search(ln) for ln in index.lines(sym.path, sym.start_line, sym.end_line))):
            return True
    return False


def dangling(ctx: JudgeContext) -> Verdict | None:
    """`missing` (certain) when the unit's results are read but its named code is gone (see above)."""
    index = ctx.index
    unbound = index.unbound_names()
    if not unbound:
        return None
    hints = unit_hints(ctx)
    if any(named_definitions(index, h) for h in hints):
        return None
    wanted = _wanted(ctx)
    hits: list[tuple[UnboundName, str]] = []
    for name, facts in sorted(unbound.items()):
        hint = wanted.get(name_key(name)) or wanted.get(name.lower())
        if hint is not None and not _cut_off(index, name):
            hits.append((facts[0], hint))
    if not hits:
        return None
    names = ", ".join(f"`{u.name}` ({u.path}:{u.line}, from `{h}`)" for u, h in hits[:3])
    reason = f"code reads {names} but nothing defines it, and no definition the unit names exists"
    return decide(NAME, Label.MISSING, reason, confidence=0.85, certain=True,
                  evidence=[line_span(u.path, u.line) for u, _ in hits[:5]])


__all__ = ["dangling"]
