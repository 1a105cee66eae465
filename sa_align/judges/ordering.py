"""Ordering judge: do the located steps run in the stated order?

Each step phrase becomes a few distinctive words (generic verbs like "apply"
or "compute" dropped). Within a candidate function, a step is located at the
first code line that performs it: code outside string literals, dictionary
entries excluded (a checkpoint saver lists `"optimizer": optimizer.state_dict()`
without stepping the optimizer), whose identifiers carry those words, or a
call whose callee's body does (one level down the call path). When every step is located
on its own line in one function, the order of those lines is the order of the
steps: increasing -> aligned, anything else -> mismatched (evidence: the lines).
When a step happens at several lines, the steps are in order if some choice
of occurrences is increasing (a repeated step is not a swapped one); steps
found on one line (nested calls) or not found leave the judge abstaining. When the unit has one hint per
step, the hint locates its step too.
"""

from __future__ import annotations

import re

from sa_align.index.model import RepoIndex, Symbol
from sa_align.judges.base import (
    JudgeContext,
    StaticJudge,
    abstain,
    decide,
    line_span,
)
from sa_align.judges.evidence.liveness.dead import dead_code
from sa_align.judges.evidence.tables import candidate_symbol, docstring_lines, strip_comment
from sa_align.judges.evidence.words import generic_words
from sa_align.models import Label, Verdict
from sa_align.retrieve.text import tokenize

NAME = "ordering"


def step_words(step: str) -> set[str]:
    words = set(tokenize(step))
    specific = words - generic_words()
    return specific or words


def _line_matches(words: set[str], line_tokens: set[str]) -> bool:
    if not words:
        return False
    hit = len(words & line_tokens)
    return hit == len(words) or (len(words) >= 3 and hit * 3 >= len(words) * 2)


def located_steps(unit_order: list[str]) -> list[str]:
    """The steps that carry a word to locate them by (a fragment such as `I)` left by a bad split does not)."""
    return [s for s in unit_order if step_words(s)]


def step_matchers(unit_order: list[str], hints: list[str]) -> list[list[set[str]]]:
    """Word sets locating each step: its own words, plus its hint when hints pair one-to-one with steps."""
    unit_order = located_steps(unit_order)
    paired = len(hints) == len(unit_order)
    out = []
    for i, step in enumerate(unit_order):
        sets = [step_words(step)]
        if paired and set(tokenize(hints[i])):
            sets.append(set(tokenize(hints[i])))
        out.append(sets)
    return out


def _body_tokens(index: RepoIndex, sym: Symbol) -> set[str]:
    lines = index.lines(sym.path, sym.start_line, sym.end_line)
    return set(tokenize("\n".join(strip_comment(ln, "python") for ln in lines)))


# A dictionary entry (`"optimizer": optimizer.state_dict(),`) names things; it performs no step.
_DICT_ENTRY = re.compile(r"""^\s*(?:"[^"]*"|'[^']*')\s*:""")
_STRING = re.compile(r"""(?:"[^"\n]*"|'[^'\n]*')""")


def _performed_tokens(lines: list[str]) -> list[set[str]]:
    """Per line, the words of what it does: code outside string literals, nothing on dictionary-entry lines.

    A checkpoint saver lists `{"scheduler": ..., "optimizer": ...}` without stepping either.
    """
    out = []
    for ln in lines:
        code = strip_comment(ln, "python")
        out.append(set() if _DICT_ENTRY.match(code) else set(tokenize(_STRING.sub(" ", code))))
    return out


def locate_steps(index: RepoIndex, fn: Symbol, steps: list[list[set[str]]]) -> list[list[int]]:
    """Every line of `fn` where each step is performed (directly, or in a called function's body)."""
    lines = index.lines(fn.path, fn.start_line, fn.end_line)
    tokens = _performed_tokens(lines)
    callees: dict[int, Symbol] = {}
    for c in index.calls:
        sym = index.symbol_by_id.get(c.resolved or "")
        # A class's body holds every method: matching it would locate anything anywhere.
        if c.caller == fn.id and sym is not None and sym.id != fn.id and sym.kind in ("function", "method"):
            callees[c.line] = sym
    docs = docstring_lines(index)
    out: list[list[int]] = []
    for matchers in steps:
        where = []
        for i, toks in enumerate(tokens):
            line = fn.start_line + i
            if line == fn.start_line or (fn.path, line) in docs:
                continue  # the signature and docstring describe the steps; code performs them
            callee = callees.get(line)
            body = _body_tokens(index, callee) if callee is not None else set()
            if any(_line_matches(w, toks) or (body and _line_matches(w, body)) for w in matchers):
                where.append(line)
        out.append(where)
    return out


def increasing_choice(found: list[list[int]]) -> list[int] | None:
    """One occurrence per step, strictly increasing, if any exists (greedy earliest-after-previous)."""
    out: list[int] = []
    prev = 0
    for lines in found:
        nxt = next((ln for ln in sorted(lines) if ln > prev), None)
        if nxt is None:
            return None
        out.append(nxt)
        prev = nxt
    return out


def judge_ordering(ctx: JudgeContext) -> Verdict:
    unit = ctx.unit
    order = located_steps(unit.order)
    if len(order) < 2:
        return abstain(NAME, "the unit states no order of steps")
    steps = step_matchers(unit.order, unit.hints)
    if any(not any(m) for m in steps):
        return abstain(NAME, "a step has no words to locate it by")
    seen: set[str] = set()
    for cand in ctx.candidates:
        fn = candidate_symbol(ctx.index, cand)
        if fn is None or fn.kind not in ("function", "method") or fn.id in seen:
            continue
        seen.add(fn.id)
        found = locate_steps(ctx.index, fn, steps)
        if any(not f for f in found):
            continue
        if fn.id in dead_code(ctx.index).dead:
            # The order holds in code nothing runs: that is the stub judge's finding, not this one's.
            return abstain(NAME, f"the steps are located in `{fn.qualname}`, which nothing that runs calls")
        chosen = increasing_choice(found)
        if chosen is not None:
            evidence = [line_span(fn.path, ln, fn.qualname) for ln in chosen]
            located = ", ".join(f"'{s}' at line {ln}" for s, ln in zip(order, chosen))
            return decide(NAME, Label.ALIGNED, f"in `{fn.qualname}` the steps run in the stated order: {located}",
                          rule="ORD001", confidence=0.75, evidence=evidence)
        first = [min(f) for f in found]
        if len(set(first)) < len(first):
            continue  # two steps on one line (nested calls): no order to read
        evidence = [line_span(fn.path, ln, fn.qualname) for ln in first]
        located = ", ".join(f"'{s}' at line {ln}" for s, ln in zip(order, first))
        return decide(NAME, Label.MISMATCHED, f"in `{fn.qualname}` the steps run out of the stated order: {located}",
                      rule="ORD002", confidence=0.75, evidence=evidence)
    # No lean: steps spread over functions are normal in correct code (on the own cases 14 of 22
    # clean ordering units would have leaned to `mismatched`).
    return abstain(NAME, "no candidate function contains every step, each on its own line, in an unambiguous order")


def ordering_judge() -> StaticJudge:
    """Factory: the order-of-steps judge."""
    return StaticJudge(NAME, judge_ordering)
