"""One function owns a unit's label: `label_unit`.

A reader who asks "why did this unit get this label?" follows it here, in this order:

1. **Static judges** routed to the unit's kind (`units/kinds.yaml`, restricted by
   `config.static_judges`) each return a verdict; a judge that raises abstains with
   the error recorded (`judge_static`).
2. **Scope gate**: each static verdict is checked against what the claim states
   (`judges/scope.py`), so a value the claim never stated cannot decide it.
3. **Aggregate once**: the hand-set aggregate of the static verdicts
   (`judges/aggregate.py`).
4. **Calibrated assessment** (when a calibrator is given): the model's probability
   that the claim is implemented faithfully, and the decision it leads to
   (`calibrate/policy.py`).
5. **LLM judges when wanted**: without a calibrator, whenever a model is configured
   and no static verdict is certain; with one, only where the model is unsure (inside
   its band) or its decision would leave the unit `undecided`. The LLM votes join the
   static ones and steps 3-4 are taken again on all of them.
6. **Decision**: the calibrated result, or the hand-set aggregate when calibration is
   off (`calibrator=None`) or failed for this unit (the error is recorded, the run
   goes on).
7. **Rules**: every decision names the code of its rule (`sa-align rules`). A rule the
   run switched off (`config.rules`) abstains in step 1-2 and its policy step is not
   taken; a preview rule's failure is held back for review (`rules/policy.py`).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol, Sequence

from sa_align.judges import routing
from sa_align.judges.aggregate import aggregate
from sa_align.judges.base import Judge, JudgeContext, abstain
from sa_align.judges.scope import scoped
from sa_align.models import Calibration, Candidate, Unit, UnitResult, Verdict
from sa_align.rules.policy import enabled, hold_preview, switched_off


class Calibrating(Protocol):
    """What `label_unit` asks of the calibrated judge (`sa_align.calibrate.Calibrator`): declared here, so the
    judges depend on no calibrator and the calibrator may use the judges."""

    def assess(self, unit: Unit, verdicts: Sequence[Verdict], candidates: Sequence[Candidate], index: Any,
               hand: UnitResult) -> Calibration: ...

    def decide(self, hand: UnitResult, cal: Calibration) -> UnitResult: ...

    def wants_llm(self, cal: Calibration, decided: UnitResult) -> bool: ...

    def skipped_llm(self, samples: int) -> None: ...


async def label_unit(ctx: JudgeContext, calibrator: Calibrating | None = None,
                     errors: list[str] | None = None) -> UnitResult:
    """The unit's final result (see the module docstring for the order of steps).

    `calibrator=None` is the uncalibrated run (the hand-set aggregate decides). Errors
    that degrade the unit without failing it are appended to `errors` when given.
    """
    return hold_preview(await _decided(ctx, calibrator, errors), ctx.config.rules)


async def _decided(ctx: JudgeContext, calibrator: Calibrating | None, errors: list[str] | None) -> UnitResult:
    """Steps 1-6: the label before the preview policy."""
    unit, candidates, config = ctx.unit, ctx.candidates, ctx.config
    static = await judge_static(ctx)
    if calibrator is None:
        return aggregate(unit, static + await judge_llm_votes(ctx, static), candidates, config)
    hand = aggregate(unit, static, candidates, config)
    try:
        cal = calibrator.assess(unit, static, candidates, ctx.index, hand)
        decided = calibrator.decide(hand, cal)
    except Exception as exc:  # the unit keeps its uncalibrated aggregate
        _note(errors, f"calibration failed for {unit.id}: {type(exc).__name__}: {exc}")
        return aggregate(unit, static + await judge_llm_votes(ctx, static), candidates, config)
    if not llm_would_run(ctx, static):
        return decided
    if not calibrator.wants_llm(cal, decided):
        calibrator.skipped_llm(sum(spec.samples for spec in config.judges))
        skipped = decided.calibration.model_copy(update={"llm_skipped": True})  # set by every calibrated decision
        return decided.model_copy(update={"calibration": skipped})
    hand = aggregate(unit, static + await judge_llm_votes(ctx, static), candidates, config)
    try:
        return calibrator.decide(hand, cal)
    except Exception as exc:
        _note(errors, f"calibration failed for {unit.id}: {type(exc).__name__}: {exc}")
        return hand


def _note(errors: list[str] | None, message: str) -> None:
    if errors is not None:
        errors.append(message)


def static_judges_for(ctx: JudgeContext) -> list[Judge]:
    """The static judges routed to the unit's kind, in order."""
    factories = routing.registry()
    return [factories[n]() for n in routing.static_judge_names(ctx.unit.kind, ctx.config.static_judges)]


async def _run(judge: Judge, ctx: JudgeContext) -> Verdict:
    try:
        return await judge(ctx)
    except Exception as exc:  # one judge's failure is recorded, never fatal
        return abstain(judge.name, "the judge failed", error=f"{type(exc).__name__}: {exc}")


async def judge_static(ctx: JudgeContext) -> list[Verdict]:
    """The static judges' verdicts on one unit, each passed through the scope gate (steps 1-2)."""
    raw = await asyncio.gather(*(_run(j, ctx) for j in static_judges_for(ctx)))
    return [switched_off(_gated(ctx, v), ctx.config.rules) for v in raw]


def _gated(ctx: JudgeContext, verdict: Verdict) -> Verdict:
    """The scope gate's verdict, unless the run switched off the gate's rule."""
    gated = scoped(ctx.unit, verdict, ctx.index)
    return gated if gated is verdict or enabled(gated.rule, ctx.config.rules) else verdict


def llm_would_run(ctx: JudgeContext, static: list[Verdict]) -> bool:
    """Whether the LLM ensemble may run on this unit: a client and judges, no certain static verdict
    (it would outrank every LLM vote, so harnesses do not pay for votes that cannot change a label),
    and a kind whose `llm` policy is not `never`."""
    certain = any(v.certain and not v.abstained for v in static)
    return (ctx.client is not None and bool(ctx.config.judges) and not certain and enabled("LLM001", ctx.config.rules)
            and routing.llm_policy(ctx.unit.kind) != "never")


async def judge_llm_votes(ctx: JudgeContext, static: list[Verdict]) -> list[Verdict]:
    """The LLM ensemble's verdicts, or none when it does not run (see `llm_would_run`)."""
    if not llm_would_run(ctx, static):
        return []
    from sa_align.judges.llm_judge import judge_llm  # the prompt machinery is only needed with a model

    try:
        return await judge_llm(ctx)
    except Exception as exc:
        return [abstain("llm", "the LLM ensemble failed", error=f"{type(exc).__name__}: {exc}")]

