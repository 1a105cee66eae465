"""Placeholders the unit names: a hinted function that is a stand-in, or a hinted class that is one.

A hint that spells a definition (`reset_lora_parameters`, `BasicBlock.forward`,
`GaussianActor`) says where the claim lives more precisely than any ranking:

- a named function or method that is a placeholder (`evidence/placeholders.py`) makes
  the unit `stubbed` when it owns the unit (`ownership.owns`: no intact
  candidate carries more of the unit's hints; a caller whose own code is the
  claim and that merely calls the emptied helper keeps the unit);
- a named class defers its work when at least half of its methods (two or
  more) are placeholders: the class exists, the behaviour does not. One
  emptied method of a class (its constructor, say) is that method's finding:
  the unit may live in the intact rest, which the method-level rule decides.

A single-word hint (`normalize`) names a definition only when the repository
defines that name once. A placeholder with an intact namesake is not the one
that runs, so it never counts: a real function of the same name or a method of
the same qualified name elsewhere (a duplicate or legacy module), a same-named
method of another class carrying every hint the placeholder carries (a null
object beside the real logger), or another intact definition that one of its
hints names too (a compound hint `linear_warmup` naming `linear_warmup_factor`).
"""

from __future__ import annotations

from collections import defaultdict

from sa_align.aliases import split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, StubFact, Symbol
from sa_align.judges.base import JudgeContext
from sa_align.judges.evidence.classes import methods_by_class
from sa_align.judges.evidence.ownership import (
    Hint,
    candidate_functions,
    claim_text,
    hint_in_repo,
    intact_twin,
    owns,
    support,
    unit_hints,
)
from sa_align.judges.evidence.placeholders import (
    declaration_only,
    placeholder,
)
from sa_align.judges.evidence.tables import symbols_by_name
from sa_align.judges.stub.blocks import deferred_elsewhere
from sa_align.judges.stub.verdict import stub_verdict
from sa_align.models import Verdict

MIN_DEFERRED_METHODS = 2


def _by_word(index: RepoIndex) -> dict[str, list[Symbol]]:
    def build(ix: RepoIndex) -> dict[str, list[Symbol]]:
        out: dict[str, list[Symbol]] = defaultdict(list)
        for sym in ix.symbols:
            if sym.kind != "module":
                for word in set(split_identifier(sym.name)):
                    out[word].append(sym)
        return dict(out)

    return per_index(index, "symbols-by-word", build)


def _methods(index: RepoIndex, cls: Symbol) -> list[Symbol]:
    return methods_by_class(index).get(cls.id, [])


def named_definitions(index: RepoIndex, hint: Hint) -> list[Symbol]:
    """Functions, methods and classes the hint spells (see `Hint.names`)."""
    if hint.key is None:
        return []
    if len(hint.words) >= 2 and hint.qualified is None:
        lists = [_by_word(index).get(w, []) for w in hint.words]
        pool = [s for s in min(lists, key=len) if hint.names(s)]
    else:
        pool = [s for s in symbols_by_name(index).get(hint.key, []) if hint.names(s)]
    if hint.qualified is None and len(hint.words) < 2 and len(pool) != 1:
        return []
    return pool


def named_hints(index: RepoIndex, sym: Symbol, hints: list[Hint]) -> list[Hint]:
    """The hints that name `sym` specifically (`named_definitions` finds it from them)."""
    return [h for h in hints if any(d.id == sym.id for d in named_definitions(index, h))]


def deferred_class(index: RepoIndex, cls: Symbol, claim: str = "") -> list[tuple[Symbol, tuple[StubFact, float, bool]]]:
    """The placeholder methods that leave class `cls` without its behaviour ([] when it has it)."""
    methods = _methods(index, cls)
    stubs = [(m, hit) for m in methods if (hit := placeholder(index, m, claim)) is not None]
    if len(stubs) >= MIN_DEFERRED_METHODS and 2 * len(stubs) >= len(methods):
        return stubs
    return []


def _class_support(ctx: JudgeContext, cls: Symbol, hints: list[Hint]) -> int:
    """Hints the class carries in its name or any method, plus those the repository lost."""
    methods = _methods(ctx.index, cls)
    own = sum(1 for h in hints if h.names(cls) or any(support(ctx.index, m, [h]) for m in methods))
    return own + sum(1 for h in hints if not hint_in_repo(ctx.index, h))


def _intact_candidates(ctx: JudgeContext, outside: Symbol | None = None, callers_of: Symbol | None = None) -> list[Symbol]:
    """Intact candidate functions (outside class `outside`), plus the callers of `callers_of`:
    a caller whose own code carries the claim is a rival even when retrieval ranked it low."""
    pool = list(candidate_functions(ctx))
    if callers_of is not None:
        pool += [ctx.index.symbol_by_id[c.caller] for c in ctx.index.calls
                 if c.resolved == callers_of.id and c.caller in ctx.index.symbol_by_id]
    unique = list({s.id: s for s in pool}.values())
    claim = claim_text(ctx)
    return [s for s in unique if s.kind in ("function", "method") and placeholder(ctx.index, s, claim) is None
            and (outside is None or s.parent != outside.id)]


def _deferred_named_class(ctx: JudgeContext, cls: Symbol, hints: list[Hint]) -> Verdict | None:
    deferred = deferred_class(ctx.index, cls, claim_text(ctx))
    if not deferred:
        return None
    rival = max((support(ctx.index, s, hints) for s in _intact_candidates(ctx, outside=cls)), default=0)
    if _class_support(ctx, cls, hints) < rival:
        return None
    method, hit = max(deferred, key=lambda mh: (mh[1][2], mh[1][1]))
    return stub_verdict(method, *hit, named=f"the class `{cls.qualname}` the unit names cannot do its work", rule="STB001")


def named_placeholder(ctx: JudgeContext) -> Verdict | None:
    """`stubbed` when a hint names a placeholder function or a class that defers its work, and no
    intact candidate carries more of the unit's hints (a caller whose own code is the claim)."""
    index = ctx.index
    hints = unit_hints(ctx)
    claim = claim_text(ctx)
    for hint in hints:
        named = named_definitions(index, hint)
        if _intact_namesake(ctx, named):
            continue  # the hint names a real definition too: the placeholder may not be the one that runs
        for sym in named:
            if sym.kind == "class":
                if (verdict := _deferred_named_class(ctx, sym, hints)) is not None:
                    return verdict
                continue
            hit = placeholder(index, sym, claim)
            if hit is None or intact_twin(ctx, sym) is not None or deferred_elsewhere(index, sym, hit[0]):
                continue
            if owns(ctx, sym, _intact_candidates(ctx, callers_of=sym), placeholder=True):
                return stub_verdict(sym, *hit, named="the unit names it", rule="STB001")
    return None


def _intact_namesake(ctx: JudgeContext, named: list[Symbol]) -> bool:
    """True when a hint names several definitions and one of them is intact (a function or method
    that is no placeholder, a class that does its work): "defined once" for compound hints too."""
    return len(named) >= 2 and any(_intact(ctx, sym) for sym in named)


def _intact(ctx: JudgeContext, sym: Symbol) -> bool:
    """True when `sym` does its work: a declaration (a `.pyi` stub) is no implementation either way."""
    claim = claim_text(ctx)
    if declaration_only(ctx.index, sym):
        return False
    if sym.kind == "class":
        return not deferred_class(ctx.index, sym, claim)
    return sym.kind in ("function", "method") and placeholder(ctx.index, sym, claim) is None


def namesake(ctx: JudgeContext, sym: Symbol) -> Symbol | None:
    """An intact definition that may be the unit's implementation instead of placeholder `sym`:
    its twin (`ownership.intact_twin`), or an intact definition a hint naming `sym` names too
    (`linear_warmup` for both `linear_warmup` and `linear_warmup_factor`)."""
    if (twin := intact_twin(ctx, sym)) is not None:
        return twin
    for hint in unit_hints(ctx):
        named = named_definitions(ctx.index, hint)
        if any(d.id == sym.id for d in named):
            for other in named:
                if other.id != sym.id and _intact(ctx, other):
                    return other
    return None


def placeholder_group(ctx: JudgeContext) -> Verdict | None:
    """`stubbed` when two or more emptied candidates together carry more of the unit's hints than
    any intact rival: the implementation spans several functions, all of them deferred."""
    index = ctx.index
    hints = unit_hints(ctx)
    claim = claim_text(ctx)
    group = [(s, hit) for s in candidate_functions(ctx) if (hit := placeholder(index, s, claim)) is not None
             and support(index, s, hints) and namesake(ctx, s) is None and not deferred_elsewhere(index, s, hit[0])]
    if len(group) < 2:
        return None
    carried = sum(1 for h in hints if any(support(index, s, [h]) for s, _ in group))
    carried += sum(1 for h in hints if h.key is not None and not hint_in_repo(index, h))
    rivals = [r for s, _ in group for r in _intact_candidates(ctx, callers_of=s)]
    # A rival that spells a member's name only calls it: that hint is the member's, not the rival's
    # (when the hint names that member specifically: `linear_warmup_decay`, not a bare `forward`).
    theirs = [h for h in hints if not any(h in named_hints(index, s, hints) for s, _ in group)]
    if carried <= max((support(index, r, theirs) for r in rivals), default=0):
        return None
    sym, hit = max(group, key=lambda sh: (sh[1][2], sh[1][1]))
    names = ", ".join(f"`{s.qualname}`" for s, _ in group)
    return stub_verdict(sym, *hit, named=f"the unit's code spans {names}, all placeholders", rule="STB003")


__all__ = ["deferred_class", "named_definitions", "named_placeholder", "namesake", "placeholder_group"]
