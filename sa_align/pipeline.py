"""paper -> units -> index -> candidates -> verdicts -> results -> report.

`evaluate_async` reads as that chain; each stage is a plain function from one
model to the next, so any stage can be called (or replaced) on its own. Candidates
become verdicts and verdicts a result in one function per unit,
`sa_align.judges.label_unit`, which owns the unit's label.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from sa_align._version import __version__
from sa_align.calibrate import Calibrator
from sa_align.config import EvalConfig
from sa_align.errors import RetrievalError
from sa_align.extract import extract_async
from sa_align.extract.budget import NOTE_PREFIX
from sa_align.extract.derive import complete_units
from sa_align.index import build_index
from sa_align.judges import JudgeContext, aggregate, finish, label_unit, scan_injections, scan_unit_injections
from sa_align.llm import LLMClient
from sa_align.models import (
    CalibrationInfo,
    Candidate,
    Cost,
    DriftReport,
    Flag,
    Label,
    Paper,
    PaperIdentity,
    RepoIdentity,
    RetrievalInfo,
    Unit,
    UnitResult,
    Verdict,
)
from sa_align.paper import load_paper
from sa_align.report import summarize
from sa_align.rules.policy import enabled_codes
from sa_align.unitsfile import load_units

EMPTY_REPO = "empty-repo"
"""The kind of the flag a repository with no code or configuration file gets."""

ProgressCallback = Callable[[str, int, int], None]
"""Called as `progress(stage, done, total)` while a run advances."""

PaperLike = Paper | str | Path
UnitsLike = Sequence[Unit] | str | Path | None


@dataclass
class _Run:
    """Bookkeeping of one evaluation: stage timings, flags and errors."""

    progress: ProgressCallback | None
    timing: dict[str, float] = field(default_factory=dict)
    flags: list[Flag] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retrieval: RetrievalInfo = field(default_factory=RetrievalInfo)
    calibrator: Any = None
    """The run's `sa_align.calibrate.Calibrator`, or `None` when calibration is off."""

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timing[name] = round(time.perf_counter() - start, 4)

    def tick(self, stage: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(stage, done, total)


def evaluate(
    paper: PaperLike,
    repo: str | Path,
    *,
    units: UnitsLike = None,
    config: EvalConfig | None = None,
    progress: ProgressCallback | None = None,
) -> DriftReport:
    """Audit `repo` against `paper` and return the drift report (blocking wrapper of `evaluate_async`)."""
    return run_blocking(evaluate_async(paper, repo, units=units, config=config, progress=progress))


def run_blocking(coro):
    """Run `coro` to completion from synchronous code and return its result."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    # Called from inside a running loop (a notebook, an async harness): run on a
    # private loop in a worker thread rather than failing.
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def evaluate_async(
    paper: PaperLike,
    repo: str | Path,
    *,
    units: UnitsLike = None,
    config: EvalConfig | None = None,
    progress: ProgressCallback | None = None,
) -> DriftReport:
    """Audit `repo` against `paper`. Units are extracted unless given (a list or a units file)."""
    config = config or EvalConfig()
    enabled_codes(config.rules)  # an unknown rule selector is a ConfigError now, not one per unit later
    run = _Run(progress)
    started = time.perf_counter()
    client = make_client(config)
    run.calibrator = calibrator_for(config)
    run.flags.extend(calibration_flags(run.calibrator, config))
    with run.stage("load"):
        paper = load(paper)
    with run.stage("extract"):
        units = complete(await units_for(paper, units, config, client, run))
        run.flags.extend(unit_flags(units))
    with run.stage("index"):
        index = index_repo(repo, config)
        run.flags.extend(index_flags(index))
    with run.stage("retrieve"):
        candidates = retrieve_all(units, index, config, run)
    with run.stage("judge"):
        results = await judge_all(units, candidates, index, paper, config, client, run)
    run.timing["total"] = round(time.perf_counter() - started, 4)
    return build_report(paper, repo, index, results, config, client, run)


# --------------------------------------------------------------------------- stages


def make_client(config: EvalConfig):
    """An LLM client only when a model is configured: offline runs never touch litellm."""
    if config.offline:
        return None
    return LLMClient(config)


def calibrator_for(config: EvalConfig):
    """The calibrated judge of the run (the model is loaded and checked before any work starts)."""
    return Calibrator.for_config(config)


def calibration_flags(calibrator, config: EvalConfig) -> list[Flag]:
    """A calibrated run that fell back to the hand-set aggregate says so where a person looks first."""
    if not config.calibration.enabled or calibrator is None or calibrator.model is not None:
        return []
    return [Flag(kind="uncalibrated", message=f"labels come from the hand-set aggregate: {calibrator.info.uncalibrated}")]


def load(paper: PaperLike) -> Paper:
    if isinstance(paper, Paper):
        return paper
    return load_paper(paper)


async def units_for(paper: Paper, units: UnitsLike, config: EvalConfig, client, run: _Run) -> list[Unit]:
    """Given units win (a list or a units file); otherwise extract them from the paper."""
    if isinstance(units, (str, Path)):
        return load_units(units)
    if units is not None:
        return list(units)
    extraction = await extract_async(paper, config, client)
    for note in extraction.notes:
        # What the unit budget merged and cut is worth knowing, not an error of the run.
        if note.startswith(NOTE_PREFIX):
            run.flags.append(Flag(kind="unit-budget", message=note))
        else:
            run.errors.append(note)
    return list(extraction.units)


def complete(units: Sequence[Unit]) -> list[Unit]:
    """Units that arrived as free text get their checkable fields from their own claim and quote."""
    return complete_units(units)


def index_repo(repo: str | Path, config: EvalConfig):
    return build_index(repo, config.index, cache_dir=config.index_cache_dir)


def index_flags(index) -> list[Flag]:
    """Text in the repository addressed to a judge is flagged, never obeyed; a repository with no
    code or configuration is flagged too, since every unit is then `missing` without a search."""
    empty = [] if index.has_code() else [Flag(kind=EMPTY_REPO, message=(
        f"the repository holds no code or configuration file ({len(index.files)} other files indexed): "
        "every unit is missing because there was nothing to search"))]
    return empty + scan_injections(index)


def unit_flags(units: Sequence[Unit]) -> list[Flag]:
    """Paper text in a unit that addresses a judge is flagged too: the paper is untrusted input."""
    return scan_unit_injections(units)


def retrieve_all(units: Iterable[Unit], index, config: EvalConfig, run: _Run) -> dict[str, list[Candidate]]:
    """Candidates per unit id. A retriever that cannot be built leaves every unit without candidates
    (recorded), except when the config demanded what failed (`embeddings: true`): that is an error."""
    from sa_align.retrieve import build_retriever

    units = list(units)
    try:
        retriever = build_retriever(index, config)
    except RetrievalError:
        raise
    except Exception as exc:
        run.errors.append(f"retrieval failed, every unit is judged without candidates: {type(exc).__name__}: {exc}")
        run.retrieval = RetrievalInfo(notes=[run.errors[-1]])
        return {u.id: [] for u in units}
    out: dict[str, list[Candidate]] = {}
    for i, unit in enumerate(units, 1):
        try:
            out[unit.id] = retriever.retrieve(unit)
        except Exception as exc:  # one unit's failure degrades that unit only
            out[unit.id] = []
            run.errors.append(f"retrieval failed for {unit.id}: {type(exc).__name__}: {exc}")
        run.tick("retrieve", i, len(units))
    run.errors.extend(retriever.errors)
    run.retrieval = retrieval_info(retriever)
    return out


def retrieval_info(retriever) -> RetrievalInfo:
    """What the report says about retrieval: the signals that ran and why others did not."""
    embedder = retriever.embedder if retriever.matrix is not None else None
    model = None if embedder is None else (embedder.model_name or "packaged-minilm")
    return RetrievalInfo(signals=retriever.signals, embeddings=embedder is not None, embedding_model=model,
                         notes=list(retriever.notes))


async def judge_all(
    units: Sequence[Unit],
    candidates: dict[str, list[Candidate]],
    index,
    paper: Paper,
    config: EvalConfig,
    client,
    run: _Run,
) -> list[UnitResult]:
    """One result per unit, judged concurrently (the LLM client bounds requests in flight per model).

    Each unit's label comes from `sa_align.judges.label_unit`, calibrated when the run has a
    calibrator; a unit whose judging fails is `undecided` with the error, and the run goes on.
    `finish` then copies its evidence code and says what would decide it if undecided.
    """
    done = 0

    async def one(unit: Unit) -> UnitResult:
        nonlocal done
        ctx = JudgeContext(
            unit=unit, candidates=candidates.get(unit.id, []), index=index,
            paper=paper, config=config, client=client,
        )
        try:
            result = await label_unit(ctx, run.calibrator, run.errors)
        except Exception as exc:
            run.errors.append(f"judging failed for {unit.id}: {type(exc).__name__}: {exc}")
            failed = Verdict(judge="pipeline", label=Label.UNDECIDED, abstained=True, error=str(exc))
            result = aggregate(unit, [failed], ctx.candidates, config)
        done += 1
        run.tick("judge", done, len(units))
        return finish(result, index, config)

    return list(await asyncio.gather(*(one(u) for u in units)))


def build_report(paper: Paper, repo, index, results: list[UnitResult], config: EvalConfig, client, run: _Run) -> DriftReport:
    cost = client.cost if client is not None else Cost()
    return DriftReport(
        sa_align_version=__version__,
        created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        paper=PaperIdentity(title=paper.title, path=paper.source, format=paper.format, sha256=paper.sha256),
        repo=RepoIdentity(
            path=str(repo), git_commit=index.git_commit, content_hash=index.content_hash,
            files_indexed=len(index.files), files_skipped=len(index.skipped),
        ),
        config=config.public_dict(),
        retrieval=run.retrieval,
        results=results,
        summary=summarize(results, has_code=index.has_code()),
        cost=cost,
        timing=run.timing,
        calibration=run.calibrator.info if run.calibrator is not None else CalibrationInfo(uncalibrated="calibration is switched off"),
        flags=run.flags,
        errors=run.errors,
    )

