"""Judges: static checks and LLM judges -> verdicts; aggregation -> one result per unit.

`judge_unit` runs the static judges routed to the unit's kind
(`units/kinds.yaml`, restricted by `config.static_judges`), then the LLM
ensemble when a client and `config.judges` are given. The ensemble is skipped
when a static judge already reached a certain verdict: that verdict would
outrank every LLM vote in aggregation anyway, and harnesses running thousands
of repositories should not pay for votes that cannot change a label. A kind
whose `llm` policy is `never` stays static-only.

Any exception a judge raises becomes an abstention with the error recorded.
"""

from __future__ import annotations

import asyncio

from sa_align.judges.aggregate import aggregate, fleiss_kappa
from sa_align.judges.base import Judge, JudgeContext, StaticJudge, abstain
from sa_align.judges.injection import scan_injections, scan_unit_injections
from sa_align.models import Verdict

__all__ = [
    "Judge",
    "JudgeContext",
    "StaticJudge",
    "aggregate",
    "fleiss_kappa",
    "judge_llm_votes",
    "judge_static",
    "judge_unit",
    "llm_would_run",
    "scan_injections",
    "scan_unit_injections",
    "static_judges_for",
]


def static_judges_for(ctx: JudgeContext) -> list[Judge]:
    """The static judges routed to the unit's kind, in order."""
    from sa_align.judges.routing import registry, static_judge_names

    factories = registry()
    names = static_judge_names(ctx.unit.kind, ctx.config.static_judges)
    return [factories[n]() for n in names if n in factories]


async def _run(judge: Judge, ctx: JudgeContext) -> Verdict:
    try:
        return await judge(ctx)
    except Exception as exc:  # one judge's failure is recorded, never fatal
        return abstain(judge.name, "the judge failed", error=f"{type(exc).__name__}: {exc}")


async def judge_static(ctx: JudgeContext) -> list[Verdict]:
    """The static judges' verdicts on one unit, each passed through the scope gate."""
    from sa_align.judges.scope import scoped

    raw = await asyncio.gather(*(_run(j, ctx) for j in static_judges_for(ctx)))
    return [scoped(ctx.unit, v, ctx.index) for v in raw]


def llm_would_run(ctx: JudgeContext, static: list[Verdict]) -> bool:
    """Whether the LLM ensemble runs on this unit: a client and judges, no certain static verdict, a kind that allows it."""
    from sa_align.judges.routing import llm_policy

    certain = any(v.certain and not v.abstained for v in static)
    return ctx.client is not None and bool(ctx.config.judges) and not certain and llm_policy(ctx.unit.kind) != "never"


async def judge_llm_votes(ctx: JudgeContext, static: list[Verdict]) -> list[Verdict]:
    """The LLM ensemble's verdicts, or none when it does not run (see `llm_would_run`)."""
    if not llm_would_run(ctx, static):
        return []
    from sa_align.judges.llm_judge import judge_llm

    try:
        return await judge_llm(ctx)
    except Exception as exc:
        return [abstain("llm", "the LLM ensemble failed", error=f"{type(exc).__name__}: {exc}")]


async def judge_unit(ctx: JudgeContext) -> list[Verdict]:
    """Every verdict on one unit: static judges first, then the LLM ensemble unless already certain."""
    static = await judge_static(ctx)
    return static + await judge_llm_votes(ctx, static)
