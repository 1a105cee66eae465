"""Batch speed: one manifest through `sa-align batch`, offline, with each executor, from a cold cache.

    python benchmarks/batch_speed.py MANIFEST [--executor process --executor ray] [--workers 2]
    python benchmarks/batch_speed.py --cases benchmarks/cases     # a manifest of the own cases

Each executor runs as a whole `sa-align batch` process (this checkout's code) into a fresh
output folder with a fresh cache folder, so nothing is reused between executors; the
wall time includes starting the interpreter and, for Ray, the local runtime.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cases_manifest(cases: Path, path: Path) -> Path:
    cases = cases.resolve()
    lines = [json.dumps({"id": c.name, "paper": str(c / "paper.md"), "repo": str(c / "repo"),
                         "units": str(c / "units.yaml")}) for c in sorted(cases.iterdir()) if (c / "units.yaml").is_file()]
    path.write_text("\n".join(lines) + "\n")
    return path


def run(manifest: Path, executor: str, workers: int | None, tmp: Path) -> dict:
    out, cache = tmp / f"out-{executor}", tmp / f"cache-{executor}"
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "SA_ALIGN_CACHE_DIR": str(cache),
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    cmd = [sys.executable, "-m", "sa_align.cli", "batch", str(manifest), "--out", str(out), "--no-embeddings",
           "--executor", executor, "-q", *(["--workers", str(workers)] if workers else [])]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=HERE.parent)
    wall = time.perf_counter() - t0
    with open(out / "summary.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return {"executor": executor, "pairs": len(rows), "failed": sum(r["status"] == "failed" for r in rows),
            "wall": wall, "per_pair": wall / max(len(rows), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description="sa_align batch speed benchmark")
    ap.add_argument("manifest", nargs="?", type=Path)
    ap.add_argument("--cases", type=Path, help="build a manifest of these benchmark cases instead")
    ap.add_argument("--executor", action="append", choices=["process", "ray"])
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        manifest = args.manifest or cases_manifest(args.cases or HERE / "cases", Path(tmp) / "cases.jsonl")
        for executor in args.executor or ["process", "ray"]:
            r = run(manifest, executor, args.workers, Path(tmp))
            print(f"{r['executor']:<8} {r['pairs']} pairs ({r['failed']} failed): {r['wall']:.1f} s, "
                  f"{r['per_pair']:.2f} s a pair")


if __name__ == "__main__":
    main()
