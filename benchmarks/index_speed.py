"""Index speed benchmark: cold (no cache), warm (cached) and peak memory on a generated repository.

    python benchmarks/index_speed.py [--lines 100000] [--runs 5] [--cli]

Generates a deterministic Python ML repository with `gen_repo.py`, then runs
each measurement in a fresh subprocess (so imports, caches and peak RSS are
per run) and prints medians. Targets on a 2-core machine: cold < 4 s,
warm < 0.5 s, peak RSS < 500 MB. CPU seconds (this process plus its worker
processes) are reported next to wall time, since wall time depends on load.

`--cli` times the whole `sa-align index REPO` process instead (interpreter
start, imports, index, summary output; run from this checkout), with a fresh
cache folder for each cold run; targets: cold <= 1.6 s, warm <= 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _child(mode: str, repo: str, cache: str) -> None:
    """Run one measurement and print it as JSON (runs in a subprocess)."""
    t_import = time.perf_counter()
    from sa_align.index import build_index

    t0 = time.perf_counter()
    c0 = time.process_time()
    index = build_index(repo, cache_dir=Path(cache) if mode != "nocache" else None)
    wall = time.perf_counter() - t0
    own_cpu = time.process_time() - c0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss_kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, kids.ru_maxrss)
    print(json.dumps({
        "wall": wall, "cpu": own_cpu + kids.ru_utime + kids.ru_stime, "rss_mb": rss_kb / 1024,
        "import": t0 - t_import, "parsed": index.stats["parsed"], "files": index.stats["files"],
        "symbols": len(index.symbols), "values": len(index.values), "calls": len(index.calls),
    }))


def _run(mode: str, repo: Path, cache: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(repo), str(cache)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _run_cli(repo: Path, cache: Path) -> dict:
    """One whole `sa-align index` process: wall and CPU seconds, peak RSS (this checkout's code)."""
    import os

    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sa_align.cli", "index", str(repo), "--cache-dir", str(cache)],
                   check=True, capture_output=True, text=True, env=env, cwd=HERE.parent)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss_mb": after.ru_maxrss / 1024, "parsed": 0}


def main() -> None:
    ap = argparse.ArgumentParser(description="sa_align index speed benchmark")
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cli", action="store_true", help="time whole `sa-align index` processes")
    ap.add_argument("--child", nargs=3, metavar=("MODE", "REPO", "CACHE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(*args.child)
        return
    from gen_repo import generate

    with tempfile.TemporaryDirectory() as tmp:
        repo = generate(Path(tmp) / "repo", args.lines, seed=0)
        py_lines = sum(p.read_text().count("\n") for p in repo.rglob("*.py"))
        rows: dict[str, list[dict]] = {"cold": [], "warm": []}
        for i in range(args.runs):
            cache = Path(tmp) / f"cache{i}"
            run = (lambda mode: _run_cli(repo, cache)) if args.cli else (lambda mode: _run(mode, repo, cache))
            rows["cold"].append(run("cold"))
            rows["warm"].append(run("warm"))
        first = rows["cold"][0] if not args.cli else _run("warm", repo, Path(tmp) / "cache0")
        print(("whole `sa-align index` processes; " if args.cli else "") + f"repository: {py_lines} Python lines, {int(first['files'])} files, {first['symbols']} symbols, "
              f"{first['values']} values, {first['calls']} calls; {args.runs} runs, medians")
        print(f"{'run':<6}{'wall s':>9}{'cpu s':>9}{'peak MB':>10}{'parsed':>8}")
        for mode, runs in rows.items():
            med = {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu", "rss_mb", "parsed")}
            print(f"{mode:<6}{med['wall']:>9.2f}{med['cpu']:>9.2f}{med['rss_mb']:>10.0f}{int(med['parsed']):>8}")


if __name__ == "__main__":
    main()
