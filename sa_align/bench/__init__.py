"""Benchmarks of sa_align itself: the labelled case format, the mutation generator, metrics, runners.

    from sa_align.bench import load_dataset, generate_variants, run_bench, render_table
    result = run_bench("benchmarks/cases", EvalConfig(), variants=120, seed=0, out=Path("bench.json"))
    render_table(result)

Importing this package is light; scikit-learn is imported when metrics are computed.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sa_align.bench.dataset import Case, CaseMeta, MutationInfo, Recipe, load_case, load_dataset, strip_gold, validate_case

_LAZY = {
    "Generation": "sa_align.bench.mutate",
    "Variant": "sa_align.bench.mutate",
    "generate_variants": "sa_align.bench.mutate",
    "write_variant": "sa_align.bench.mutate",
    "Metrics": "sa_align.bench.metrics",
    "Outcome": "sa_align.bench.metrics",
    "compute_metrics": "sa_align.bench.metrics",
    "BenchResult": "sa_align.bench.runner",
    "run_bench": "sa_align.bench.runner",
    "render_table": "sa_align.bench.table",
    "JudgeEvalResult": "sa_align.bench.judgeeval",
    "run_judgeeval": "sa_align.bench.judgeeval",
    "SABenchResult": "sa_align.bench.sabench",
    "run_sabench": "sa_align.bench.sabench",
}

if TYPE_CHECKING:
    from sa_align.bench.judgeeval import JudgeEvalResult, run_judgeeval
    from sa_align.bench.metrics import Metrics, Outcome, compute_metrics
    from sa_align.bench.mutate import Generation, Variant, generate_variants, write_variant
    from sa_align.bench.runner import BenchResult, run_bench
    from sa_align.bench.sabench import SABenchResult, run_sabench
    from sa_align.bench.table import render_table


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sa_align.bench' has no attribute {name!r}")


__all__ = [
    "BenchResult",
    "Case",
    "CaseMeta",
    "Generation",
    "JudgeEvalResult",
    "Metrics",
    "MutationInfo",
    "Outcome",
    "Recipe",
    "SABenchResult",
    "Variant",
    "compute_metrics",
    "generate_variants",
    "load_case",
    "load_dataset",
    "render_table",
    "run_bench",
    "run_judgeeval",
    "run_sabench",
    "strip_gold",
    "validate_case",
    "write_variant",
]
