"""Which candidate function is the unit's own implementation, judged by its hints.

A unit's hints name the identifiers its implementation uses. The candidate
function whose code (signature, body calls and names; comments and docstrings
excluded) carries the most hints is where the claim lives. A caller that only
invokes a hinted helper carries that one hint; the helper carries it too (its
own name), so they tie and the helper, being the definition, is the better
answer. Hints found nowhere in the repository count for a placeholder: an
emptied body is where the names it used to hold went missing.

A tie goes to the intact rival instead when it is another implementation
standing beside the placeholder (`independent_rival`): not a method of the same
class, not a caller of it, and carrying every hint the placeholder carries plus
one the repository still has. An intact twin (`intact_twin`: a duplicate module,
a null object beside the real class) means the placeholder is not the code that
runs at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sa_align.aliases import split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, Symbol
from sa_align.judges.evidence.classes import hierarchy, methods_by_class
from sa_align.judges.evidence.placeholders import declaration_only, placeholder
from sa_align.judges.evidence.tables import (
    Judged,
    candidate_symbol,
    code_vocab,
    docstring_lines,
    strip_comment,
    symbols_by_name,
)
from sa_align.judges.evidence.words import distinctive_words, generic_words, root
from sa_align.resources import load_yaml
from sa_align.retrieve.names import name_key
from sa_align.retrieve.text import tokenize

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MIN_HINT_KEY = 3


@dataclass(frozen=True)
class Hint:
    """One hint as the code would spell it."""

    text: str
    key: str | None
    """Identifier key (`nn.GroupNorm` -> `groupnorm`) for a name hint; `None` for an expression."""
    tokens: frozenset[str]
    """Search tokens, for expression hints (`epoch + i`)."""
    words: tuple[str, ...] = ()
    """Words of a name hint (`prioritized_replay` -> prioritized, replay)."""
    qualified: str | None = None
    """`Class.method` as written, when the hint names a method of a class."""

    def names(self, sym: Symbol) -> bool:
        """True when the hint spells the definition's name: exactly, as `Class.method`, or as a run
        of two or more of its words (`prioritized_replay` for `prioritized_replay_sample`)."""
        if self.key is None:
            return False
        if self.qualified is not None:
            return self.qualified == sym.qualname or sym.qualname.endswith("." + self.qualified)
        if self.key == name_key(sym.name):
            return True
        return len(self.words) >= 2 and _run_of(self.words, tuple(split_identifier(sym.name)))


def _run_of(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    n = len(part)
    return any(whole[i : i + n] == part for i in range(len(whole) - n + 1))


def unit_hints(ctx: Judged) -> list[Hint]:
    """The unit's hints that could be looked up in code."""
    out: list[Hint] = []
    for h in ctx.unit.hints:
        idents = _IDENT.findall(h)
        if not idents:
            continue
        if re.fullmatch(r"[\w.]+", h.strip()):
            key = name_key(idents[-1])
            if len(key) >= MIN_HINT_KEY:
                qualified = ".".join(idents[-2:]) if len(idents) >= 2 and idents[-2][:1].isupper() else None
                out.append(Hint(h, key, frozenset(), tuple(split_identifier(idents[-1])), qualified))
        elif tokenize(h):
            out.append(Hint(h, None, frozenset(tokenize(h))))
    return out


def _symbol_code(index: RepoIndex, sym: Symbol) -> tuple[set[str], set[str]]:
    """Identifier keys and tokens of a function's code lines (comments and docstrings excluded)."""

    def build(ix: RepoIndex) -> dict[str, tuple[set[str], set[str]]]:
        return {}

    cache = per_index(index, "symbol-code", build)
    hit = cache.get(sym.id)
    if hit is not None:
        return hit
    docs = docstring_lines(index)
    keys: set[str] = set()
    tokens: set[str] = set()
    for no, line in enumerate(index.lines(sym.path, sym.start_line, sym.end_line), sym.start_line):
        if (sym.path, no) in docs:
            continue
        code = strip_comment(line, "python")
        keys.update(name_key(i) for i in _IDENT.findall(code))
        tokens.update(tokenize(code))
    cache[sym.id] = (keys, tokens)
    return keys, tokens


def hint_in_repo(index: RepoIndex, hint: Hint) -> bool:
    """True when some code or config line spells the hint as something that exists: an instance
    attribute the code reads (`self.actor`) but nothing ever sets is a name that went missing."""
    vocab = code_vocab(index)
    if hint.key is not None:
        return hint.key in vocab.keys and hint.key not in unset_attributes(index)
    return hint.tokens <= vocab.tokens


_SELF_READ = re.compile(r"\bself\.([A-Za-z_]\w*)\b(?!\s*(?:[-+*/%&|^]|//|\*\*|>>|<<)?=(?!=))")
_ATTR_SET = re.compile(r"\.([A-Za-z_]\w*)\s*(?::[^=]+)?(?:[-+*/%&|^]|//|\*\*|>>|<<)?=(?!=)")
_SETATTR = re.compile(r"setattr\(\s*\w+\s*,\s*[\"'](\w+)[\"']")
_DYNAMIC = re.compile(r"\b(setattr|__dict__|__slots__)\b")
# A class-body binding: a field (`warmup_steps: int = 500`, NamedTuple fields) or a class attribute (`expansion = 4`).
_CLASS_FIELD = re.compile(r"^\s+([A-Za-z_]\w*)\s*(?::|=(?!=))")


def unset_attributes(index: RepoIndex) -> frozenset[str]:
    """Keys of attributes code reads as `self.x` that nothing assigns (`.x = ...`, a class-body
    field or attribute), nothing defines (a method, class or name of that spelling), no framework
    base class provides (`units/inherited_attributes.yaml`) and no dynamic assignment could set;
    empty when the repository sets attributes dynamically at all.

    Only reads in classes built from the repository's own classes and the framework bases the
    table covers (`torch.nn.Module`) count: a class with another base from outside the repository
    (`gym.Env`, `PreTrainedModel`) may inherit any attribute (`self.np_random`, `self.config`)."""
    table = load_yaml("inherited_attributes.yaml")
    inherited, known = set(table["attributes"]), frozenset(table["bases"])

    def build(ix: RepoIndex) -> frozenset[str]:
        read: set[str] = set()
        assigned: set[str] = set()
        by_path: dict[str, list[Symbol]] = {}
        for sym in ix.symbols:
            if sym.kind != "module":
                by_path.setdefault(sym.path, []).append(sym)
        for info in ix.files:
            if info.kind not in ("python", "notebook"):
                continue
            owner, in_body = _class_lines(ix, by_path.get(info.path, []), known)
            for no, raw in enumerate(ix.file_text(info.path).splitlines(), 1):
                line = strip_comment(raw[:2000], "python")
                if _DYNAMIC.search(line) and not _SETATTR.search(line):
                    return frozenset()
                if owner.get(no) is None or owner[no]:
                    read.update(_SELF_READ.findall(line))
                assigned.update(_ATTR_SET.findall(line))
                assigned.update(_SETATTR.findall(line))
                if no in in_body and (m := _CLASS_FIELD.match(line)):
                    assigned.add(m.group(1))
        defined = {s.name for s in ix.symbols} | {p for s in ix.symbols for p in s.params} | inherited
        return frozenset(name_key(a) for a in read - assigned - defined)

    return per_index(index, "unset-attributes", build)


def _class_lines(index: RepoIndex, defs: list[Symbol], known: frozenset[str]) -> tuple[dict[int, bool], set[int]]:
    """For one file's definitions: line -> whether its innermost class is built only from
    repository classes and `known` framework bases (lines outside classes absent), and the lines
    of class bodies outside their methods."""
    classes = hierarchy(index)
    owner: dict[int, bool] = {}
    in_body: set[int] = set()
    syms = sorted(defs, key=lambda s: s.start_line)
    for sym in syms:
        if sym.kind == "class":
            own = classes.outside_bases(sym.id) <= known
            for no in range(sym.start_line, sym.end_line + 1):
                owner[no] = own
                in_body.add(no)
    for sym in syms:
        if sym.kind in ("function", "method"):
            in_body.difference_update(range(sym.start_line, sym.end_line + 1))
    return owner, in_body


def _own_names(sym: Symbol) -> set[str]:
    """Keys a definition answers to: its name, the words of its name, and its class's name."""
    names = {name_key(sym.name), *(set(tokenize(sym.name)) - generic_words())}
    if sym.kind == "method" and sym.parent:
        names.add(name_key(sym.parent.split("::")[-1].rsplit(".", 1)[-1]))
    return names


def support(index: RepoIndex, sym: Symbol, hints: list[Hint]) -> int:
    """How many hints the function's own code carries (its name, class and parameters included)."""
    keys, tokens = _symbol_code(index, sym)
    keys = keys | _own_names(sym)
    return sum(1 for h in hints if h.names(sym) or _carries(h, keys, tokens))


def _carries(hint: Hint, keys: set[str], tokens: set[str]) -> bool:
    if hint.key is None:
        return hint.tokens <= tokens
    if hint.qualified is not None:
        # `BasicBlock.forward` is carried by code that names the class too, not by any `forward`.
        return hint.key in keys and name_key(hint.qualified.split(".")[0]) in keys
    return hint.key in keys


def claim_names(ctx: Judged, sym: Symbol) -> bool:
    """True when every specific word of the function's name is a word of the claim or quote.

    `probability_ratio` for "the probability ratio is computed ..."; the name needs at
    least two specific words.
    """
    words = {w for w in split_identifier(sym.name) if not w.isdigit() and len(w) > 1} - generic_words()
    if len(words) < 2:
        return False  # one word (`sample`, `delta`) turns up in too many claims
    claim = {root(w) for w in tokenize(f"{ctx.unit.claim} {ctx.unit.quote}")}
    return {root(w) for w in words} <= claim


def named_after_claim(ctx: Judged, sym: Symbol) -> bool:
    """True when the unit's hints name the function (`train_transform`), or a specific word of its name
    is one the claim, quote or steps use (`prioritized_replay_sample` for "sampled in proportion to their
    priority"); a function named after something else (`interpolate_poses`, `calculate_metrics`) is not
    the claim's own code."""
    if any(name_key(h.rsplit(".", 1)[-1]) == name_key(sym.name) for h in ctx.unit.hints):
        return True
    generic = {root(w) for w in generic_words()}
    words = {root(w.lower()) for w in split_identifier(sym.name) if len(w) >= 3 and not w.isdigit()} - generic
    return bool(words & distinctive_words(ctx.unit))


def candidate_functions(ctx: Judged, limit: int = 8) -> list[Symbol]:
    """Functions and methods among the top candidates, in rank order, without repeats."""
    out: list[Symbol] = []
    for cand in ctx.candidates[:limit]:
        sym = candidate_symbol(ctx.index, cand)
        if sym is not None and sym.kind in ("function", "method") and sym not in out:
            out.append(sym)
    return out


def candidate_entries(ctx: Judged, limit: int = 3) -> list[Symbol]:
    """The entry methods (`forward`, `__call__`: `units/stubs.yaml`) of the classes among the top
    candidates, in rank order: what runs when the class a candidate names is used."""
    names = set(load_yaml("stubs.yaml").get("entry_methods", []))
    out: list[Symbol] = []
    for cand in ctx.candidates[:limit]:
        sym = candidate_symbol(ctx.index, cand)
        if sym is not None and sym.kind == "class":
            out += [m for m in methods_by_class(ctx.index).get(sym.id, []) if m.name in names and m not in out]
    return out


MIN_DESCRIBED_WORDS = 2
"""Distinctive claim words a placeholder's docstring or TODO must share to describe the claim."""


def describes_claim(ctx: Judged, sym: Symbol) -> bool:
    """True when the function's docstring or marker comments restate the claim: for a placeholder,
    that text is all that is left of the work it acknowledges."""
    text = " ".join([sym.docstring or ""] + [t.text for t in ctx.index.texts
                                               if t.marker and t.path == sym.path and sym.start_line <= t.line <= sym.end_line])
    words = {root(w) for w in tokenize(text)}
    return len(words & distinctive_words(ctx.unit)) >= MIN_DESCRIBED_WORDS


def placeholder_support(ctx: Judged, sym: Symbol, hints: list[Hint]) -> int:
    """Support of an emptied function: its own hints, the hints the repository lost (the emptied
    body is where they went missing), and one more when it lost some and its docstring still
    describes the claim (a related helper's docstring alone shares the claim's words too)."""
    own = support(ctx.index, sym, hints)
    if own == 0:
        return 0
    # Only names can go missing with a body; a phrase hint ("epsilon prediction") was never code.
    lost = sum(1 for h in hints if h.key is not None and not hint_in_repo(ctx.index, h))
    return own + lost + (1 if lost and describes_claim(ctx, sym) else 0)


def carried(index: RepoIndex, sym: Symbol, hints: list[Hint]) -> set[Hint]:
    """The hints the function's own code carries (`support` counts them)."""
    keys, tokens = _symbol_code(index, sym)
    keys = keys | _own_names(sym)
    return {h for h in hints if h.names(sym) or _carries(h, keys, tokens)}


def references(index: RepoIndex, caller: Symbol, sym: Symbol) -> bool:
    """True when `caller`'s code calls or names `sym`: it builds on it rather than standing beside it."""
    if any(c.resolved == sym.id for c in _calls_from(index).get(caller.id, ())):
        return True
    if name_key(caller.name) == name_key(sym.name):
        return False  # its own name in its signature is not a reference; only a resolved call is
    return name_key(sym.name) in _symbol_code(index, caller)[0]


def _calls_from(index: RepoIndex) -> dict[str, list]:
    def build(ix: RepoIndex) -> dict[str, list]:
        out: dict[str, list] = {}
        for c in ix.calls:
            if c.resolved:
                out.setdefault(c.caller, []).append(c)
        return out

    return per_index(index, "calls-from", build)


def independent_rival(ctx: Judged, rival: Symbol, sym: Symbol, hints: list[Hint]) -> bool:
    """True when intact `rival` stands beside placeholder `sym` as another implementation of the
    unit: it is not a method of the same class (one implementation), does not build on `sym`, and
    carries every hint `sym` carries plus one more that the repository still has (reading
    `self.policy_net` that nothing sets depends on the missing code rather than implementing it)."""
    if sym.parent and rival.parent == sym.parent:
        return False
    if references(ctx.index, rival, sym):
        return False  # a caller of the emptied helper: the helper's body is part of its work
    mine, theirs = carried(ctx.index, sym, hints), carried(ctx.index, rival, hints)
    return mine <= theirs and any(hint_in_repo(ctx.index, h) for h in theirs - mine)


def owns(ctx: Judged, sym: Symbol, others: list[Symbol], placeholder: bool, strict: bool = False) -> bool:
    """True when `sym` carries more of the unit's hints than any other candidate, or as many
    (without `strict`) as any rival that is not another implementation standing beside it
    (`independent_rival`): a caller that carries the helper's name through its call ties, and
    the definition wins. `sym` must carry a hint of its own (its name, a parameter); with
    `placeholder`, it is scored by `placeholder_support`.
    """
    hints = unit_hints(ctx)
    if not hints:
        return False
    own = placeholder_support(ctx, sym, hints) if placeholder else support(ctx.index, sym, hints)
    if own == 0:
        return False
    for other in others:
        if other.id == sym.id:
            continue
        theirs = support(ctx.index, other, hints)
        if theirs > own or (theirs == own and (strict or independent_rival(ctx, other, sym, hints))):
            return False
    return True


def intact_twin(ctx: Judged, sym: Symbol) -> Symbol | None:
    """An intact definition that may run instead of placeholder `sym`, so the placeholder is not
    the unit's implementation: a function of the same name (a duplicate module), a method of the
    same qualified name in another file (`legacy/resnet.py`), or a same-named method of another
    class that carries every hint `sym` carries, when what points at `sym` is its method name
    (`log_metrics` of a null logger beside the real one; not `__init__` of any class)."""
    hints = unit_hints(ctx)
    mine = carried(ctx.index, sym, hints)
    by_name = not mine or any(h.key == name_key(sym.name) for h in mine)
    claim = claim_text(ctx)
    for other in symbols_by_name(ctx.index).get(name_key(sym.name), ()):
        if other.kind not in ("function", "method"):
            continue
        if other.id == sym.id or declaration_only(ctx.index, other) or placeholder(ctx.index, other, claim) is not None:
            continue
        if (sym.kind == other.kind == "function") or other.qualname == sym.qualname:
            return other
        if by_name and (theirs := carried(ctx.index, other, hints)) and mine <= theirs:
            return other
    return None


def claim_text(ctx: Judged) -> str:
    """The unit's claim and quote: what `placeholders.placeholder` weighs a random draw against."""
    return f"{ctx.unit.claim} {ctx.unit.quote}"
