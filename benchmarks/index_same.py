"""Check that two source trees of sa_align build the same index of the same repositories.

    python benchmarks/index_same.py --checkout PATH [--lines 100000] [REPO ...]

For each repository (the generated one of `gen_repo.py` at `--lines`, then each
REPO given, e.g. `benchmarks/cases/*/repo`), builds the index in fresh processes
with this checkout and with `--checkout` (e.g. an export of main): cold without a
cache, cold into an empty cache, and warm from that cache. Every build is
serialized (all fields but `stats` and `root`, and the file texts it keeps, as JSON)
and hashed; the command
fails unless all hashes of a repository agree. Speed is not measured here
(`index_speed.py` does that).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
MODES = ("nocache", "cold", "warm")


def _child(repo: str, cache: str, workers: str) -> None:
    """Build every mode's index of `repo` with the code on PYTHONPATH; print one hash per mode."""
    from sa_align.config import IndexConfig
    from sa_align.index import build_index

    config = IndexConfig(workers=int(workers) if workers != "auto" else None)
    out = {}
    for mode in MODES:
        index = build_index(repo, config, cache_dir=None if mode == "nocache" else Path(cache))
        dumped = index.model_dump(mode="json", exclude={"stats", "root"})
        dumped["file_texts"] = {f.path: index.file_text(f.path) for f in index.files}
        blob = json.dumps(dumped, sort_keys=True).encode()
        out[mode] = {"sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob),
                     "facts": {k: len(v) for k, v in dumped.items() if isinstance(v, list)}}
    print(json.dumps(out))


def _hashes(checkout: Path, repo: Path, workers: str) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        out = subprocess.run([sys.executable, __file__, "--child", str(repo), cache, workers],
                             capture_output=True, text=True, env=env, cwd=checkout)
    if out.returncode != 0:
        raise SystemExit(f"indexing {repo} with {checkout} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(repo: Path, checkouts: dict[str, Path], workers: list[str]) -> bool:
    runs = {f"{name} workers={w} {mode}": got
            for name, path in checkouts.items() for w in workers
            for mode, got in _hashes(path, repo, w).items()}
    distinct = {r["sha256"] for r in runs.values()}
    first = next(iter(runs.values()))
    print(f"{repo}: {len(runs)} builds, {'same' if len(distinct) == 1 else 'DIFFERENT'} "
          f"({first['bytes']} bytes; {json.dumps(first['facts'])})")
    if len(distinct) > 1:
        for label, r in runs.items():
            print(f"  {r['sha256'][:16]}  {label}")
    return len(distinct) == 1


def main() -> None:
    ap = argparse.ArgumentParser(description="compare the indexes two sa_align source trees build")
    ap.add_argument("repos", nargs="*", type=Path, help="further repositories to compare on")
    ap.add_argument("--checkout", type=Path, help="the other sa_align source tree (required)")
    ap.add_argument("--lines", type=int, default=100_000, help="size of the generated repository (0: none)")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(*args.child)
        return
    if args.checkout is None:
        ap.error("--checkout is required")
    checkouts = {"this": HERE.parent, "other": args.checkout.resolve()}
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        repos = list(args.repos)
        if args.lines:
            from gen_repo import generate

            repos.insert(0, generate(Path(tmp) / "repo", args.lines, seed=0))
        for repo in repos:
            # One worker and the default: the parallel path must give what the serial one gives.
            ok &= compare(repo.resolve(), checkouts, ["1", "auto"])
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
