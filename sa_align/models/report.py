"""The drift report: identity of paper and repository, summary, results; its JSON Schemas."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from sa_align.models.base import SCHEMA_VERSION, _Model
from sa_align.models.results import Cost, Flag, UnitResult
from sa_align.models.units import UnitsFile

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
    expected_score: float | None = None
    """Weighted mean of the calibrated judge's expected SA-Bench level over every unit, undecided ones included: a run score for ranking many repositories; `None` without calibration."""
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
    decidable_by_llm: int = 0
    """Undecided units whose next step is a model call (`UnitResult.next_step_calls`): what `--judge MODEL` would decide, or a rerun of the configured judges would retry."""
    llm_calls_to_decide: int = 0
    """Model calls those units take together."""
    has_code: bool = True
    """False when the repository held no code or configuration file: its units are `missing` because nothing could be searched."""


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


class CalibrationInfo(_Model):
    """Which calibrated model shaped the labels, or why none did."""

    model: str | None = None
    """File name of the model that ran; `None` when none did."""
    feature_version: str | None = None
    """The model's feature-set version."""
    trained_on: str | None = None
    """What the model was trained on (dataset, commit, papers), from the model file."""
    band: list[float] = Field(default_factory=list)
    """The uncertainty band `[low, high]` of the probability; inside it a unit is left for review."""
    uncalibrated: str | None = None
    """Why the uncalibrated aggregate decided instead (a missing, corrupt or stale model the config allowed), or `None`."""
    llm_units_skipped: int = 0
    """Units outside the band whose LLM judges were not called."""
    llm_calls_saved: int = 0
    """LLM judge calls not made for those units (one per configured sample)."""


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
    calibration: CalibrationInfo = Field(default_factory=CalibrationInfo)
    """The calibrated judge that shaped the labels, and the LLM calls it saved."""
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

