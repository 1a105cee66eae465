"""Candidates, verdicts and per-unit results: what retrieval finds and what the judges say."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sa_align.models.base import Label, _Model
from sa_align.models.units import CodeSpan, Unit

# --------------------------------------------------------------------------- retrieval and judging


class Candidate(_Model):
    """A place in the repository that may implement a unit."""

    span: CodeSpan
    """Where the candidate code is."""
    score: float
    """Fused retrieval score; higher is more likely."""
    score_without_embedding: float | None = None
    """The fused score without the embedding signal; `None` when no embedding ranked this unit's candidates. The calibrated judge reads this one, since its model is trained without embeddings."""
    why: list[str] = Field(default_factory=list)
    """Which signals found it (`bm25`, `param:learning_rate=0.0003`, `embedding`, `callee-of:train`)."""
    snippet: str = ""
    """The candidate's source lines, possibly trimmed to fit a prompt."""
    focus_line: int | None = Field(default=None, ge=1)
    """The line inside `span` that retrieval matched best (a parameter's assignment, else the line sharing the rarest query terms); a prompt shortened to fit its budget keeps the lines around it. `None` when no line stands out."""


class Cost(_Model):
    """Tokens and money spent on one call or one verdict."""

    prompt_tokens: int = 0
    """Prompt tokens reported by the provider (0 for cache hits and static judges)."""
    completion_tokens: int = 0
    """Completion tokens reported by the provider."""
    usd: float | None = 0.0
    """Dollar cost from litellm's price table; `None` when the model's price is unknown."""
    calls: int = 0
    """Provider calls made (cache hits excluded)."""
    cache_hits: int = 0
    """Calls answered from the disk cache."""

    def __add__(self, other: "Cost") -> "Cost":
        usd = None if self.usd is None or other.usd is None else self.usd + other.usd
        return Cost(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            usd=usd,
            calls=self.calls + other.calls,
            cache_hits=self.cache_hits + other.cache_hits,
        )


class Verdict(_Model):
    """One judge's decision on one unit."""

    judge: str
    """Judge name (`numeric`, `stub`, `llm`, ...)."""
    model: str | None = None
    """Model string for LLM judges, with the sample index when several (`openai/gpt-4o#2`)."""
    label: Label
    """The judge's label; `undecided` when it abstained."""
    score: float | None = None
    """Graded score on SA-Bench's levels (1.0, 0.75, 0.5, 0.25, 0.0); `None` when abstained (an abstention's lean carries the level it points to)."""
    confidence: float = Field(default=0.0, ge=0, le=1)
    """How sure the judge is, 0 to 1."""
    certain: bool = False
    """A deterministic, fully checked decision (e.g. a value found and compared); outranks LLM votes."""
    reason: str = ""
    """Why the judge decided this, in a sentence or two a person can check."""
    evidence: list[CodeSpan] = Field(default_factory=list)
    """Code lines that support the decision."""
    cost: Cost = Field(default_factory=Cost)
    """Tokens and dollars this verdict cost."""
    abstained: bool = False
    """True when the judge could not decide; the verdict then carries no vote."""
    error: str | None = None
    """Error that made the judge abstain, if any."""
    rule: str | None = None
    """The code of the rule that made this decision or lean (`NUM005`; `sa-align rules` lists them); `None` for a plain abstention."""
    lean: Label | None = None
    """For an abstention: the label the judge's weak evidence points to (a few stated values absent, claim words mostly absent, a check that covers only part of the claim). It never votes; the calibrated judge weighs it, and may label a unit it is sure is unfaithful by a failure lean."""


class Flag(_Model):
    """Something in the audited inputs a person should know about (e.g. text addressed to a judge)."""

    kind: str
    """Flag type, e.g. `injection`, `skipped-file`, `judge-error`."""
    message: str
    """What was found."""
    location: CodeSpan | None = None
    """Where, when it is in the repository."""
    unit_id: str | None = None
    """The unit concerned, when it concerns one."""


class Calibration(_Model):
    """What the calibrated judge (`sa_align.calibrate`) made of one unit's static evidence."""

    probability: float | None = None
    """Probability that SA-Bench's judge would score the unit >= 0.75; `None` when no model ran."""
    expected_score: float | None = None
    """Expected SA-Bench level under the model; `None` when no model ran."""
    in_band: bool = False
    """True when the probability falls inside the uncertainty band: the unit is left to review or an LLM judge."""
    llm_skipped: bool = False
    """True when LLM judges were configured but not called, because the probability lies outside the band."""
    applied: str = "none"
    """How the probability shaped the label: `aligned` (lifted), `evidence` (the judges' failure kept), `lean` (a judge's failure lean became the label), `band` (left undecided for review), `unread` (a lift held because its best candidate is configuration nothing reads), `certain` (a certain static finding kept), `abstain` (no failure evidence, so undecided), `llm` (LLM judges voted), or `none`."""
    features: dict[str, float] = Field(default_factory=dict)
    """The model's inputs, when `calibration.record_features` is on (absent features are left out)."""
    candidate_unread: str = ""
    """When the best candidate's line only declares settings no code reads: where, and their names (a lift resting on it is held, `CAL005`)."""


class EvidenceCode(_Model):
    """The code of one evidence span, copied when the unit was judged, so the report shows it on its own."""

    span: CodeSpan
    """The evidence span."""
    lines: list[str] = Field(default_factory=list)
    """Its first lines as the repository read (at most three)."""
    more_lines: int = 0
    """Lines of the span not copied."""
    unreadable: str | None = None
    """Why no line could be copied (the file is not in the index, or the span lies past its end); `None` when copied."""


class UnitResult(_Model):
    """The aggregated outcome for one unit."""

    unit: Unit
    """The unit judged."""
    label: Label
    """Final label after aggregation."""
    score: float | None = None
    """Final graded score on SA-Bench's levels; `None` when undecided."""
    confidence: float = 0.0
    """Confidence of the final label, 0 to 1."""
    decided_by: Literal["static", "llm", "none"] = "none"
    """Whether a static judge, the LLM ensemble, or nobody decided the label."""
    verdicts: list[Verdict] = Field(default_factory=list)
    """Every judge's verdict, abstentions included."""
    agreement: float | None = None
    """Share of voting judges that agree with the final label; `None` with fewer than one vote."""
    needs_review: bool = False
    """True when judges disagree or confidence is low: a person should look."""
    candidates: list[Candidate] = Field(default_factory=list)
    """The top retrieval candidates the judges saw."""
    evidence: list[CodeSpan] = Field(default_factory=list)
    """Code lines supporting the final label (from the winning verdicts)."""
    reason: str = ""
    """Summary reason for the final label."""
    error: str | None = None
    """Error that degraded this unit, if any."""
    calibration: Calibration | None = None
    """The calibrated judge's probability and how it shaped the label; `None` when calibration is off."""
    rule: str | None = None
    """The code of the rule that decided the label (`NUM005`, `CAL001`, `LLM001`), or that left the unit `undecided` (the calibrated judge's band, a preview rule's held finding); `None` when no judge decided anything."""
    held_label: Label | None = None
    """The failure label a preview rule found and held back (`rule` names it): the finding is evidence for review, not a label, unless the run was given `--preview`."""
    next_step: str = ""
    """For an undecided unit, what would decide it, in a sentence or two: `--judge MODEL` and the model calls that takes, the setting or name a static judge found nowhere, or why a person must look; empty for a decided unit."""
    next_step_calls: int | None = None
    """Model calls the next step takes for this unit (one per sample of each configured judge model, one per model sample when none is configured); `None` when no model call would decide it."""
    evidence_code: list[EvidenceCode] = Field(default_factory=list)
    """The code of the evidence spans no candidate's snippet holds (at most ten spans, three lines each), so every evidence line in a report shows its code."""
