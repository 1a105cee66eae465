"""Agreement with SA-Bench's judge on its published agent runs.

    from sa_align.bench.sabench import run_sabench
    result = run_sabench("/path/to/SA-Bench", EvalConfig(), out=Path("sabench-out"))
    print(result.markdown())

The dataset is a checkout of SA-Bench or a git directory of it (read at its
commit without a work tree). By default only the development split of
`units/bench/sabench.yaml` runs; other papers run only when named. Each run is
evaluated with SA-Bench's claims as units (`dataset.claim_units`), and our
decision is compared with the reference judge's level (`metrics`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.sabench.dataset import RunRef, claim_units, read_scores, tables
from sa_align.bench.sabench.metrics import SABenchMetrics, metrics_by_model, run_coverage, run_score, sabench_metrics
from sa_align.bench.sabench.render import section, spread_lines
from sa_align.bench.sabench.runner import ClaimOutcome, RunRecord, run_all
from sa_align.bench.sabench.source import open_source
from sa_align.bench.sabench.spread import Spread, spreads
from sa_align.calibrate.model import load_model
from sa_align.config import EvalConfig
from sa_align.errors import CalibrationError

__all__ = [
    "ClaimOutcome",
    "RunRecord",
    "RunRef",
    "SABenchResult",
    "claim_units",
    "open_source",
    "read_scores",
    "run_sabench",
]


class RunSummary(BaseModel):
    """One run in the result: enough to compare run scores, not the per-claim dump."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    id: str
    """`<setup>/<paper>`."""
    model: str | None = None
    """Reference judge model."""
    reference_score: float | None = None
    """SA-Bench's `overall_score`."""
    our_score: float | None = None
    """Our run score over decided claims."""
    coverage: float | None = None
    """Share of the run's claims we decided."""
    python_lines: int = 0
    """Python lines in the repository."""
    seconds: float = 0.0
    """Our evaluation time."""
    skipped: str | None = None
    """Why the run was skipped."""


class SABenchResult(BaseModel):
    """The comparison over all selected runs."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    dataset: str
    """Where SA-Bench was read from."""
    commit: str
    """SA-Bench commit of the split."""
    license: str
    """Licences of SA-Bench's data."""
    papers: list[str] = Field(default_factory=list)
    """Papers run."""
    setups: list[str] = Field(default_factory=list)
    """Setups run."""
    metrics: SABenchMetrics = Field(default_factory=SABenchMetrics)
    """Every figure over all runs."""
    by_model: dict[str, SABenchMetrics] = Field(default_factory=dict)
    """Every figure per reference judge model."""
    spread: list[Spread] = Field(default_factory=list)
    """How far the headline figures move when other papers are drawn (`spread`)."""
    runs: list[RunSummary] = Field(default_factory=list)
    """Per run."""
    in_sample: list[str] = Field(default_factory=list)
    """Papers run whose claims trained the calibrated model in use: their figures are in-sample (use `--train` for cross-validated ones, or `--no-calibration`)."""

    def markdown(self) -> str:
        skipped = [r for r in self.runs if r.skipped]
        lines = [
            "# Agreement with SA-Bench's judge",
            "",
            f"SA-Bench {self.commit} ({self.license}); {len(self.runs)} runs of {len(self.papers)} papers "
            f"x {len(self.setups)} setups; {len(skipped)} skipped.",
            "Binary decisions: reference >= 0.75 against our `aligned` (kappa (label)) and our score >= 0.75 "
            "(kappa (score)), over decided claims only.",
            "",
            *self._in_sample_note(),
            *section("All runs", self.metrics),
            *spread_lines(self.spread),
        ]
        for model, m in self.by_model.items():
            lines += section(f"Runs judged by {model}", m)
        if skipped:
            lines += ["## Skipped runs", ""] + [f"- `{r.id}`: {r.skipped}" for r in skipped] + [""]
        return "\n".join(lines)

    def _in_sample_note(self) -> list[str]:
        if not self.in_sample:
            return []
        return [f"> **In-sample:** the calibrated model in use was trained on {len(self.in_sample)} of these papers "
                "({}). Use `--train` for cross-validated figures, or `--no-calibration`.".format(", ".join(self.in_sample)), ""]

    def tables(self) -> list[Any]:
        from rich.markdown import Markdown

        return [Markdown(self.markdown())]


def run_sabench(dataset: str | Path, config: EvalConfig | None = None, *, out: Path | None = None,
                papers: list[str] | None = None, setups: list[str] | None = None, workers: int = 1,
                progress: Callable[[int, int], None] | None = None) -> SABenchResult:
    """Evaluate the selected SA-Bench runs and compare with the reference judge."""
    config = config or EvalConfig()
    records = run_all(dataset, config, out, papers=papers, setups=setups, workers=workers, progress=progress)
    result = SABenchResult(
        dataset=str(dataset), commit=tables().commit, license=tables().license,
        papers=sorted({r.paper for r in records}), setups=sorted({r.setup for r in records}),
        metrics=sabench_metrics(records), by_model=metrics_by_model(records), spread=spreads(records),
        runs=[_summary(r) for r in records], in_sample=_in_sample(config, {r.paper for r in records}),
    )
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "sabench.json").write_text(json.dumps(result.model_dump(mode="json"), indent=1), encoding="utf-8")
        (out / "sabench.md").write_text(result.markdown(), encoding="utf-8")
    return result


def _in_sample(config: EvalConfig, papers: set[str]) -> list[str]:
    if not config.calibration.enabled:
        return []
    try:
        trained = set(load_model(config.calibration.model).provenance.papers)
    except CalibrationError:
        return []
    return sorted(papers & trained)


def _summary(record: RunRecord) -> RunSummary:
    return RunSummary(
        id=record.id, model=record.model, reference_score=record.reference_score,
        our_score=None if record.skipped else _round(run_score(record.outcomes)),
        coverage=round(run_coverage(record), 4) if record.outcomes else None,
        python_lines=record.python_lines, seconds=record.seconds, skipped=record.skipped,
    )


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)
