"""Units and code spans: what the paper claims and where code lives."""

from __future__ import annotations

from typing import Literal, Union

from pydantic import Field, model_validator

from sa_align.models.base import SCHEMA_VERSION, Attribution, Label, UnitKind, _Model

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
    """How `value`/`values` are meant: one value, an ordered tuple (betas, milestones), the set of values a sweep tried (code holding the whole grid matches it; one fixed value of it decides nothing), or an inclusive range."""
    tolerance: float | None = None
    """Relative tolerance accepted when comparing with code; `None` uses the configured default."""
    unit: str | None = None
    """Unit of the value as stated (`epochs`, `steps`, `%`, `tokens`), when there is one."""
    text: str | None = None
    """The value exactly as written in the paper (e.g. `3 × 10^-4`)."""
    condition: str | None = None
    """Where the value applies when the paper gives several for one name: a table's column header (a training stage, a dataset, a model size)."""

    @model_validator(mode="after")
    def _has_value(self) -> "Param":
        if self.value is None and not self.values:
            raise ValueError(f"param {self.name!r} needs `value` or `values`")
        return self

    def numbers(self) -> list[float]:
        """The stated value, or values, that are numbers (not flags or names)."""
        stated = [self.value] if self.value is not None else self.values
        return [float(v) for v in stated if isinstance(v, (int, float)) and not isinstance(v, bool)]


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
    derived: list[str] = Field(default_factory=list)
    """Fields (`params`, `entities`, `order`, `hints`) that were filled from the claim's own text because the unit arrived without them (`sa_align.extract.derive`), or read from the paper's notation rather than from identifiers it writes (an extracted method unit's hints)."""
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
