"""Stub judge: is the located implementation a placeholder, or code nothing ever runs?

Placeholder evidence comes from the indexer's stub facts, judged in
`evidence/placeholders.py`. Whole-body forms (the body is only `pass`, `...`, a docstring
or `raise NotImplementedError`) are certain; a body that only returns a constant
or `None` is likely; a deferring TODO counts in a body that does almost nothing,
and random or constant stand-ins in a short body (a random draw only where
neither the function nor the claim is about sampling). Declarations are not
stubs: interface classes (`Protocol`, `ABC`), `@abstractmethod` and `@overload`,
`.pyi` files and `if TYPE_CHECKING:` blocks, and a base-class method that some
subclass at any depth overrides, in a class the code never constructs.

The placeholder must be the unit's own implementation (`evidence/ownership.py`): a
function that merely calls an emptied helper is not stubbed itself, and a
placeholder with an intact namesake (`named.namesake`: a legacy copy, a null
object beside the real class) is not the code that runs. A few
statements deferred inside a longer function (a TODO comment followed by
`name = None` or `pass`) count when the deferred names are the unit's hints
(`blocks.py`). A numerical unit is stubbed only when its value is set nowhere
and the best candidate is a placeholder; an ordering unit whose steps are all
found in one function is not stubbed by a placeholder step.

An implementation that is dead code (`evidence/liveness/dead.py`: no entry point reaches it, only
other dead code names it, and the code keeps a trace of the call it lost, so it
is `proven`) is `stubbed` too: the claim is written but never runs. Dead code
nothing names at all may be reached in a way no rule knows and is never called
`stubbed`. When a placeholder that still names it is the likely reason it lost
its callers, the reason says so; the label is the same, because the claim
still never takes effect.
The dead function must be the unit's own implementation: it carries one of the
unit's hints (or the claim names it), so a dead helper that merely ranks first
says nothing about a unit whose own code is gone.
"""

from __future__ import annotations

from sa_align.index.model import RepoIndex, Symbol
from sa_align.judges.base import JudgeContext, StaticJudge, abstain, decide, function_at, lean
from sa_align.judges.evidence.liveness.dead import dead_code
from sa_align.judges.evidence.ownership import (
    candidate_entries, candidate_functions, claim_names, claim_text, named_after_claim, owns, placeholder_support,
    references, support, unit_hints,
)
from sa_align.judges.evidence.placeholders import (
    is_abstract, placeholder, stub_strength,
)
from sa_align.judges.evidence.tables import relevant_symbols
from sa_align.judges.numeric.judge import decide_params
from sa_align.judges.ordering import increasing_choice, locate_steps, step_matchers
from sa_align.judges.protocol.judge import check_entity
from sa_align.judges.stub.blocks import deferred_block, deferred_carrier, deferred_elsewhere
from sa_align.judges.stub.named import named_hints, named_placeholder, namesake, placeholder_group
from sa_align.judges.stub.verdict import NAME, stub_verdict
from sa_align.models import Label, UnitKind, Verdict

MIN_OWNER_HINTS = 2
"""Hints an intact candidate must carry to count as the unit's implementation over the best relevant one."""


def _placeholder(ctx: JudgeContext, relevant: list[Symbol]) -> Verdict | None:
    """A placeholder that is the unit's own implementation (see `evidence/ownership.py`).

    It counts when it carries more of the unit's hints than any intact candidate (as many,
    against a caller of it; `ownership.owns`), or when the claim itself names it
    (`probability_ratio` for "the probability ratio is ...") and no intact candidate that
    stands beside it carries more. Without hints, or with hints only read off the claim, the best
    relevant candidate or one the claim names counts first.
    A class among the top candidates stands for its entry method (`forward`), after the relevant
    functions. A placeholder with an intact namesake (`named.namesake`: a duplicate module, a null
    object beside the real class, another definition its hint names) is not the code that runs.
    """
    functions = candidate_functions(ctx)
    pool: list[Symbol] = []
    for sym in relevant + candidate_entries(ctx) + functions:
        if sym not in pool:
            pool.append(sym)
    claim = claim_text(ctx)
    intact = [s for s in functions if placeholder(ctx.index, s, claim) is None]
    has_hints = bool(unit_hints(ctx))
    # Hints read off the claim's symbols and parameters (`log`, `pi_theta`, `image_size`) name no
    # implementation: such a unit is judged as one without hints first (the best relevant
    # candidate, or one the claim names), so no function carrying them outranks its placeholder.
    read_off = not has_hints or "hints" in ctx.unit.derived
    for rank, sym in enumerate(pool):
        hit = placeholder(ctx.index, sym, claim)
        if hit is None or namesake(ctx, sym) is not None:
            continue
        if deferred_elsewhere(ctx.index, sym, hit[0]):
            continue
        if ctx.unit.kind == UnitKind.ORDERING:
            # Steps share their names across functions: only a clear winner is the sequence itself.
            if rank == 0 and owns(ctx, sym, intact, placeholder=False, strict=True):
                return stub_verdict(sym, *hit, rule="STB002")
            continue
        if read_off and (rank == 0 or claim_names(ctx, sym)):
            return stub_verdict(sym, *hit, rule="STB002")
        if not has_hints:
            continue
        if owns(ctx, sym, intact, placeholder=True) or (claim_names(ctx, sym) and not _outranked(ctx, sym, intact)):
            return stub_verdict(sym, *hit, rule="STB002")
    return None


def _outranked(ctx: JudgeContext, sym: Symbol, intact: list[Symbol]) -> bool:
    """True when an intact candidate that stands beside placeholder `sym` (not a caller of it)
    carries more of the unit's hints: the claim's words naming `sym` do not make it the one that runs."""
    hints = unit_hints(ctx)
    own = placeholder_support(ctx, sym, hints)
    return any(support(ctx.index, o, hints) > own and not references(ctx.index, o, sym) for o in intact if o.id != sym.id)


def _placeholder_cause(index: RepoIndex, sym: Symbol) -> str | None:
    """A placeholder that may be why `sym` lost its callers: one that still spells its name (or the
    name of a dead caller it lost in turn), as a caller or as a switched-off call (`# name(`) in its
    body. Abstract methods are interfaces, not placeholders (`placeholders.placeholder`), and a
    placeholder that names none of them says nothing about it, wherever it is."""
    dead = dead_code(index)
    todo, seen = [sym.id], {sym.id}
    while todo:
        sid = todo.pop(0)
        holders = [c for c in dead.callers.get(sid, ()) if c in dead.proven]
        holders += [t.owner for t in dead.traces.get(sid, ()) if t.kind != "import" and t.owner is not None]
        for holder in holders:
            other = index.symbol_by_id.get(holder)
            if other is not None and placeholder(index, other) is not None:
                return other.qualname
            if holder in dead.proven and holder not in seen:
                seen.add(holder)
                todo.append(holder)
    return None


def _dead_reason(index: RepoIndex, sym: Symbol) -> str:
    """Why `sym` is dead: the dead functions that still call it, or the traces of the calls it lost."""
    dead = dead_code(index)
    reason = f"`{sym.qualname}` is implemented but no entry point reaches it"
    callers = dead.callers.get(sym.id, ())
    if names := ", ".join(f"`{index.symbol_by_id[c].qualname}`" for c in callers[:3] if c in index.symbol_by_id):
        reason += f"; only dead code calls it ({names})"
    traces = dead.traces.get(sym.id, ())
    if off := [f"{t.path}:{t.line}" for t in traces if t.kind == "off"]:
        reason += f"; its calls are commented out ({', '.join(off[:3])})"
    elif written := [f"{t.path}:{t.line}" for t in traces if t.kind == "mention"]:
        reason += f"; a placeholder's comment still writes its call ({', '.join(written[:3])})"
    elif imports := [f"{t.path}:{t.line}" for t in traces if t.kind == "import"]:
        reason += f"; it is imported ({', '.join(imports[:3])}) but nothing there uses it"
    if (cause := _placeholder_cause(index, sym)) is not None:
        reason += f"; its callers were probably cut off by the placeholder `{cause}`"
    return reason


def _entity_lives_elsewhere(ctx: JudgeContext, sym: Symbol) -> bool:
    """True when code that runs names one of the unit's entities outside `sym`: the protocol claim
    lives there (a task table at module level), not in the dead helper."""
    dead = dead_code(ctx.index)
    for name in ctx.unit.entities:
        found = check_entity(name, ctx.index).found
        if found is None or ctx.index.file_kind(found[0]) not in ("python", "notebook"):
            continue  # a config or prose mention runs nothing by itself
        owner = function_at(ctx.index, *found)
        if owner is None or (owner.id != sym.id and owner.id not in dead.dead):
            return True
    return False


def _unreachable(ctx: JudgeContext, sym: Symbol) -> Verdict | None:
    """`stubbed` when the unit's implementation is dead code (`evidence/liveness/dead.py`) and carries enough of the
    unit to be it: the claim names it, or it carries two hints (one, when the unit has only one).
    Certain when a switched-off call proves the cut; likely (0.7) when only an unused import shows
    it, or when nothing names it at all: such code may be reached in a way no rule knows, so the
    vote leaves room for an LLM judge to outvote it."""
    index = ctx.index
    dead = dead_code(index)
    if sym.id not in dead.dead or is_abstract(index, sym):
        return None
    hints = unit_hints(ctx)
    if hints and not claim_names(ctx, sym) and support(index, sym, hints) < min(MIN_OWNER_HINTS, len(hints)):
        return None
    if ctx.unit.entities and not named_hints(index, sym, hints) and _entity_lives_elsewhere(ctx, sym):
        return None
    certain = sym.id in dead.certain
    reason = _dead_reason(index, sym)
    if sym.id not in dead.proven:
        reason += "; nothing names it, so no call of it was seen"
        # Found by the words of a free-text claim, an unused function may be a helper of the claim, not its
        # implementation (on SA-Bench's development split such verdicts were wrong 7 times in 48); so may one
        # named after something else (hand-judged labels: 11 of 11 such verdicts wrong, against 3 of 10 right
        # for functions named after the claim's words).
        if "hints" in ctx.unit.derived:
            return lean(NAME, Label.STUBBED, f"{reason}; the unit names no implementation of its own, so this is no finding",
                        rule="STB009", confidence=0.4, evidence=[sym.span], score=0.0)
        if not named_after_claim(ctx, sym):
            # No lean either: a lean becomes the label where the calibrated judge is sure the claim is not
            # faithful, and these were wrong every time.
            return abstain(NAME, f"{reason}; its name says nothing the claim says, so this is no finding")
    return decide(NAME, Label.STUBBED, reason, rule="STB007", confidence=0.85 if certain else 0.7,
                  certain=certain, evidence=[sym.span], score=0.0)


def _own_implementation(ctx: JudgeContext, relevant: list[Symbol]) -> Symbol | None:
    """The intact candidate that carries the most hints, else the best relevant candidate that
    carries one (or that the claim names; without hints, the best relevant candidate)."""
    hints = unit_hints(ctx)
    claim = claim_text(ctx)
    intact = [s for s in candidate_functions(ctx, limit=5) if placeholder(ctx.index, s, claim) is None]
    if hints and intact:
        best = max(intact, key=lambda s: support(ctx.index, s, hints))
        if support(ctx.index, best, hints) >= MIN_OWNER_HINTS:
            return best
    for sym in relevant:
        if not hints or support(ctx.index, sym, hints) or claim_names(ctx, sym):
            return sym
    return None


def _numerical(ctx: JudgeContext) -> Verdict:
    """A value set nowhere, where the best candidate that should set it is a placeholder."""
    if any(d.label is not None for d in decide_params(ctx.unit, ctx.index, ctx.config.numeric_rel_tol)):
        return abstain(NAME, "the stated value is set in code that exists")
    relevant = relevant_symbols(ctx, limit=3)
    hit = placeholder(ctx.index, relevant[0], claim_text(ctx)) if relevant else None
    if hit is None:
        carrier = deferred_carrier(ctx)
        if carrier is not None:
            return carrier
        why = f"`{relevant[0].qualname}` is not a placeholder" if relevant else "no function among the top candidates relates to the unit"
        return abstain(NAME, why)
    fact, conf, _certain = hit
    return stub_verdict(relevant[0], fact, min(conf, 0.7), False, rule="STB004")


def _sequence_located(ctx: JudgeContext) -> Symbol | None:
    """For an ordering unit: a candidate function in which every step happens, on its own line, in some order."""
    if len(ctx.unit.order) < 2:
        return None
    steps = step_matchers(ctx.unit.order, ctx.unit.hints)
    for fn in candidate_functions(ctx):
        found = locate_steps(ctx.index, fn, steps)
        if all(found) and (increasing_choice(found) or increasing_choice(found[::-1])):
            return fn
    return None


def judge_stub(ctx: JudgeContext) -> Verdict:
    if ctx.unit.kind == UnitKind.NUMERICAL:
        return _numerical(ctx)
    if ctx.unit.kind == UnitKind.ORDERING and (seq := _sequence_located(ctx)) is not None:
        dead = dead_code(ctx.index)
        if seq.id in dead.dead:
            certain = seq.id in dead.certain
            return decide(NAME, Label.STUBBED, f"the steps are sequenced in `{seq.qualname}`, which nothing that runs calls",
                          rule="STB008", confidence=0.85 if certain else 0.7, certain=certain, evidence=[seq.span], score=0.0)
        return abstain(NAME, f"the steps are sequenced in `{seq.qualname}`; a placeholder step is another unit's finding")
    relevant = relevant_symbols(ctx, limit=3)
    verdict = named_placeholder(ctx) or _placeholder(ctx, relevant) or placeholder_group(ctx)
    if verdict is None and ctx.unit.kind != UnitKind.ORDERING:
        verdict = deferred_block(ctx, relevant)
    if verdict is not None:
        return verdict
    own = _own_implementation(ctx, relevant)
    if own is None:
        return abstain(NAME, "no function among the top candidates relates to the unit")
    verdict = _unreachable(ctx, own)
    if verdict is not None:
        return verdict
    return abstain(NAME, f"`{own.qualname}` is neither a placeholder nor unreachable")


def stub_judge() -> StaticJudge:
    """Factory: the placeholder and reachability judge."""
    return StaticJudge(NAME, judge_stub)


__all__ = ["stub_judge", "stub_strength"]
