"""The process executor: pairs on a pool of local processes, each writing its own reports."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Callable, Iterator

from sa_align.batch.manifest import Pair
from sa_align.batch.outcome import PairOutcome, failed, write_pair
from sa_align.config import EvalConfig
from sa_align.pipeline import evaluate


def evaluate_pair(pair: Pair, out: Path, config: EvalConfig, formats: tuple[str, ...], done_stamp: str) -> PairOutcome:
    """Evaluate one pair and write its reports; any failure is recorded in its outcome, never raised."""
    try:
        report = evaluate(pair.paper, pair.repo, units=pair.units, config=config)
        return write_pair(report, out / pair.id, formats, done_stamp)
    except Exception as exc:  # one broken pair must not stop the batch
        return failed(pair.id, exc)


class ProcessExecutor:
    """Pairs on up to `workers` local processes (one per core by default).

    A worker process that dies mid-pair (killed for memory, a crash in a native library)
    breaks the pool: the pairs it took down run once more, each in a fresh process, then count as failed.
    """

    name = "process"

    def __init__(self, workers: int | None = None, work: Callable[..., PairOutcome] | None = None) -> None:
        self.workers = workers
        self.work = work
        """The per-pair function (`evaluate_pair`); replaceable so tests can make a worker die."""

    def __enter__(self) -> "ProcessExecutor":
        return self

    def __exit__(self, *exc) -> None:
        return None

    def run(self, jobs: list, out: Path, config: EvalConfig, formats: tuple[str, ...]) -> Iterator[PairOutcome]:
        """Outcomes as pairs finish (`jobs`: `inputs.Job`s)."""
        import os

        work = self.work or evaluate_pair
        workers = self.workers or min(os.cpu_count() or 1, max(len(jobs), 1))
        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                yield work(job.pair, out, config, formats, job.stamp)
            return
        lost: list = []
        yield from _pool_round(jobs, work, workers, (out, config, formats), lost)
        # A broken pool takes down every pair in flight, not only the culprit: each runs once
        # more in a pool of its own, so a second death is that pair's own.
        for job in lost:
            again: list = []
            yield from _pool_round([job], work, 1, (out, config, formats), again)
            if again:
                yield failed(job.pair.id, "the worker process running this pair died twice (retried once)")


def _pool_round(jobs: list, work, workers: int, args: tuple, lost: list) -> Iterator[PairOutcome]:
    """One pool over `jobs`; the jobs a dead worker took down are appended to `lost`."""
    if not jobs:
        return
    # Pairs are independent and CPU-bound (parsing, retrieval); processes use every core.
    # Spawned, not forked: a fork of a process that already runs threads (an event loop,
    # tokenizers, torch) can deadlock in the child.
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(work, j.pair, *args, j.stamp): j for j in jobs}
        for future in as_completed(futures):
            try:
                yield future.result()
            except BrokenProcessPool:
                lost.append(futures[future])
