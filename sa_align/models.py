"""The pydantic contracts that flow through the pipeline.

paper -> units -> index -> candidates -> verdicts -> results -> report.
Every field carries a docstring so the JSON Schema exported from these models
documents the report format and the units file for the people who read them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

SCHEMA_VERSION = "1.0"
"""Version of the DriftReport and units-file formats; bump on any breaking change."""

SA_BENCH_LEVELS: tuple[float, ...] = (1.0, 0.75, 0.5, 0.25, 0.0)
"""SA-Bench's five graded levels: faithful, minor deviation, key omission, core substitution, absent."""


class Label(StrEnum):
    """The verdict on one unit."""

    ALIGNED = "aligned"
    MISMATCHED = "mismatched"
    STUBBED = "stubbed"
    MISATTRIBUTED = "misattributed"
    MISSING = "missing"
    UNDECIDED = "undecided"


class UnitKind(StrEnum):
    """SA-Bench's four dimensions of a checkable claim."""

    NUMERICAL = "numerical"
    METHOD = "method"
    PROTOCOL = "protocol"
    ORDERING = "ordering"


class Attribution(StrEnum):
    """Whether a claim is the paper's own contribution or inherited from cited work."""

    NOVEL = "novel"
    CITED = "cited"


LABEL_SCORES: dict[Label, float] = {
    Label.ALIGNED: 1.0,
    Label.MISMATCHED: 0.25,
    Label.STUBBED: 0.0,
    Label.MISATTRIBUTED: 0.25,
    Label.MISSING: 0.0,
}
"""Default SA-Bench level for a label when a judge gives no graded score of its own."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


# --------------------------------------------------------------------------- paper


class Section(_Model):
    """A heading of the paper and the text it governs."""

    title: str
    """Heading text without markup."""
    level: int = 1
    """Nesting depth: 1 for a section, 2 for a subsection, and so on."""
    start: int
    """Char offset in `Paper.text` where the section (its heading) begins."""
    end: int
    """Char offset in `Paper.text` where the section ends (exclusive)."""


class Citation(_Model):
    """A citation marker found in the paper text."""

    key: str
    """Reference key: `12` for `[12]`, `smith2020` for `\\cite{smith2020}`, `Smith et al., 2020` for author-year."""
    start: int
    """Char offset in `Paper.text` where the marker begins."""
    end: int
    """Char offset in `Paper.text` where the marker ends (exclusive)."""
    text: str
    """The marker exactly as it appears in the text."""


PaperFormat = Literal["markdown", "text", "latex", "pdf"]


class Paper(_Model):
    """A loaded paper: its normalized full text with sections and citations located in it."""

    title: str
    """Title from the first heading, `\\title{}`, or PDF metadata; the file stem otherwise."""
    source: str | None = None
    """Path the paper was loaded from, if any."""
    format: PaperFormat = "text"
    """Which loader produced the text."""
    text: str
    """The full text every char offset in this model and in `Unit.span` refers to."""
    sections: list[Section] = Field(default_factory=list)
    """Headings in document order, with char offsets into `text`."""
    citations: list[Citation] = Field(default_factory=list)
    """Citation markers in document order, with char offsets into `text`."""
    encoding: str = "utf-8"
    """Encoding the file was decoded with (a fallback is recorded in `warnings`)."""
    sha256: str = ""
    """SHA-256 of the raw bytes of the source file (or of `text` when built in memory)."""
    warnings: list[str] = Field(default_factory=list)
    """Non-fatal problems met while loading (fallback encoding, skipped `\\input`, empty pages)."""

    def section_at(self, offset: int) -> Section | None:
        """Innermost section whose range contains `offset`."""
        best: Section | None = None
        for sec in self.sections:
            if sec.start <= offset < sec.end and (best is None or sec.level >= best.level):
                best = sec
        return best


# --------------------------------------------------------------------------- units

Scalar = Union[bool, int, float, str]


class Param(_Model):
    """One parameter a numerical unit pins down."""

    name: str
    """Canonical parameter name after alias normalization (e.g. `learning_rate`)."""
    surface: str | None = None
    """The name as the paper wrote it (e.g. `η`, `lr`, `step size`)."""
    value: Scalar | None = None
    """The stated value for a scalar claim."""
    values: list[Scalar] = Field(default_factory=list)
    """The stated values for a sequence, set or range claim (a range is `[low, high]`)."""
    shape: Literal["scalar", "sequence", "set", "range"] = "scalar"
    """How `value`/`values` are meant: one value, an ordered tuple (betas, milestones), any of a set (a sweep), or an inclusive range."""
    tolerance: float | None = None
    """Relative tolerance accepted when comparing with code; `None` uses the configured default."""
    unit: str | None = None
    """Unit of the value as stated (`epochs`, `steps`, `%`, `tokens`), when there is one."""
    text: str | None = None
    """The value exactly as written in the paper (e.g. `3 × 10^-4`)."""

    @model_validator(mode="after")
    def _has_value(self) -> "Param":
        if self.value is None and not self.values:
            raise ValueError(f"param {self.name!r} needs `value` or `values`")
        return self


class CharSpan(_Model):
    """A half-open range of char offsets into `Paper.text`."""

    start: int = Field(ge=0)
    """First char of the range."""
    end: int = Field(ge=0)
    """One past the last char of the range."""

    @model_validator(mode="after")
    def _ordered(self) -> "CharSpan":
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before start {self.start}")
        return self


class CodeSpan(_Model):
    """A range of lines in the audited repository."""

    path: str
    """Path relative to the repository root, with `/` separators."""
    start_line: int = Field(ge=1)
    """First line, 1-based."""
    end_line: int = Field(ge=1)
    """Last line, 1-based and inclusive."""
    symbol: str | None = None
    """Qualified name of the enclosing function or class, if any."""

    def overlaps(self, other: "CodeSpan") -> bool:
        """True when both spans are in the same file and share at least one line."""
        return (
            self.path == other.path
            and self.start_line <= other.end_line
            and other.start_line <= self.end_line
        )

    def __str__(self) -> str:
        if self.start_line == self.end_line:
            return f"{self.path}:{self.start_line}"
        return f"{self.path}:{self.start_line}-{self.end_line}"


class Gold(_Model):
    """Benchmark annotation of a unit; never read by evaluation, only by `sa_align.bench`."""

    label: Label
    """The correct label for this unit in this repository."""
    spans: list[CodeSpan] = Field(default_factory=list)
    """Where the implementation (or its drift) lives; empty for `missing`."""
    note: str | None = None
    """Why this label is correct (e.g. which mutation produced it)."""


class Unit(_Model):
    """A semantic alignment unit: one atomic, checkable claim of the paper."""

    id: str
    """Stable identifier, unique within a units file (e.g. `num-003`)."""
    kind: UnitKind
    """Which of SA-Bench's four dimensions the claim belongs to."""
    claim: str
    """The claim as one normalized, self-contained sentence."""
    quote: str = ""
    """Verbatim text of the paper that states the claim."""
    span: CharSpan | None = None
    """Where `quote` occurs in `Paper.text`; `None` when the unit came from a file without offsets."""
    section: str | None = None
    """Title of the paper section the quote is in."""
    attribution: Attribution = Attribution.NOVEL
    """`novel` for the paper's own contribution, `cited` for what it inherits from referenced work."""
    cited_ref: str | None = None
    """Reference key of the cited work, when `attribution` is `cited` and the key is known."""
    params: list[Param] = Field(default_factory=list)
    """For numerical units: the parameters and their stated values."""
    entities: list[str] = Field(default_factory=list)
    """For protocol units: dataset, split, metric, baseline or other names the claim requires."""
    order: list[str] = Field(default_factory=list)
    """For ordering units: the steps, first to last, each a short phrase."""
    hints: list[str] = Field(default_factory=list)
    """Identifiers and keywords likely to appear in an implementation (helps retrieval)."""
    weight: float = Field(default=1.0, ge=0)
    """Relative importance when averaging scores over units."""
    origin: str = "rules"
    """Who produced the unit: `rules`, `llm:<model>`, `file`, `sa-bench`, `paperbench`."""
    gold: Gold | None = None
    """Benchmark annotation; ignored by evaluation."""

    @model_validator(mode="after")
    def _kind_fields(self) -> "Unit":
        if self.kind == UnitKind.ORDERING and self.order and len(self.order) < 2:
            raise ValueError("an ordering unit needs at least two steps in `order`")
        return self


class UnitsFile(_Model):
    """The on-disk units format (YAML or JSON) that `sa-align extract` writes and `--units` reads."""

    schema_version: str = SCHEMA_VERSION
    """Format version of this file."""
    paper: str | None = None
    """Path or title of the paper the units were extracted from."""
    units: list[Unit] = Field(default_factory=list)
    """The units, in paper order."""


# --------------------------------------------------------------------------- retrieval and judging


class Candidate(_Model):
    """A place in the repository that may implement a unit."""

    span: CodeSpan
    """Where the candidate code is."""
    score: float
    """Fused retrieval score; higher is more likely."""
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
    """Graded score on SA-Bench's levels (1.0, 0.75, 0.5, 0.25, 0.0); `None` when abstained."""
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


# --------------------------------------------------------------------------- report


class PaperIdentity(_Model):
    """Which paper a report is about."""

    title: str
    """Paper title."""
    path: str | None = None
    """Path it was loaded from."""
    format: str | None = None
    """Loader used."""
    sha256: str = ""
    """SHA-256 of the paper file."""


class RepoIdentity(_Model):
    """Which repository state a report is about."""

    path: str
    """Repository root as given."""
    git_commit: str | None = None
    """`HEAD` commit when the repository is a git checkout (read from `.git`, never by running git)."""
    content_hash: str = ""
    """SHA-256 over the indexed files' paths and content hashes."""
    files_indexed: int = 0
    """Files that were parsed or read as text."""
    files_skipped: int = 0
    """Files skipped (binary, too large, ignored, outside the root)."""


class Summary(_Model):
    """Counts and averages over all unit results."""

    n_units: int = 0
    """Units judged."""
    counts: dict[str, int] = Field(default_factory=dict)
    """Units per final label."""
    by_kind: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Units per kind, then per final label."""
    mean_score: float | None = None
    """Weighted mean SA-Bench score over decided units; `None` when nothing was decided."""
    decided: int = 0
    """Units with a final label other than `undecided`."""
    decided_without_llm: float | None = None
    """Share of all units decided by static judges alone."""
    needs_review: int = 0
    """Units flagged for a person to look at."""
    judge_errors: int = 0
    """Units on which at least one judge failed (their `UnitResult.error` says which); the other judges still voted."""
    fleiss_kappa: float | None = None
    """Fleiss' kappa across judges that voted on the same units; `None` with fewer than two judges."""
    undecided_ids: list[str] = Field(default_factory=list)
    """Ids of units no judge could decide."""


class RetrievalInfo(_Model):
    """Which retrieval signals actually ran (the config says only what was asked: `embeddings: null` is "when installed")."""

    signals: list[str] = Field(default_factory=list)
    """Signals that ranked candidates, in fusion order: `bm25`, `param`, `embedding`, `name`, `signature`, `graph` (`graph` for non-numerical units only)."""
    embeddings: bool = False
    """True when the embedding signal ran: the model loaded and encoded the repository."""
    embedding_model: str | None = None
    """The embedding model that ran (`packaged-minilm` for the packaged all-MiniLM-L6-v2); `None` when none did."""
    notes: list[str] = Field(default_factory=list)
    """Why a signal did not run or was dropped: switched off, not installed, failed to load or to encode."""


class DriftReport(_Model):
    """Everything `sa_align` found about one paper and one repository."""

    schema_version: str = SCHEMA_VERSION
    """Version of this report format."""
    sa_align_version: str = ""
    """Version of `sa_align` that produced the report."""
    created_at: str = ""
    """UTC time the report was produced, ISO 8601."""
    paper: PaperIdentity
    """The paper audited."""
    repo: RepoIdentity
    """The repository audited."""
    config: dict[str, Any] = Field(default_factory=dict)
    """The evaluation configuration (secrets removed)."""
    retrieval: RetrievalInfo = Field(default_factory=RetrievalInfo)
    """Which retrieval signals ran, which the config alone does not tell."""
    results: list[UnitResult] = Field(default_factory=list)
    """One result per unit, in unit order."""
    summary: Summary = Field(default_factory=Summary)
    """Counts and averages over `results`."""
    cost: Cost = Field(default_factory=Cost)
    """Total LLM cost of the run."""
    timing: dict[str, float] = Field(default_factory=dict)
    """Seconds per pipeline stage, plus `total`."""
    flags: list[Flag] = Field(default_factory=list)
    """Things a person should know: injection text, skipped files, judge errors."""
    errors: list[str] = Field(default_factory=list)
    """Errors that degraded parts of the run without stopping it."""


def units_file_schema() -> dict[str, Any]:
    """JSON Schema of the units file."""
    return UnitsFile.model_json_schema()


def report_schema() -> dict[str, Any]:
    """JSON Schema of `report.json`."""
    return DriftReport.model_json_schema()


def write_schemas(folder: str) -> None:
    """Regenerate the shipped schemas: `python -m sa_align.models units/schema`."""
    import json
    from pathlib import Path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name, schema in (("report", report_schema()), ("units", units_file_schema())):
        (out / f"{name}.schema.json").write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys

    write_schemas(sys.argv[1] if len(sys.argv) > 1 else "units/schema")
