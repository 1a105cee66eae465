"""Accuracy benchmark: evaluate the benchmark cases and generated variants, print and save the metrics.

    python benchmarks/run_bench.py --variants -1 --seed 0 --no-embeddings --out /tmp/bench-all.json
    python benchmarks/run_bench.py --judge openai/gpt-4o-mini --out benchmarks/results/bench-gpt4o-mini.json

The same as `sa-align bench benchmarks/cases ...`; kept as a script so results can be
reproduced from a checkout without installing the console entry point.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sa_align.bench import render_table, run_bench  # noqa: E402
from sa_align.config import EvalConfig  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=ROOT / "benchmarks" / "cases")
    parser.add_argument("--judge", action="append", default=[], help="LLM judge model (repeatable); none = offline")
    parser.add_argument("--variants", type=int, default=120, help="variants over all cases (-1: all, 0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-embeddings", action="store_true", help="disable embedding retrieval")
    parser.add_argument("--no-hints", action="store_true", help="remove every unit's hints (the shape imported units have)")
    parser.add_argument("--no-calibration", action="store_true", help="the hand-set aggregate instead of the calibrated judge")
    parser.add_argument("--band", type=float, nargs=2, default=None, metavar=("LOW", "HIGH"),
                        help="the calibrated judge's uncertainty band (default: the configuration's)")
    parser.add_argument("--out", type=Path, default=None, help="write a JSON summary of the metrics here")
    parser.add_argument("--preview", action="store_true", help="let preview rules set failure labels (`sa-align rules`)")
    parser.add_argument("--full", action="store_true", help="with --out: every per-unit outcome too (megabytes; keep out of git)")
    args = parser.parse_args(argv)
    config = EvalConfig(judges=args.judge, embeddings=False if args.no_embeddings else None,
                        calibration={"enabled": not args.no_calibration, **({"band": tuple(args.band)} if args.band else {})},
                        rules={"preview": args.preview})
    variants = None if args.variants < 0 else args.variants
    result = run_bench(args.dataset, config, variants=variants, seed=args.seed, out=args.out, hints=not args.no_hints, full=args.full)
    render_table(result)
    for err in result.errors:
        print(f"error: {err}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
