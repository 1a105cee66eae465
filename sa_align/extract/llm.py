"""LLM specialists: one prompt per unit kind, run over chunks of the paper, grounded in its text.

Each specialist reads `prompts/extract_<kind>.md` and returns `ExtractedUnits`. Every
`quote` must occur in the paper (whitespace- and hyphenation-normalized); a reply with
missing quotes is re-asked through `validate`, and quotes still missing after the last
re-ask are dropped and counted. Names go through the alias tables so LLM and rule units
merge on the same canonical parameters and entities.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sa_align.aliases import canonical_entity, canonical_param
from sa_align.config import EvalConfig, ModelSpec
from sa_align.errors import BudgetExceeded, LLMError, LLMGiveUp
from sa_align.extract.merge import QuoteLocator
from sa_align.extract.text import skipped, split_sentences
from sa_align.llm.jsonparse import extract_json
from sa_align.models import Attribution, CharSpan, Paper, Param, Unit, UnitKind
from sa_align.numbers import parse_number
from sa_align.resources import prompt_text

log = logging.getLogger(__name__)

KINDS = (UnitKind.NUMERICAL, UnitKind.METHOD, UnitKind.PROTOCOL, UnitKind.ORDERING)
CHUNK_CHARS = 12_000
"""Paper text per request (about 3k tokens), cut at sentence boundaries."""


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore", use_attribute_docstrings=True)


class ExtractedParam(_Reply):
    """One parameter and the value the paper states for it."""

    name: str
    """Parameter name as a code identifier (`learning_rate`, `batch_size`, `beta1`)."""
    value: Union[float, int, str, None] = None
    """The value for a single setting, as a number when it is one (`0.0003`, `256`)."""
    values: list[Union[float, int, str]] = Field(default_factory=list)
    """The values for a list, a sweep or a range (leave `value` empty then)."""
    shape: Literal["scalar", "sequence", "set", "range"] = "scalar"
    """`scalar` one value; `sequence` ordered values (milestones, betas); `set` a sweep; `range` [low, high]."""
    unit: str | None = None
    """Unit as stated (`epochs`, `steps`, `%`), if any."""
    text: str | None = None
    """The value exactly as written in the paper (`3 × 10^-4`)."""


class ExtractedUnit(_Reply):
    """One atomic, checkable claim of the paper."""

    claim: str
    """The claim as one self-contained sentence."""
    quote: str
    """A verbatim, contiguous excerpt of the paper text that states the claim (copy it exactly)."""
    attribution: Literal["novel", "cited"] = "novel"
    """`novel` when the paper presents it as its own; `cited` when it comes from referenced work."""
    cited_ref: str | None = None
    """The citation marker's key for a cited claim (`12` for `[12]`, `smith2020`)."""
    params: list[ExtractedParam] = Field(default_factory=list)
    """Numerical claims: the parameters and their values."""
    entities: list[str] = Field(default_factory=list)
    """Protocol claims: datasets, splits, metrics, baselines by name."""
    order: list[str] = Field(default_factory=list)
    """Ordering claims (or method steps in a stated order): short step phrases, first to last."""
    hints: list[str] = Field(default_factory=list)
    """Identifiers likely in an implementation (`m_hat`, `clip_grad_norm_`, `warmup_steps`)."""


class ExtractedUnits(_Reply):
    """The claims of one kind found in the given text; an empty list when there are none."""

    units: list[ExtractedUnit] = Field(default_factory=list)
    """The claims, in text order."""


@dataclass
class LLMExtraction:
    units: list[Unit] = field(default_factory=list)
    dropped: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Chunk:
    start: int
    end: int
    section: str | None


def chunks(paper: Paper, kind: UnitKind, limit: int = CHUNK_CHARS) -> list[Chunk]:
    """Consecutive sentence runs of at most `limit` chars, never mixing sections, skipping ones not for `kind`."""
    out: list[Chunk] = []
    cur: Chunk | None = None
    for s in split_sentences(paper):
        if skipped(s.section, kind.value):
            continue
        if cur and cur.section == s.section and s.end - cur.start <= limit:
            cur = Chunk(cur.start, s.end, cur.section)
            continue
        if cur:
            out.append(cur)
        cur = Chunk(s.start, s.end, s.section)
    if cur:
        out.append(cur)
    return out


def _messages(paper: Paper, kind: UnitKind, chunk: Chunk) -> list[dict[str, str]]:
    body = paper.text[chunk.start : chunk.end]
    where = f"Section: {chunk.section}\n" if chunk.section else ""
    return [
        {"role": "system", "content": prompt_text(f"extract_{kind.value}.md")},
        {"role": "user", "content": f"Paper: {paper.title}\n{where}\n<paper_text>\n{body}\n</paper_text>"},
    ]


class _Grounder:
    """Locates quotes inside the chunk first, then anywhere in the paper."""

    def __init__(self, paper: Paper, chunk: Chunk, whole: QuoteLocator):
        self.offset = chunk.start
        self.local = QuoteLocator(paper.text[chunk.start : chunk.end])
        self.whole = whole

    def locate(self, quote: str) -> tuple[int, int] | None:
        hit = self.local.locate(quote)
        if hit:
            return hit[0] + self.offset, hit[1] + self.offset
        return self.whole.locate(quote)

    def check(self, reply: ExtractedUnits) -> None:
        missing = [u.quote for u in reply.units if self.locate(u.quote) is None]
        if missing:
            listed = "; ".join(repr(q[:120]) for q in missing[:5])
            raise ValueError(
                f"{len(missing)} quote(s) are not verbatim excerpts of the paper text: {listed}. "
                "Copy each quote exactly from the text between <paper_text> tags, or leave that unit out."
            )


def _param(p: ExtractedParam, context: str) -> Param | None:
    def num(v):
        if isinstance(v, str):
            got = parse_number(v)
            return v if got is None else (int(got) if got.is_integer() and "." not in v and "e" not in v.lower() else got)
        return v

    name = canonical_param(p.name, context) or p.name.strip().lower().replace(" ", "_")
    value, values = num(p.value), [num(v) for v in p.values]
    if value is None and not values:
        return None
    try:
        return Param(name=name, surface=p.name, value=value, values=values, shape=p.shape, unit=p.unit, text=p.text)
    except ValidationError:
        return None


def _entity(name: str) -> str:
    found = canonical_entity(name)
    return found[1] if found else name.strip()


def to_units(reply: ExtractedUnits, kind: UnitKind, paper: Paper, grounder: _Grounder, model: str) -> tuple[list[Unit], int]:
    """Grounded units of one reply and the number dropped for quotes not in the paper."""
    units: list[Unit] = []
    dropped = 0
    for e in reply.units:
        hit = grounder.locate(e.quote)
        if hit is None:
            dropped += 1
            continue
        start, end = hit
        quote = paper.text[start:end]
        params = [p for p in (_param(x, quote) for x in e.params) if p]
        if kind == UnitKind.NUMERICAL and not params:
            dropped += 1
            continue
        sec = paper.section_at(start)
        base = dict(
            claim=e.claim.strip() or quote, quote=quote, span=CharSpan(start=start, end=end),
            section=sec.title if sec else None, cited_ref=e.cited_ref if e.attribution == "cited" else None,
            attribution=Attribution(e.attribution), hints=list(dict.fromkeys(e.hints))[:16], origin=f"llm:{model}",
        )  # fmt: skip
        order = [s.strip() for s in e.order if s.strip()]
        if kind == UnitKind.ORDERING and len(order) < 2:
            dropped += 1
            continue
        units.append(Unit(id="", kind=kind, params=params, entities=[_entity(x) for x in e.entities],
                          order=order if kind == UnitKind.ORDERING else [], **base))  # fmt: skip
        if kind == UnitKind.METHOD and len(order) >= 2:
            units.append(Unit(id="", kind=UnitKind.ORDERING, order=order, **{**base, "claim": "In order: " + " → ".join(order) + "."}))
    return units, dropped


async def _one(client, spec: ModelSpec, paper: Paper, kind: UnitKind, chunk: Chunk, whole: QuoteLocator) -> LLMExtraction:
    grounder = _Grounder(paper, chunk, whole)
    try:
        result = await client.structured(_messages(paper, kind, chunk), ExtractedUnits, spec, validate=grounder.check)
        reply = result.value
    except LLMGiveUp as exc:
        reply = _salvage(exc)
        if reply is None:
            return LLMExtraction(notes=[f"{spec.model} {kind.value} extractor gave up on {chunk.section or 'text'}: {exc}"])
    units, dropped = to_units(reply, kind, paper, grounder, spec.model)
    return LLMExtraction(units, dropped)


def _salvage(exc: LLMGiveUp) -> ExtractedUnits | None:
    """The last reply, when it parsed and only its grounding failed: its grounded units are kept."""
    try:
        return ExtractedUnits.model_validate(extract_json(exc.last_raw or ""))
    except (ValueError, ValidationError):
        return None


async def llm_units(paper: Paper, config: EvalConfig, client) -> LLMExtraction:
    """Run every configured extractor model over every kind and chunk; failures become notes."""
    whole = QuoteLocator(paper.text)
    jobs = [
        _one(client, spec, paper, kind, chunk, whole)
        for spec in config.extractors
        for kind in KINDS
        for chunk in chunks(paper, kind)
    ]
    total = LLMExtraction()
    budget_noted = False
    for res in await asyncio.gather(*jobs, return_exceptions=True):
        if isinstance(res, BudgetExceeded):
            if not budget_noted:
                total.notes.append(f"LLM extraction stopped early: {res}")
                budget_noted = True
        elif isinstance(res, LLMError):
            total.notes.append(f"LLM extraction failed for one chunk: {res}")
        elif isinstance(res, BaseException):
            if not isinstance(res, Exception):
                raise res
            log.exception("LLM extraction chunk failed", exc_info=res)
            total.notes.append(f"LLM extraction failed for one chunk: {type(res).__name__}: {res}")
        else:
            total.units.extend(res.units)
            total.dropped += res.dropped
            total.notes.extend(res.notes)
    if total.dropped:
        total.notes.append(f"{total.dropped} LLM-proposed unit(s) dropped: quote not found in the paper")
    return total
