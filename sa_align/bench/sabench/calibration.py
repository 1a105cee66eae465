"""Training the calibrated judge on SA-Bench's development split, with grouped cross-validation.

    sa-align bench --sabench DATASET --train OUT

1. Every selected run is evaluated with calibration off and its features recorded
   (`OUT/features/`, resumable like any SA-Bench benchmark).
2. Folds are grouped by paper, never by run (the runs of a paper share claims): for each
   fold a model is fitted on the other papers' claims and the fold's runs are evaluated
   with it (`OUT/folds/`). The figures over those held-out evaluations are the
   cross-validated agreement, probability quality and run ranking (`OUT/train.json`,
   `OUT/train.md`).
3. The model trained on every selected paper is written to `OUT/sabench.json`; copy it to
   `units/calibration/sabench.json` to ship it.

Only the development split may be selected (`units/bench/sabench.yaml`), and the rules
were tuned on the same papers, so cross-validated figures run optimistic.
"""

from __future__ import annotations

import json
import shlex
import sys
from datetime import date
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.sabench.dataset import tables
from sa_align.bench.sabench.metrics import SABenchMetrics, sabench_metrics
from sa_align.bench.sabench.render import train_markdown
from sa_align.bench.sabench.runner import RunRecord, run_all
from sa_align.bench.sabench.spread import Spread, spreads
from sa_align.calibrate.model import Provenance
from sa_align.calibrate.train import fit
from sa_align.config import EvalConfig


class TrainResult(BaseModel):
    """What training measured and wrote."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    model_path: str
    """The model trained on every selected paper."""
    folds: dict[str, list[str]] = Field(default_factory=dict)
    """Fold -> its held-out papers."""
    uncalibrated: SABenchMetrics = Field(default_factory=SABenchMetrics)
    """Every figure with calibration off (the features run)."""
    cross_validated: SABenchMetrics = Field(default_factory=SABenchMetrics)
    """Every figure over the folds' held-out evaluations."""
    spread: list[Spread] = Field(default_factory=list)
    """How far the cross-validated headline figures move when other papers are drawn (`spread`)."""
    note: str = ("The static rules were tuned on these development papers, so cross-validated figures run "
                 "optimistic; the held-out papers are the real test.")
    """How to read the figures."""

    def markdown(self) -> str:
        return train_markdown(self)


def train_sabench(dataset: str | Path, config: EvalConfig, out: Path, *, papers: list[str] | None = None,
                  setups: list[str] | None = None, workers: int = 1, folds: int = 5,
                  progress: Callable[[str, int, int], None] | None = None) -> TrainResult:
    """Record features, cross-validate by paper, and write the final model (see module docstring)."""
    out.mkdir(parents=True, exist_ok=True)
    features = run_all(dataset, _recording(config), out / "features", papers=papers, setups=setups, workers=workers,
                       progress=_stage(progress, "features"))
    groups = _folds(sorted({r.paper for r in features if r.skipped is None}), folds)
    held_out: list[RunRecord] = []
    for k, test in enumerate(groups):
        model = fit(*_rows([r for r in features if r.paper not in test]), _provenance(dataset, out, features, test))
        path = out / "folds" / f"fold-{k}.json"
        _write(path, model.model_dump_json(indent=None))
        fold_config = config.model_copy(update={"calibration": config.calibration.model_copy(
            update={"enabled": True, "model": path, "allow_uncalibrated": False})})
        held_out += run_all(dataset, fold_config, out / "folds" / f"runs-{k}", papers=test, setups=setups,
                            workers=workers, progress=_stage(progress, f"fold {k + 1}/{len(groups)}"))
    final = fit(*_rows(features), _provenance(dataset, out, features, []))
    final.cross_validation = _summary(sabench_metrics(held_out))
    model_path = out / "sabench.json"
    _write(model_path, final.model_dump_json(indent=None))
    result = TrainResult(model_path=str(model_path), folds={f"fold-{k}": g for k, g in enumerate(groups)},
                         uncalibrated=sabench_metrics(features), cross_validated=sabench_metrics(held_out),
                         spread=spreads(held_out))
    _write(out / "train.json", json.dumps(result.model_dump(mode="json"), indent=1))
    _write(out / "train.md", result.markdown())
    return result


def _recording(config: EvalConfig) -> EvalConfig:
    # Features must see the static judges only: calibration off, LLM judges off.
    settings = config.calibration.model_copy(update={"enabled": False, "record_features": True})
    return config.model_copy(update={"calibration": settings, "judges": []})


def _folds(papers: list[str], folds: int) -> list[list[str]]:
    """Papers dealt round-robin into `folds` groups (deterministic, about equal sizes)."""
    if len(papers) < 2:
        raise ValueError("grouped cross-validation needs runs of at least two papers")
    n = min(folds, len(papers))
    return [papers[k::n] for k in range(n)]


def _rows(records: list[RunRecord]) -> tuple[list[dict[str, float]], list[float]]:
    outcomes = [o for r in records if r.skipped is None for o in r.outcomes if o.features]
    return [o.features for o in outcomes], [o.reference for o in outcomes]


def _provenance(dataset, out: Path, records: list[RunRecord], excluded: list[str]):
    papers = sorted({r.paper for r in records if r.skipped is None} - set(excluded))
    return Provenance(
        dataset="SA-Bench, agent runs judged by SA-Bench's LLM judge", commit=tables().commit,
        license=f"{tables().license} The model is learned from SA-Bench's judged claims (CC-BY-4.0); "
                "attribution: the SA-Bench authors.",
        papers=papers, trained_at=date.today().isoformat(), command=_command(dataset, out),
    )


def _command(dataset, out: Path) -> str:
    """The command as run, with the local paths of the dataset and the output folder replaced by placeholders."""
    names = {str(dataset): "DATASET", str(out): "OUT"}
    return " ".join(shlex.quote(a) for a in ["sa-align", *(names.get(a, a) for a in sys.argv[1:])])


def _summary(m: SABenchMetrics) -> dict[str, float | None]:
    return {"kappa": m.overall.kappa_label, "coverage": m.overall.coverage, "roc_auc": m.probability.roc_auc,
            "brier_skill": m.probability.brier_skill, "ece": m.probability.ece,
            "run_spearman": m.run.spearman, "run_spearman_expected": m.run.spearman_expected}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _stage(progress, name: str):
    return None if progress is None else (lambda done, total: progress(name, done, total))
