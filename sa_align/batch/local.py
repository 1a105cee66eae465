"""The process executor: pairs on a pool of local processes, each writing its own reports."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Iterator

from sa_align.batch.manifest import Pair
from sa_align.batch.outcome import PairOutcome, failed, write_pair
from sa_align.config import EvalConfig


def evaluate_pair(pair: Pair, out: Path, config: EvalConfig, formats: tuple[str, ...], done_stamp: str) -> PairOutcome:
    """Evaluate one pair and write its reports; any failure is recorded in its outcome, never raised."""
    from sa_align.pipeline import evaluate

    try:
        report = evaluate(pair.paper, pair.repo, units=pair.units, config=config)
        return write_pair(report, out / pair.id, formats, done_stamp)
    except Exception as exc:  # one broken pair must not stop the batch
        return failed(pair.id, exc)


class ProcessExecutor:
    """Pairs on up to `workers` local processes (one per core by default)."""

    name = "process"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers

    def __enter__(self) -> "ProcessExecutor":
        return self

    def __exit__(self, *exc) -> None:
        return None

    def run(self, jobs: list, out: Path, config: EvalConfig, formats: tuple[str, ...]) -> Iterator[PairOutcome]:
        """Outcomes as pairs finish (`jobs`: `inputs.Job`s)."""
        import os

        workers = self.workers or min(os.cpu_count() or 1, max(len(jobs), 1))
        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                yield evaluate_pair(job.pair, out, config, formats, job.stamp)
            return
        # Pairs are independent and CPU-bound (parsing, retrieval); processes use every core.
        # Spawned, not forked: a fork of a process that already runs threads (an event loop,
        # tokenizers, torch) can deadlock in the child.
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = [pool.submit(evaluate_pair, j.pair, out, config, formats, j.stamp) for j in jobs]
            for future in as_completed(futures):
                yield future.result()
