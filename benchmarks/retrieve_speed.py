"""Retrieval speed on the generated 100k-line repository: building the retriever, then ranking units.

    python benchmarks/retrieve_speed.py [--lines 100000] [--runs 3] [--checkout PATH]

Generates the repository with `gen_repo.py`, warms the index cache, then in fresh
processes builds the retriever (chunks, both BM25 models, parameter index; no
embeddings) and retrieves the 99 units of the ppo, resnet_cifar and ddpm cases.
`--checkout` measures another source tree of sa_align (e.g. the version before a
change) on the same repository and units, so rows compare side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = ("ppo", "resnet_cifar", "ddpm")


def _child(repo: str, cache: str) -> None:
    from sa_align.config import EvalConfig
    from sa_align.index import build_index
    from sa_align.retrieve import build_retriever
    from sa_align.unitsfile import load_units

    units = [u for case in CASES for u in load_units(HERE / "cases" / case / "units.yaml")]
    config = EvalConfig(embeddings=False, cache_dir=Path(cache))
    index = build_index(repo, config.index, cache_dir=Path(cache))
    t0 = time.perf_counter()
    retriever = build_retriever(index, config)
    t1 = time.perf_counter()
    for unit in units:
        retriever.retrieve(unit)
    t2 = time.perf_counter()
    print(json.dumps({"build": t1 - t0, "retrieve": t2 - t1, "units": len(units), "chunks": len(retriever.chunks)}))


def _run(checkout: Path, repo: Path, cache: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    out = subprocess.run([sys.executable, __file__, "--child", str(repo), str(cache)],
                         capture_output=True, text=True, env=env, cwd=checkout)
    if out.returncode != 0:
        raise SystemExit(f"the measurement failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description="sa_align retrieval speed benchmark")
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--checkout", type=Path, default=HERE.parent, help="sa_align source tree to measure")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(*args.child)
        return
    sys.path.insert(0, str(HERE))
    from gen_repo import generate

    with tempfile.TemporaryDirectory() as tmp:
        repo = generate(Path(tmp) / "repo", args.lines, seed=0)
        cache = Path(tmp) / "cache"
        _run(args.checkout, repo, cache)  # warms the index cache
        runs = [_run(args.checkout, repo, cache) for _ in range(args.runs)]
    med = {k: statistics.median(r[k] for r in runs) for k in ("build", "retrieve")}
    print(f"checkout {args.checkout}: {runs[0]['chunks']} chunks, {runs[0]['units']} units; medians of {args.runs}")
    print(f"build retriever {med['build']:.2f} s; retrieve {med['retrieve']:.2f} s "
          f"({1000 * med['retrieve'] / runs[0]['units']:.1f} ms a unit)")


if __name__ == "__main__":
    main()
