"""Run `sa_align` over a labelled dataset (clean cases plus generated variants) and score it against gold.

Gold never reaches the evaluator: units are passed with `gold` stripped.
A case or variant whose evaluation raises is recorded in `BenchResult.errors`
and its units count as `undecided`, so a crash lowers the scores instead of
vanishing from them.
"""

from __future__ import annotations

import json
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.dataset import Case, MutationInfo, load_dataset, strip_gold
from sa_align.bench.metrics import Metrics, Outcome, compute_metrics
from sa_align.bench.mutate import Skipped, Variant, generate_variants, pick, write_variant
from sa_align.config import EvalConfig
from sa_align.models import DriftReport, Label, Unit
from sa_align.pipeline import evaluate

Evaluator = Callable[..., DriftReport]
"""`evaluate(paper, repo, *, units, config) -> DriftReport`; `sa_align.pipeline.evaluate` by default."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class RunRecord(_Model):
    """One evaluation: a clean case or a variant."""

    id: str
    """Case id, or variant id."""
    case_id: str
    """The clean case."""
    mutation: MutationInfo | None = None
    """The mutation, for variants."""
    seconds: float = 0.0
    """Wall time of the evaluation."""
    correct: int = 0
    """Units whose predicted label equals gold."""
    units: int = 0
    """Units scored."""
    error: str | None = None
    """Why the evaluation failed, if it did."""


class BenchResult(_Model):
    """Everything one benchmark run measured."""

    dataset: str
    """Dataset path."""
    seed: int
    """Seed of the mutation generator."""
    variants_requested: int | None
    """Variants asked for (`None`: all that apply)."""
    config: dict[str, Any] = Field(default_factory=dict)
    """The evaluation config (no secrets)."""
    cases: list[str] = Field(default_factory=list)
    """Clean case ids."""
    runs: list[RunRecord] = Field(default_factory=list)
    """One record per evaluation."""
    metrics: Metrics = Field(default_factory=Metrics)
    """Over every unit of every run."""
    clean_metrics: Metrics = Field(default_factory=Metrics)
    """Over the clean cases only (all gold `aligned`)."""
    target_metrics: Metrics = Field(default_factory=Metrics)
    """Over the mutated target units of the variants only."""
    outcomes: list[Outcome] = Field(default_factory=list)
    """Per-unit gold and prediction."""
    skipped: list[Skipped] = Field(default_factory=list)
    """Mutations that did not apply."""
    errors: list[str] = Field(default_factory=list)
    """Evaluations that failed."""
    created_at: str = ""
    """UTC time of the run."""
    seconds: float = 0.0
    """Total wall time."""

    def write(self, path: str | Path, *, full: bool = False) -> Path:
        """The result as JSON: a summary of a few KB (metrics, no per-unit or per-run lists) unless `full`."""
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        data = self.model_dump(mode="json") if full else self.model_dump(mode="json", exclude={"outcomes", "runs", "skipped"})
        if not full:
            data["counts"] = {"runs": len(self.runs), "units": len(self.outcomes), "skipped_mutations": len(self.skipped)}
        out.write_text(json.dumps(data, indent=1), encoding="utf-8")
        return out


def _default_evaluator() -> Evaluator:
    return evaluate


def outcomes_for(run_id: str, case_id: str, units: list[Unit], report: DriftReport | None, mutated: str | None) -> list[Outcome]:
    """Pair each gold unit with the report's result for it (missing results count as undecided)."""
    by_id = {r.unit.id: r for r in report.results} if report is not None else {}
    out = []
    for unit in units:
        res = by_id.get(unit.id)
        out.append(Outcome(
            case_id=case_id, variant_id=run_id, unit_id=unit.id, kind=unit.kind,
            gold=unit.gold.label if unit.gold else Label.ALIGNED,
            pred=res.label if res is not None else Label.UNDECIDED,
            gold_spans=list(unit.gold.spans) if unit.gold else [],
            candidates=[c.span for c in res.candidates] if res is not None else [],
            mutated=unit.id == mutated, held=res.held_label if res is not None else None,
        ))
    return out


def _evaluate_one(
    evaluator: Evaluator, paper: Path, repo: Path, units: list[Unit], config: EvalConfig, record: RunRecord
) -> DriftReport | None:
    start = time.perf_counter()
    try:
        return evaluator(paper, repo, units=strip_gold(units), config=config)
    except Exception as exc:  # one failing evaluation is recorded, never sinks the benchmark
        record.error = f"{type(exc).__name__}: {exc}"
        return None
    finally:
        record.seconds = round(time.perf_counter() - start, 3)


def _without_hints(evaluator: Evaluator) -> Evaluator:
    def run(paper, repo, *, units, config):
        return evaluator(paper, repo, units=[u.model_copy(update={"hints": []}) for u in units], config=config)

    return run


def _variants(cases: list[Case], variants: int | None, seed: int) -> tuple[list[Variant], list[Skipped]]:
    if variants == 0:
        return [], []
    pool: list[Variant] = []
    skipped: list[Skipped] = []
    for case in cases:
        gen = generate_variants(case, seed=seed)
        pool += gen.variants
        skipped += gen.skipped
    return (pick(pool, variants, seed) if variants is not None else pool), skipped


def run_bench(
    dataset_path: str | Path,
    config: EvalConfig | None = None,
    *,
    variants: int | None = None,
    seed: int = 0,
    out: Path | None = None,
    evaluator: Evaluator | None = None,
    hints: bool = True,
    full: bool = False,
) -> BenchResult:
    """Evaluate every case and `variants` generated variants (all when `None`, none when 0); score against gold.

    With `hints=False` every unit reaches the evaluator without `hints`, the shape
    imported and user-written units have. `out` gets a summary, or every outcome with `full`.
    """
    config = config or EvalConfig()
    evaluator = evaluator or _default_evaluator()
    if not hints:
        evaluator = _without_hints(evaluator)
    started = time.perf_counter()
    cases = load_dataset(dataset_path)
    chosen, skipped = _variants(cases, variants, seed)
    result = BenchResult(
        dataset=str(dataset_path), seed=seed, variants_requested=variants, config=config.public_dict(),
        cases=[c.id for c in cases], skipped=skipped, created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )
    for case in cases:
        _run(result, evaluator, config, case.id, case.id, case.paper_path, case.repo_path, case.units, None)
    by_case = {c.id: c for c in cases}
    with tempfile.TemporaryDirectory(prefix="sa-align-bench-") as tmp:
        for variant in chosen:
            case = by_case[variant.case_id]
            root = write_variant(case, variant, tmp)
            _run(result, evaluator, config, variant.id, case.id, root / case.meta.paper, root / case.meta.repo,
                 variant.units, variant.mutation)
    result.metrics = compute_metrics(result.outcomes)
    result.clean_metrics = compute_metrics([o for o in result.outcomes if o.variant_id == o.case_id])
    result.target_metrics = compute_metrics([o for o in result.outcomes if o.mutated])
    result.seconds = round(time.perf_counter() - started, 3)
    if out is not None:
        result.write(out, full=full)
    return result


def _run(
    result: BenchResult, evaluator: Evaluator, config: EvalConfig, run_id: str, case_id: str,
    paper: Path, repo: Path, units: list[Unit], mutation: MutationInfo | None,
) -> None:
    record = RunRecord(id=run_id, case_id=case_id, mutation=mutation)
    report = _evaluate_one(evaluator, paper, repo, units, config, record)
    if record.error:
        result.errors.append(f"{run_id}: {record.error}")
    outcomes = outcomes_for(run_id, case_id, units, report, mutation.unit if mutation else None)
    record.units = len(outcomes)
    record.correct = sum(o.gold == o.pred for o in outcomes)
    result.runs.append(record)
    result.outcomes += outcomes
