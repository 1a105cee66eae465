"""Evaluate SA-Bench runs with their claims as units, and record our decision beside the reference.

Each run's repository is exported into a fresh folder without its judge output
(`repo/result/`), so nothing of the answer can be indexed, retrieved or shown to
a judge. A finished run is stored under `OUT/runs/` with a stamp of its inputs,
configuration and code (`resources.code_fingerprint`), so an interrupted benchmark
resumes where it stopped and a record made by other code is never reused.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, ConfigDict, Field

from sa_align._version import __version__
from sa_align.bench.sabench.dataset import (
    RunRef,
    RunScores,
    RunSkipped,
    claim_units,
    list_runs,
    paper_file,
    read_scores,
    select_papers,
    tables,
)
from sa_align.bench.sabench.source import Source, open_source
from sa_align.config import EvalConfig
from sa_align.models import DriftReport, Label
from sa_align.pipeline import evaluate
from sa_align.prose import shorten


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class ClaimOutcome(_Model):
    """One claim of one run: the reference level and our decision."""

    claim_id: str
    """SA-Bench claim id."""
    dimension: str
    """`D1`..`D4`."""
    reference: float
    """The reference judge's level."""
    reference_unseen: bool = False
    """The reference judge cites a file the published run lacks (`ReferenceClaim.unseen`)."""
    label: Label
    """Our final label."""
    score: float | None
    """Our SA-Bench-scale score; `None` when undecided."""
    confidence: float = 0.0
    """Our confidence in the label."""
    reason: str = ""
    """Why (the deciding verdict's reason), shortened."""
    probability: float | None = None
    """The calibrated judge's probability of faithful; `None` when calibration is off."""
    expected_score: float | None = None
    """The calibrated judge's expected score; `None` when calibration is off."""
    needs_review: bool = False
    """Whether we left the claim for review."""
    rule: str | None = None
    """The code of the rule that decided the label (or left the claim undecided); `None` when nothing decided."""
    held_label: Label | None = None
    """The failure label a preview rule found and held back, when it did."""
    features: dict[str, float] = Field(default_factory=dict)
    """The calibrated judge's inputs, when the run recorded them (for training)."""


class RunRecord(_Model):
    """One run: what we decided for each claim, or why the run was skipped."""

    id: str
    """`<setup>/<paper>`."""
    setup: str
    """Agent setup."""
    paper: str
    """Paper id."""
    model: str | None = None
    """The reference judge model of this run."""
    reference_score: float | None = None
    """SA-Bench's `overall_score` of the run."""
    python_lines: int = 0
    """Lines in the repository's Python files (the line-count baseline)."""
    files: int = 0
    """Files in the exported repository."""
    seconds: float = 0.0
    """Wall time of our evaluation of the run."""
    outcomes: list[ClaimOutcome] = Field(default_factory=list)
    """Per claim."""
    skipped: str | None = None
    """Why the run could not be evaluated."""
    errors: list[str] = Field(default_factory=list)
    """Errors the evaluation recorded (a unit or judge that failed)."""
    stamp: str = ""
    """Hash of the inputs and configuration, for resuming."""


Evaluator = Callable[..., DriftReport]


def _default_evaluator() -> Evaluator:
    return evaluate


def run_paths(source_path: str | Path, papers: list[str] | None = None, setups: list[str] | None = None) -> tuple[Source, list[RunRef]]:
    source = open_source(source_path)
    return source, list_runs(source, select_papers(source, papers), setups)


def evaluate_run(source: Source, run: RunRef, config: EvalConfig, work: Path,
                 evaluator: Evaluator | None = None, previous: RunRecord | None = None) -> RunRecord:
    """Evaluate one run; a problem with its inputs skips it with the reason."""
    record = RunRecord(id=run.id, setup=run.setup, paper=run.paper)
    try:
        scores = read_scores(source, run)
        paper = _paper(source, run.paper, work)
        repo = work / "repos" / run.setup / run.paper
        record.files = source.export(run.repo, repo, skip=tables().result_dir) if _has_repo(source, run) else _empty(repo)
    except RunSkipped as exc:
        record.skipped = str(exc)
        return record
    except Exception as exc:  # an unreadable repository skips this run only
        record.skipped = f"{type(exc).__name__}: {exc}"
        return record
    try:
        return _evaluate(paper, repo, scores, record, config, evaluator, previous)
    finally:
        shutil.rmtree(repo, ignore_errors=True)


def _evaluate(paper: Path, repo: Path, scores: RunScores, record: RunRecord, config: EvalConfig,
              evaluator: Evaluator | None, previous: RunRecord | None) -> RunRecord:
    record.model, record.reference_score = scores.model, scores.overall_score
    record.python_lines = python_lines(repo)
    record.stamp = _stamp(paper, repo, scores, config)
    if previous is not None and previous.stamp == record.stamp and previous.skipped is None:
        return previous
    started = time.perf_counter()
    units = claim_units(scores.claims)
    report = (evaluator or _default_evaluator())(paper, repo, units=units, config=config)
    record.seconds = round(time.perf_counter() - started, 3)
    record.outcomes = _outcomes(scores, report)
    record.errors = list(report.errors)
    return record


def _has_repo(source: Source, run: RunRef) -> bool:
    return bool(source.files_under(run.repo))


def _empty(repo: Path) -> int:
    # SA-Bench scores a run without a repository 0: it is evaluated, not skipped.
    repo.mkdir(parents=True, exist_ok=True)
    return 0


def _paper(source: Source, paper: str, work: Path) -> Path:
    dest = work / "papers" / f"{paper}.md"
    if dest.is_file():
        return dest
    rel = paper_file(source, paper)
    data = source.read(rel) if rel else None
    if data is None:
        raise RunSkipped(f"no paper file for {paper} under the *{tables().paper_setup_suffix} setups")
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Worker processes share the folder: write aside, then rename, so none reads a half-written paper.
    part = dest.with_name(f"{dest.name}.{os.getpid()}.part")
    part.write_bytes(data)
    os.replace(part, dest)
    return dest


def python_lines(repo: Path) -> int:
    total = 0
    for path in repo.rglob("*.py"):
        if path.is_file() and not path.is_symlink():
            try:
                total += path.read_bytes().count(b"\n")
            except OSError:
                continue
    return total


def _stamp(paper: Path, repo: Path, scores: RunScores, config: EvalConfig) -> str:
    from sa_align.resources import code_fingerprint

    h = hashlib.sha256()
    h.update(f"{__version__} {code_fingerprint()}".encode())
    h.update(json.dumps(config.public_dict(), sort_keys=True, default=str).encode())
    h.update(paper.read_bytes())
    h.update(json.dumps([c.model_dump() for c in scores.claims], sort_keys=True).encode())
    for path in sorted(p for p in repo.rglob("*") if p.is_file() and not p.is_symlink()):
        h.update(path.relative_to(repo).as_posix().encode())
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:24]


def _outcomes(scores: RunScores, report: DriftReport) -> list[ClaimOutcome]:
    by_id = {r.unit.id: r for r in report.results}
    out = []
    for claim in scores.claims:
        result = by_id.get(claim.id)
        label = result.label if result else Label.UNDECIDED
        decided = label != Label.UNDECIDED and result is not None
        reason = _reason(result) if result else "not evaluated"
        cal = result.calibration if result else None
        out.append(ClaimOutcome(
            claim_id=claim.id, dimension=claim.dimension, reference=claim.score, reference_unseen=claim.unseen, label=label,
            score=result.score if decided else None, confidence=result.confidence if result else 0.0,
            reason=shorten(reason, 400), needs_review=bool(result and result.needs_review),
            rule=result.rule if result else None, held_label=result.held_label if result else None,
            probability=cal.probability if cal else None, expected_score=cal.expected_score if cal else None,
            features=dict(cal.features) if cal else {},
        ))
    return out


def _reason(result) -> str:
    """The deciding verdict's reason; for an undecided unit, why each judge abstained."""
    voting = [v for v in result.verdicts if not v.abstained and v.label == result.label]
    if voting:
        return voting[0].judge + ": " + voting[0].reason
    return " | ".join(f"{v.judge}: {v.reason}" for v in result.verdicts if v.reason)


# --------------------------------------------------------------------------- many runs


def run_all(source_path: str | Path, config: EvalConfig, out: Path | None, *, papers: list[str] | None = None,
            setups: list[str] | None = None, workers: int = 1,
            progress: Callable[[int, int], None] | None = None) -> list[RunRecord]:
    """Every selected run, resuming from `out/runs/` when a stored run has the same stamp."""
    source, runs = run_paths(source_path, papers, setups)
    store = (out / "runs") if out is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    records: dict[str, RunRecord] = {}
    with tempfile.TemporaryDirectory(prefix="sa-align-sabench-") as tmp:
        jobs = [(str(source_path), run, config, Path(tmp), _load(store, run)) for run in runs]
        for i, record in enumerate(_execute(jobs, workers), 1):
            records[record.id] = record
            if store is not None:
                (store / _file_name(record.id)).write_text(record.model_dump_json(), encoding="utf-8")
            if progress is not None:
                progress(i, len(runs))
    return [records[r.id] for r in runs]


def _execute(jobs: list, workers: int):
    if workers <= 1:
        for job in jobs:
            yield _job(*job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_job, *job) for job in jobs]
        for future in as_completed(futures):
            yield future.result()


def _job(source_path: str, run: RunRef, config: EvalConfig, work: Path, previous: RunRecord | None) -> RunRecord:
    source = open_source(source_path)
    try:
        return evaluate_run(source, run, config, work, previous=previous)
    except Exception as exc:  # one run's failure is recorded; the others go on
        return RunRecord(id=run.id, setup=run.setup, paper=run.paper, skipped=f"failed: {type(exc).__name__}: {exc}")


def _file_name(run_id: str) -> str:
    return run_id.replace("/", "__") + ".json"


def _load(store: Path | None, run: RunRef) -> RunRecord | None:
    if store is None:
        return None
    path = store / _file_name(run.id)
    try:
        return RunRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
