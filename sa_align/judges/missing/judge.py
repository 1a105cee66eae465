"""Missing judge: nothing in the code addresses the claim.

Decides `missing` only when the unit's own names are absent from every code
and config file (prose and comments do not count):

- numerical: no site sets any of its parameters, no spelling of a parameter
  name (alias tables) appears as an identifier or config key, its value
  appears under no related name (nor anywhere, when the value is distinctive),
  and no distinctive word of the claim occurs in code (a library default may
  set it implicitly);
- method and ordering: the unit names identifiers (hints it was given; hints
  derived from its own prose or math are the paper's notation, `x_t`, `A_hat`,
  and only help retrieval), none of them appears in any spelling in code or config,
  and fewer than a third of its distinctive claim words appear; claim words
  alone never decide absence (prose and code name things differently);
  or the identifiers it names are gone: no hint names a definition in the
  repository, its first compound hint (`clipped_surrogate`, `GroupNorm`)
  and at least half of its compound hints occur in no code or config file,
  and at most a third of its distinctive claim words do;
- protocol units with entities are left to the protocol judge;
- any non-numerical unit whose results live code still reads while no scope
  of the repository produces them and the code it names is gone
  (`dangling.py`) is missing; certainly only when nothing it names is left.

A repository with no line of code or configuration is missing everything, certainly.

When in doubt it abstains: a unit set under an unknown name is better left
undecided than called missing, and so is a unit whose top candidates include
a certain placeholder (the names it lacks may be what that body deferred).
"""

from __future__ import annotations

import re

from sa_align.aliases import normalize_key, param_aliases, split_identifier
from sa_align.index.memo import per_index
from sa_align.judges.base import (
    JudgeContext,
    StaticJudge,
    abstain,
    decide,
    lean,
)
from sa_align.judges.evidence.classes import methods_by_class
from sa_align.judges.evidence.placeholders import placeholder
from sa_align.judges.evidence.tables import CodeVocab, candidate_symbol, code_roots, code_vocab
from sa_align.judges.evidence.words import distinctive_words, generic_words, root
from sa_align.judges.missing.dangling import dangling
from sa_align.judges.numeric.judge import param_hints
from sa_align.models import Label, Param, UnitKind, Verdict
from sa_align.retrieve.names import name_key
from sa_align.retrieve.params import canonical, distinctive, param_index
from sa_align.retrieve.text import tokenize

NAME = "missing"
# `generic_words`, `root` and `distinctive_words` live in `evidence/words.py`; re-exported for older callers.
__all__ = ["distinctive_words", "generic_words", "judge_missing", "missing_judge", "root"]
MIN_HINT_SUBSTRING = 4
LEAN_CONFIDENCE = 0.4
"""Weak absence (setting names missing while the claim's subject is there): a lean, never a vote."""


def _name_keys(p: Param) -> set[str]:
    names = {p.name, *(param_aliases(p.name) or []), *([p.surface] if p.surface else [])}
    return {k for k in (normalize_key(n) for n in names) if k}


def _param_absent(p: Param, ctx: JudgeContext, vocab: CodeVocab) -> bool:
    pidx = param_index(ctx.index)
    if pidx.sites(p):
        return False
    keys = _name_keys(p)
    if keys & vocab.keys:
        return False
    name_tokens = set(tokenize(" ".join(keys | {p.name})))
    for f in pidx.value_matches(p, ctx.config.numeric_rel_tol):
        if distinctive(p) or set(tokenize(f.name)) & name_tokens or canonical(f.name) in keys:
            return False
    return True


def _hint_found(hint: str, vocab: CodeVocab) -> bool:
    key = "".join(ch for ch in hint.lower() if ch.isalnum())
    if not key:
        return True
    if key in vocab.keys:
        return True
    return len(key) >= MIN_HINT_SUBSTRING and any(key in k for k in vocab.keys)


def _numerical(ctx: JudgeContext, vocab: CodeVocab) -> Verdict:
    params = ctx.unit.params
    if not params:
        return abstain(NAME, "a numerical unit without parameters cannot be checked for absence")
    if not all(_param_absent(p, ctx, vocab) for p in params):
        return abstain(NAME, "a parameter name or its value occurs in the code")
    if any(param_index(ctx.index).hint_sites(param_hints(ctx.unit, p)) for p in params):
        return abstain(NAME, "a setting the unit's hints name occurs in the code")
    words = distinctive_words(ctx.unit) - {root(t) for p in params for t in tokenize(p.name)}
    found = words & code_roots(ctx.index)
    if found:
        # The setting may be implicit (a library default) in code that does the thing: a lean, not a finding.
        names = ", ".join(f"`{p.name}`" for p in params)
        return lean(NAME, Label.MISSING, f"no code or config sets or names {names}, though the claim's subject occurs "
                    f"in the code ({', '.join(sorted(found)[:4])})", rule="MIS003", confidence=LEAN_CONFIDENCE)
    names = ", ".join(f"`{p.name}`" for p in params)
    return decide(NAME, Label.MISSING, f"no code or config sets or names {names}, and the stated value occurs under no related name",
                  rule="MIS002", confidence=0.85)


def named_hints(unit) -> list[str]:
    """The identifiers a unit names: its given hints. Hints derived from its claim are the
    paper's notation (`alpha_bar`, `A_hat`), which code spells its own way: they never show absence."""
    if "hints" in unit.derived:
        return []
    return [h for h in unit.hints if h.strip()]


def _definition_hints(hints: list[str]) -> list[str]:
    """Hints spelled like the name of a function, class or variable of the implementation:
    compound identifiers (`clipped_surrogate`, `GroupNorm`), not library paths or single words."""
    return [h.strip() for h in hints
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", h.strip()) and len(split_identifier(h.strip())) >= 2]


def _named_code_gone(ctx: JudgeContext, vocab: CodeVocab) -> Verdict | None:
    """`missing` when the identifiers the unit names are gone: no hint names any definition in
    the repository, the first compound hint occurs nowhere, and neither does at least half of them."""
    hints = named_hints(ctx.unit)
    compound = _definition_hints(hints)
    if not compound:
        return None
    defined = per_index(ctx.index, "definition-keys", lambda ix: frozenset(name_key(s.name) for s in ix.symbols))
    if any(name_key(re.split(r"[^\w]", h.strip().rsplit(".", 1)[-1])[0]) in defined for h in hints if h.strip()):
        return None
    gone = [h for h in compound if name_key(h) not in vocab.keys]
    if compound[0] not in gone or len(gone) * 2 < len(compound):
        return None
    words = distinctive_words(ctx.unit)
    found = words & code_roots(ctx.index)
    if words and len(found) * 3 > len(words):
        return None  # much of what the claim describes is still in the code, under other names
    return decide(NAME, Label.MISSING,
                  f"no code defines or uses {', '.join(gone)}, and no hint of the unit names any definition"
                  f"{_words_seen(found)}", rule="MIS004", confidence=0.75)


def _words_seen(found: set[str]) -> str:
    return f"; of its claim words only {', '.join(sorted(found)[:5])} occur" if found else "; nor does any of its claim words"


def _emptied_candidate(ctx: JudgeContext) -> str | None:
    """A top candidate whose body is a placeholder, or a top candidate class with a placeholder
    method: the names the unit lacks may be what that body lost."""
    index = ctx.index
    for cand in ctx.candidates[:5]:
        sym = candidate_symbol(index, cand)
        if sym is None:
            continue
        pool = [sym] if sym.kind != "class" else methods_by_class(index).get(sym.id, [])
        for fn in pool:
            hit = placeholder(index, fn) if fn.kind in ("function", "method") else None
            if hit is not None and hit[2]:
                return fn.qualname
    return None


def _textual(ctx: JudgeContext, vocab: CodeVocab) -> Verdict:
    unit = ctx.unit
    hints = named_hints(unit)
    if (emptied := _emptied_candidate(ctx)) is not None:
        # Absent names beside an emptied candidate read as deferred as much as missing.
        return abstain(NAME, f"the candidate `{emptied}` is a placeholder: absent names may be what it deferred")
    if (verdict := _named_code_gone(ctx, vocab)) is not None:
        return verdict
    if any(_hint_found(h, vocab) for h in hints):
        return abstain(NAME, "a hinted identifier occurs in the code")
    if not hints:
        # Claim words are prose: code names things differently (`attn`), so their absence shows nothing, not even
        # as a lean (on the own cases without hints, 6 of 183 clean units would have leaned to `missing`).
        return abstain(NAME, "the unit names no identifier to look for, and claim words alone never show absence")
    words = distinctive_words(unit)
    found = words & code_roots(ctx.index)
    if words and len(found) / len(words) >= 1 / 3:
        return abstain(NAME, f"claim words occur in the code ({', '.join(sorted(found)[:5])})")
    return decide(NAME, Label.MISSING,
                  f"no code or config file contains any spelling of the identifiers the unit names ({', '.join(hints[:6])})"
                  f"{_words_seen(found)}",
                  rule="MIS005", confidence=0.85 if not found else 0.75)


def _no_code(ctx: JudgeContext) -> Verdict | None:
    """A repository without a line of code or configuration implements nothing (SA-Bench scores it 0)."""
    if ctx.index.has_code():
        return None
    return decide(NAME, Label.MISSING, "the repository holds no code or configuration at all", rule="MIS001", confidence=0.95, certain=True)


def judge_missing(ctx: JudgeContext) -> Verdict:
    if (verdict := _no_code(ctx)) is not None:
        return verdict
    vocab = code_vocab(ctx.index)
    if ctx.unit.kind == UnitKind.NUMERICAL:
        return _numerical(ctx, vocab)
    if (verdict := dangling(ctx)) is not None:
        return verdict
    if ctx.unit.kind == UnitKind.PROTOCOL and ctx.unit.entities:
        return abstain(NAME, "protocol entities are checked by the protocol judge")
    if ctx.unit.kind == UnitKind.PROTOCOL and ctx.unit.params:
        return _numerical(ctx, vocab)
    return _textual(ctx, vocab)


def missing_judge() -> StaticJudge:
    """Factory: the absence judge."""
    return StaticJudge(NAME, judge_missing)
