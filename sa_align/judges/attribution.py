"""Attribution judge: the cited prior method where the paper states its own variant.

Only for `novel` units, and only for the general pairs in
`units/signatures.yaml` (decoupled vs L2-coupled weight decay, Nesterov vs
classical momentum, residual vs plain block, double vs single Q-learning). The
unit's claim must name the variant; then, when no code in the repository shows
the variant and the located implementation shows the prior method, the unit is
`misattributed`. Anything else abstains and is left to the LLM judges.

Two checks keep the flag from firing on what is no substitution (measured on the hand-judged
labels: all 20 sampled `misattributed` flags of 2dcf7b5 were wrong): a unit that describes a
baseline states a cited method itself, not a variant of the paper's; and where only the variant's
absence speaks (`absent_means_cited`), the located implementation must be of the signature's
subject (a block for a residual connection, a loss for a modulating factor), not any function
the retrieval ranked first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex
from sa_align.index.walk import is_test_path
from sa_align.judges.base import JudgeContext, StaticJudge, abstain, decide, line_span
from sa_align.judges.evidence.tables import relevant_symbols
from sa_align.models import Attribution, CodeSpan, Label, Verdict
from sa_align.resources import load_yaml

NAME = "attribution"
MIN_IMPL_LINES = 4


@dataclass(frozen=True)
class Signature:
    id: str
    claim: re.Pattern[str]
    variant: tuple[re.Pattern[str], ...]
    cited: tuple[re.Pattern[str], ...]
    absent_means_cited: bool
    subject: re.Pattern[str] | None


@lru_cache(maxsize=1)
def signatures() -> tuple[Signature, ...]:
    def rx(p: str) -> re.Pattern[str]:
        return re.compile(p, re.IGNORECASE | re.MULTILINE)

    return tuple(
        Signature(
            id=e["id"], claim=rx(e["claim"]),
            variant=tuple(rx(p) for p in e.get("variant") or []),
            cited=tuple(rx(p) for p in e.get("cited") or []),
            absent_means_cited=bool(e.get("absent_means_cited", False)),
            subject=rx(e["subject"]) if e.get("subject") else None,
        )
        for e in load_yaml("signatures.yaml")["pairs"]
    )


@lru_cache(maxsize=1)
def _baseline() -> re.Pattern[str]:
    return re.compile("|".join(load_yaml("signatures.yaml")["baseline_cues"]), re.IGNORECASE)


def _python_code(index: RepoIndex) -> list[tuple[str, str]]:
    return per_index(index, "python-code", lambda ix: [
        (f.path, ix.file_text(f.path)) for f in ix.files if f.kind in ("python", "notebook") and not is_test_path(f.path)
    ])


def _first_match(patterns: tuple[re.Pattern[str], ...], text: str) -> re.Match[str] | None:
    for p in patterns:
        m = p.search(text)
        if m:
            return m
    return None


def _variant_anywhere(sig: Signature, index: RepoIndex) -> bool:
    return any(_has_variant(sig.id, text) for _, text in _python_code(index))


@lru_cache(maxsize=4096)
def _has_variant(sig_id: str, text: str) -> bool:
    """Whether one file states the variant; kept per (signature, file text), since every unit of a
    run, and every commit of a history, asks again about files that did not change."""
    sig = next(s for s in signatures() if s.id == sig_id)
    return _first_match(sig.variant, text) is not None


def _check(sig: Signature, ctx: JudgeContext) -> Verdict | None:
    if _variant_anywhere(sig, ctx.index):
        return None
    for cand in ctx.candidates[:3]:
        m = _first_match(sig.cited, cand.snippet)
        if m:
            line = cand.span.start_line + cand.snippet.count("\n", 0, m.start())
            return decide(NAME, Label.MISATTRIBUTED,
                          f"the paper states its variant ({sig.id}) but the code implements the prior form: `{m.group(0).strip()[:80]}`",
                          rule="ATT001", confidence=0.8, evidence=[line_span(cand.span.path, line, cand.span.symbol)])
    if sig.absent_means_cited:
        impl = relevant_symbols(ctx, limit=3)
        impl = [s for s in impl if s.end_line - s.start_line + 1 >= MIN_IMPL_LINES
                and (sig.subject is None or sig.subject.search(s.qualname))]
        if impl:
            sym = impl[0]
            span = CodeSpan(path=sym.path, start_line=sym.start_line, end_line=sym.end_line, symbol=sym.qualname)
            return decide(NAME, Label.MISATTRIBUTED,
                          f"the paper states its variant ({sig.id}); `{sym.qualname}` and the rest of the code never implement it",
                          rule="ATT002", confidence=0.65, evidence=[span])
    return None


def judge_attribution(ctx: JudgeContext) -> Verdict:
    unit = ctx.unit
    if unit.attribution != Attribution.NOVEL:
        return abstain(NAME, "the unit is cited work; nothing to misattribute")
    text = f"{unit.claim}\n{unit.quote}"
    if _baseline().search(text):
        return abstain(NAME, "the unit describes a baseline, a cited method itself; nothing to misattribute")
    matched = [s for s in signatures() if s.claim.search(text)]
    if not matched:
        return abstain(NAME, "no known variant/prior-method pair applies; left to the LLM judges")
    for sig in matched:
        verdict = _check(sig, ctx)
        if verdict is not None:
            return verdict
    return abstain(NAME, f"the variant ({', '.join(s.id for s in matched)}) is present or the prior form is not")


def attribution_judge() -> StaticJudge:
    """Factory: the cited-method signature judge."""
    return StaticJudge(NAME, judge_attribution)
