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

`--against PATH` measures another source tree of sa_align (e.g. an export of
main) in the same session: each run times both trees, one after the other in
alternating order, and the medians of both and their ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import os
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


def _env(checkout: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(checkout)}


def _run(mode: str, repo: Path, cache: Path, checkout: Path = HERE.parent) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(repo), str(cache)],
                         check=True, capture_output=True, text=True, env=_env(checkout), cwd=checkout)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _run_cli(repo: Path, cache: Path, checkout: Path = HERE.parent) -> dict:
    """One whole `sa-align index` process: wall and CPU seconds, peak RSS (the code of `checkout`)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sa_align.cli", "index", str(repo), "--cache-dir", str(cache)],
                   check=True, capture_output=True, text=True, env=_env(checkout), cwd=checkout)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss_mb": after.ru_maxrss / 1024, "parsed": 0}


def main() -> None:
    ap = argparse.ArgumentParser(description="sa_align index speed benchmark")
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cli", action="store_true", help="time whole `sa-align index` processes")
    ap.add_argument("--against", type=Path, help="another sa_align source tree, measured alternately")
    ap.add_argument("--child", nargs=3, metavar=("MODE", "REPO", "CACHE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(*args.child)
        return
    from gen_repo import generate

    trees = {"this": HERE.parent, **({"against": args.against.resolve()} if args.against else {})}
    with tempfile.TemporaryDirectory() as tmp:
        repo = generate(Path(tmp) / "repo", args.lines, seed=0)
        py_lines = sum(p.read_text().count("\n") for p in repo.rglob("*.py"))
        rows = {name: {"cold": [], "warm": []} for name in trees}
        for i in range(args.runs):
            # Alternate which tree goes first, so neither always meets the same machine state.
            for name in (list(trees) if i % 2 == 0 else list(trees)[::-1]):
                cache = Path(tmp) / f"cache-{name}-{i}"
                run = _run_cli if args.cli else (lambda repo, cache, checkout: _run("cold", repo, cache, checkout))
                rows[name]["cold"].append(run(repo, cache, trees[name]))
                rows[name]["warm"].append(run(repo, cache, trees[name]) if args.cli
                                          else _run("warm", repo, cache, trees[name]))
        first = _run("warm", repo, Path(tmp) / "cache-this-0")
        print(("whole `sa-align index` processes; " if args.cli else "") + f"repository: {py_lines} Python lines, {int(first['files'])} files, {first['symbols']} symbols, "
              f"{first['values']} values, {first['calls']} calls; {args.runs} runs, medians")
        print(f"{'tree':<9}{'run':<6}{'wall s':>9}{'cpu s':>9}{'peak MB':>10}{'parsed':>8}")
        medians = {}
        for name, by_mode in rows.items():
            for mode, runs in by_mode.items():
                med = medians[name, mode] = {k: statistics.median(r[k] for r in runs)
                                             for k in ("wall", "cpu", "rss_mb", "parsed")}
                print(f"{name:<9}{mode:<6}{med['wall']:>9.2f}{med['cpu']:>9.2f}{med['rss_mb']:>10.0f}"
                      f"{int(med['parsed']):>8}")
        if args.against:
            print(f"against: {trees['against']}")
            for mode in ("cold", "warm"):
                this, other = medians["this", mode], medians["against", mode]
                print(f"ratio {mode} (this / against): wall {this['wall'] / other['wall']:.2f}, "
                      f"cpu {this['cpu'] / other['cpu']:.2f}")


if __name__ == "__main__":
    main()
