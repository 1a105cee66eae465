"""`run_batch`: check the manifest, skip finished pairs, run the rest on an executor, write the table."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from sa_align.batch.inputs import Job, pair_digest, paper_bundle, repo_bundle
from sa_align.batch.local import ProcessExecutor
from sa_align.batch.manifest import Pair, read_manifest
from sa_align.batch.outcome import PairOutcome, finished, stamp, stamp_matches, write_aggregate
from sa_align.batch.ray_exec import RayExecutor
from sa_align.config import EvalConfig
from sa_align.errors import InputError

EXECUTORS = ("process", "ray")


def run_batch(
    manifest: str | Path,
    out: str | Path,
    config: EvalConfig | None = None,
    *,
    executor: str = "process",
    workers: int | None = None,
    address: str | None = None,
    shared_prefix: str | Path | None = None,
    formats: Iterable[str] = ("json", "md"),
    on_pair: Callable[[PairOutcome], None] | None = None,
) -> list[PairOutcome]:
    """Evaluate every unfinished pair of `manifest`, then write `summary.csv` and `summary.md` into `out`.

    `executor` is `process` (a local process pool of `workers`) or `ray` (Ray tasks on a
    local runtime of `workers` CPUs, or on the cluster at `address`; `shared_prefix` names a
    folder every node mounts, whose files are read in place instead of shipped).
    """
    config = config or EvalConfig()
    pairs = read_manifest(manifest)  # every manifest problem, before any work
    runner = make_executor(executor, workers=workers, address=address, shared_prefix=shared_prefix)
    out = Path(out)
    formats = tuple(formats)
    outcomes: dict[str, PairOutcome] = {}
    todo: list[Job] = []
    for job in (_job(pair, config) for pair in pairs):
        if stamp_matches(out / job.pair.id, job.stamp):
            outcomes[job.pair.id] = finished(out / job.pair.id, job.pair.id)
            _notify(on_pair, outcomes[job.pair.id])
        else:
            todo.append(job)
    out.mkdir(parents=True, exist_ok=True)
    if todo:
        with runner:  # connects (or fails, naming the address) before any pair runs
            for outcome in runner.run(todo, out, config, formats):
                outcomes[outcome.id] = outcome
                _notify(on_pair, outcome)
    ordered = [outcomes[p.id] for p in pairs if p.id in outcomes]
    write_aggregate(ordered, out)
    return ordered


def make_executor(name: str, *, workers: int | None = None, address: str | None = None,
                  shared_prefix: str | Path | None = None):
    """The executor called `name`; options that only Ray takes are refused for the process pool."""
    if name == "process":
        if address or shared_prefix:
            raise InputError("--address and --shared-prefix need the Ray executor (--executor ray)")
        return ProcessExecutor(workers)
    if name == "ray":
        return RayExecutor(address=address, workers=workers, shared_prefix=shared_prefix)
    raise InputError(f"unknown executor {name!r}; choose from {', '.join(EXECUTORS)}")


def _job(pair: Pair, config: EvalConfig) -> Job:
    paper, repo = paper_bundle(pair.paper), repo_bundle(pair.repo, config.index)
    return Job(pair=pair, paper=paper, repo=repo, stamp=stamp(pair_digest(paper, repo, pair.units), config))


def _notify(callback, outcome: PairOutcome) -> None:
    if callback is not None:
        callback(outcome)
