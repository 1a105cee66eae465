"""LLM judges: the unit, its quote and rubric, and the top candidates with line numbers.

The prompt is built in `llm_prompt.py`: paper text and repository code are fenced
as untrusted data under a warning that text inside the fences is never an
instruction. For every model the prompt is fit to `config.judge_prompt_tokens`,
counted on the request exactly as it is sent (schema instruction included) with
the client's tokenizer for that model: candidate blocks are shortened around
their focus line, then the lowest-ranked candidates dropped; the unit itself is
never trimmed. When the unit alone does not fit, that model abstains with
`error="prompt over budget"`.

Every model and sample of `config.judges` votes once (`model#1`, `model#2`, ...).
A reply is re-asked with the error (through validation) when it cites lines that
were not shown, gives a label other than `missing` with no code shown or without
evidence, or grades its label with a level the label does not allow (`levels` in
`units/kinds.yaml`). A failed call becomes an abstention with the error recorded.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sa_align.config import ModelSpec
from sa_align.judges.base import JudgeContext, abstain
from sa_align.judges.llm_prompt import PromptOverBudget, Shown, fit, one_line
from sa_align.judges.routing import label_levels
from sa_align.models import SA_BENCH_LEVELS, CodeSpan, Label, Verdict

NAME = "llm"
OVER_BUDGET = "prompt over budget"
"""`Verdict.error` of a model that abstained because the unit alone exceeds the prompt budget."""

__all__ = ["NAME", "OVER_BUDGET", "EvidenceLines", "JudgeReply", "PromptOverBudget", "Shown", "fit_prompt",
           "judge_llm", "make_validator"]


class EvidenceLines(BaseModel):
    """A range of lines in one of the code blocks shown."""

    model_config = ConfigDict(extra="ignore", use_attribute_docstrings=True)

    path: str
    """File path of the block, the JSON string from its header."""
    start_line: int
    """First line, as numbered in the block."""
    end_line: int
    """Last line (inclusive), as numbered in the block."""

    @field_validator("path")
    @classmethod
    def _unquote(cls, v: str) -> str:
        # Headers show paths as JSON strings; a model may copy the quotes along with the path.
        if len(v) >= 2 and v[0] == v[-1] == '"':
            try:
                return str(json.loads(v))
            except ValueError:
                return v
        return v


class JudgeReply(BaseModel):
    """The verdict on one claim of the paper."""

    model_config = ConfigDict(extra="ignore", use_attribute_docstrings=True)

    label: Literal["aligned", "mismatched", "stubbed", "misattributed", "missing"]
    """aligned | mismatched | stubbed | misattributed | missing (see the rubric)."""
    score: float = Field(ge=0, le=1)
    """SA-Bench level allowed for the label: aligned 1.0/0.75, mismatched 0.75/0.5/0.25, misattributed 0.5/0.25, stubbed 0.5/0.25/0.0, missing 0.0."""
    confidence: float = Field(ge=0, le=1)
    """Probability, 0 to 1, that the label is right."""
    reason: str
    """One or two sentences a person can check against the cited lines."""
    evidence: list[EvidenceLines] = Field(default_factory=list)
    """Lines from the code blocks shown that support the label; may be empty only for `missing`."""

    @field_validator("score")
    @classmethod
    def _level(cls, v: float) -> float:
        return min(SA_BENCH_LEVELS, key=lambda lv: abs(lv - v))

    @model_validator(mode="after")
    def _score_fits_label(self) -> "JudgeReply":
        allowed = label_levels().get(self.label, SA_BENCH_LEVELS)
        if self.score not in allowed:
            levels = " or ".join(str(x) for x in allowed)
            raise ValueError(f"score {self.score} is not a level of `{self.label}`, which is graded {levels}; "
                             "fix the score or the label")
        return self


def fit_prompt(ctx: JudgeContext, spec: ModelSpec) -> tuple[list[dict[str, Any]], list[Shown]]:
    """Messages whose request to `spec` fits `config.judge_prompt_tokens`; raises `PromptOverBudget`."""
    def count(messages: list[dict[str, Any]]) -> int:
        return ctx.client.prompt_tokens(spec, messages, JudgeReply)

    return fit(ctx, ctx.config.judge_prompt_tokens, count)


# --------------------------------------------------------------------------- grounding


def make_validator(shown: list[Shown]):
    """Reject ungrounded replies (the client re-asks with the message)."""
    ranges = [(s.cand.span.path, s.start, s.end) for s in shown]

    def validate(reply: JudgeReply) -> None:
        if not ranges and reply.label != "missing":
            raise ValueError("no repository code was shown, so no label but `missing` can be supported; "
                             "answer `missing` with score 0.0 and no evidence")
        if reply.label != "missing" and not reply.evidence:
            raise ValueError("cite at least one evidence line range from the code blocks shown")
        bad = [e for e in reply.evidence if not any(
            e.path == p and s <= e.start_line <= e.end_line <= t for p, s, t in ranges)]
        if bad:
            # Paths as JSON strings, as in the block headers: a path never shapes the message.
            shown_txt = ", ".join(f"{one_line(p)}:{s}-{t}" for p, s, t in ranges) or "none"
            cited = ", ".join(f"{one_line(e.path)}:{e.start_line}-{e.end_line}" for e in bad)
            raise ValueError(f"evidence {cited} is not within the code shown; cite only lines from: {shown_txt}")

    return validate


def _verdict(reply: JudgeReply, model: str, shown: list[Shown], cost: Any) -> Verdict:
    evidence = []
    for e in reply.evidence[:10]:
        owner = next((s for s in shown if s.cand.span.path == e.path and s.start <= e.start_line <= s.end), None)
        symbol = owner.cand.span.symbol if owner is not None else None
        evidence.append(CodeSpan(path=e.path, start_line=max(1, e.start_line), end_line=max(1, e.end_line), symbol=symbol))
    return Verdict(judge=NAME, model=model, label=Label(reply.label), score=reply.score,
                   confidence=reply.confidence, reason=reply.reason, evidence=evidence, cost=cost, rule="LLM001")


async def _judge_with(ctx: JudgeContext, spec: ModelSpec) -> list[Verdict]:
    """Every sample of one model, on the prompt fit to that model's tokenizer and output mode."""
    names = [f"{spec.model}#{i + 1}" for i in range(spec.samples)]
    try:
        messages, shown = fit_prompt(ctx, spec)
    except PromptOverBudget as exc:
        return [abstain(NAME, f"not judged: {exc}", error=OVER_BUDGET, model=n) for n in names]
    except Exception as exc:  # a tokenizer or template failure must not sink the unit
        return [abstain(NAME, "prompt could not be built", error=f"{type(exc).__name__}: {exc}", model=n) for n in names]
    try:
        results = await ctx.client.ensemble(messages, JudgeReply, [spec], validate=make_validator(shown))
    except Exception as exc:  # one model's failure must not take the other models' votes with it
        results = [exc] * len(names)
    out = []
    for name, res in zip(names, results):
        if isinstance(res, Exception):
            out.append(abstain(NAME, "the model gave no usable verdict", error=f"{type(res).__name__}: {res}", model=name))
        else:
            out.append(_verdict(res.value, name, shown, res.cost))
    return out


async def judge_llm(ctx: JudgeContext) -> list[Verdict]:
    """One verdict per (model, sample) of `config.judges`, in config order; failures abstain with the error."""
    specs = list(ctx.config.judges)
    if ctx.client is None or not specs:
        return []
    per_model = await asyncio.gather(*(_judge_with(ctx, spec) for spec in specs))
    return [v for verdicts in per_model for v in verdicts]
