"""Evaluation configuration: which judges and models, retrieval depth, caches, budgets."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


def default_cache_dir() -> Path:
    """`$SA_ALIGN_CACHE_DIR`, else `$XDG_CACHE_HOME/sa_align`, else `~/.cache/sa_align`."""
    if env := os.environ.get("SA_ALIGN_CACHE_DIR"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sa_align"


class _Config(BaseModel):
    # Validators are built on first use, not at import: a warm `sa-align index` reads only defaults.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, defer_build=True)


class ModelSpec(_Config):
    """One LLM used as a judge or extractor."""

    model: str
    """Any litellm model string: `openai/gpt-4o-mini`, `anthropic/claude-...`, `ollama/llama3.1`, `hosted_vllm/...`."""
    samples: int = Field(default=1, ge=1)
    """Independent samples drawn from this model; each is one ensemble vote."""
    temperature: float | None = None
    """Sampling temperature; `None` uses 0 for one sample and 0.7 for several."""
    api_base: str | None = None
    """Base URL for local or self-hosted servers (Ollama, vLLM, any OpenAI-compatible endpoint)."""
    api_key_env: str | None = None
    """Name of the environment variable holding the API key, when not the provider's default."""
    weight: float = Field(default=1.0, gt=0)
    """Vote weight in the ensemble."""
    max_concurrency: int | None = Field(default=None, ge=1)
    """Requests in flight for this model; `None` uses `EvalConfig.concurrency`."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """Further keyword arguments passed to litellm (e.g. `{"max_tokens": 800}`)."""

    @classmethod
    def parse(cls, text: str) -> "ModelSpec":
        """Parse CLI shorthand `MODEL[@API_BASE][*SAMPLES]`, e.g. `ollama/llama3.1@http://localhost:11434*3`."""
        samples = 1
        if "*" in text:
            text, _, n = text.rpartition("*")
            samples = int(n)
        model, _, base = text.partition("@")
        return cls(model=model, api_base=base or None, samples=samples)


class IndexConfig(_Config):
    """Limits and choices of the code indexer."""

    max_file_bytes: int = Field(default=2_000_000, ge=1)
    """Files larger than this are skipped and recorded."""
    max_files: int = Field(default=50_000, ge=1)
    """Stop walking after this many files (the rest are recorded as skipped)."""
    respect_gitignore: bool = True
    """Skip files matched by `.gitignore` files in the repository."""
    use_cache: bool = True
    """Reuse per-file facts cached by content hash."""
    exclude: list[str] = Field(default_factory=list)
    """Extra gitignore-style patterns to skip."""
    workers: int | None = Field(default=None, ge=1)
    """Processes that parse files on a cold build; `None` uses the available cores (at most 4), 1 parses in-process."""


class CalibrationConfig(_Config):
    """The calibrated judge: a model learned on SA-Bench's judged claims that weighs the static judges' evidence."""

    enabled: bool = True
    """Let the model's probability shape the labels; `False` keeps the uncalibrated aggregate."""
    model: Path | None = None
    """A model file to use instead of the shipped one (`units/calibration/sabench.json`)."""
    band: tuple[float, float] = (0.2, 0.35)
    """The uncertainty band `(low, high)`: a probability inside it leaves the unit `undecided` for review (and is where LLM judges run); at or above `high` the unit may be lifted to `aligned`."""
    strong_failure: float = Field(default=0.7, ge=0, le=1)
    """A failure vote at least this confident stands below the band's top, inside the band too (flagged for review): strong evidence, such as an identifier the unit names being absent, is not left to the model."""
    standing_judges: list[str] = Field(default_factory=lambda: ["numeric"])
    """Judges whose failure votes stand below the band's top whatever their confidence: the numeric judge compares a stated value with the value the code sets, a finding the model should not send back to review."""
    allow_uncalibrated: bool = False
    """With a missing, corrupt or stale model, fall back to the uncalibrated aggregate (flagged in the report) instead of failing."""
    record_features: bool = False
    """Keep each unit's feature values in its result (for training and inspection)."""

    @field_validator("band")
    @classmethod
    def _ordered(cls, v: tuple[float, float]) -> tuple[float, float]:
        if not 0.0 <= v[0] <= v[1] <= 1.0:
            raise ValueError(f"band must satisfy 0 <= low <= high <= 1, got {v}")
        return v


class RulesConfig(_Config):
    """Which rules may decide a label (`sa-align rules` lists the codes), as ruff selects its rules."""

    select: list[str] | None = None
    """Codes or code prefixes that may decide (`NUM`, `STB00`, `CAL001`, `ALL`); `None` selects every rule."""
    ignore: list[str] = Field(default_factory=list)
    """Codes or prefixes switched off, after `select`: their verdicts become abstentions, their steps are not taken."""
    preview: bool = False
    """Let preview rules (precision below the stable bar, or too few hand-judged decisions) set failure labels;
    off, their findings are held back as evidence for review (`UnitResult.held_label`)."""


class EvalConfig(_Config):
    """Everything that shapes one evaluation; stored (without secrets) in the report."""

    judges: list[ModelSpec] = Field(default_factory=list)
    """LLM judges; empty means a fully offline run with static judges only."""
    extractors: list[ModelSpec] = Field(default_factory=list)
    """LLMs that extract units from the paper; empty means the offline rule extractor only."""
    max_units: int | None = Field(default=80, ge=1)
    """Most units kept from one paper, chosen by how checkable and central they are (`sa_align.extract.budget`); `None` keeps every unit. What was cut is reported in the run's notes."""
    static_judges: list[str] | None = None
    """Names of static judges to run; `None` runs all of them."""
    top_k: int = Field(default=8, ge=1)
    """Candidates kept per unit."""
    judge_prompt_tokens: int = Field(default=3000, ge=1500)
    """Prompt-token budget per unit and model for an LLM judge, counted on the request as sent (instructions, rubric, reply schema, unit and code). The fixed part alone takes about 1,300-1,500 tokens, hence the minimum; candidate code gets the rest, and a unit that does not fit without code is not sent (the judge abstains with `prompt over budget`)."""
    numeric_rel_tol: float = Field(default=1e-6, ge=0)
    """Default relative tolerance for numeric comparison when a unit gives none."""
    embeddings: bool | None = None
    """Use sentence-transformers retrieval: `True` requires it, `False` disables, `None` uses it when installed."""
    embedding_model: str | None = None
    """Path or name of the embedding model; `None` uses the packaged all-MiniLM-L6-v2."""
    cache_dir: Path = Field(default_factory=default_cache_dir)
    """Directory for the LLM response cache, index cache and embedding cache."""
    use_cache: bool = True
    """Read and write the caches."""
    concurrency: int = Field(default=4, ge=1)
    """Default requests in flight per model."""
    timeout_s: float = Field(default=120.0, gt=0)
    """Timeout of one provider request."""
    max_retries: int = Field(default=4, ge=0)
    """Retries after rate limits, server errors and timeouts."""
    retry_backoff_s: float = Field(default=1.0, ge=0)
    """First retry delay after a server error or timeout; doubles each retry (with jitter), capped at 60 s."""
    max_reasks: int = Field(default=2, ge=0)
    """Re-asks after an invalid or ungrounded structured reply."""
    budget_usd: float | None = Field(default=None, gt=0)
    """Stop starting new LLM calls once this many dollars are spent."""
    budget_tokens: int | None = Field(default=None, gt=0)
    """Stop starting new LLM calls once this many tokens are spent."""
    review_confidence: float = Field(default=0.6, ge=0, le=1)
    """Units whose final confidence is below this are marked `needs_review`."""
    review_agreement: float = Field(default=0.67, ge=0, le=1)
    """Units whose judge agreement is below this are marked `needs_review`."""
    index: IndexConfig = Field(default_factory=IndexConfig)
    """Indexer limits."""
    calibration: CalibrationConfig = Field(default_factory=CalibrationConfig)
    """The calibrated judge (on by default)."""
    rules: RulesConfig = Field(default_factory=RulesConfig)
    """Which rules may decide, and whether preview rules may set failure labels."""

    @field_validator("judges", "extractors", mode="before")
    @classmethod
    def _coerce_models(cls, v: Any) -> Any:
        if isinstance(v, (list, tuple)):
            return [ModelSpec.parse(x) if isinstance(x, str) else x for x in v]
        return v

    @property
    def offline(self) -> bool:
        """True when no model is configured and nothing may touch the network."""
        return not self.judges and not self.extractors

    @property
    def index_cache_dir(self) -> Path | None:
        """Where the index cache lives, or `None` when caching is off."""
        return self.cache_dir if self.use_cache and self.index.use_cache else None

    def public_dict(self) -> dict[str, Any]:
        """The config as JSON data, for the report (no secrets are ever stored in it)."""
        return self.model_dump(mode="json")
