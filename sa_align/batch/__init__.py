"""Evaluate many (paper, repo) pairs: one report folder per pair plus an aggregate table.

The manifest is JSON Lines, one pair per line (`manifest.py`). Each pair's
reports go to `OUT/<id>/` with a `.done` stamp of its inputs' content and the
configuration (`outcome.py`), so an interrupted batch resumes where it stopped
and a changed input or configuration re-runs. Pairs run on an executor: a local
process pool (`local.py`) or Ray tasks on a local runtime or a cluster
(`ray_exec.py`, the `ray` extra); both leave the same folders behind.
"""

from sa_align.batch.local import ProcessExecutor, evaluate_pair
from sa_align.batch.manifest import Pair, read_manifest
from sa_align.batch.outcome import PairOutcome, write_aggregate
from sa_align.batch.run import EXECUTORS, make_executor, run_batch

__all__ = [
    "EXECUTORS", "Pair", "PairOutcome", "ProcessExecutor", "evaluate_pair", "make_executor", "read_manifest",
    "run_batch", "write_aggregate",
]
