"""Start-up cost: `import sa_align` and `sa-align --help`, medians over repeated cold processes.

    python benchmarks/startup.py [--runs 15]
    python benchmarks/startup.py --runs 15 --against /tmp/main   # side by side with another source tree

With `--against`, each command runs alternately from this checkout and from the other
tree (each first on `PYTHONPATH`), so both see the same machine load; the table gives
both medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "python -c 'pass' (interpreter floor)": [sys.executable, "-c", "pass"],
    "import sa_align": [sys.executable, "-c", "import sa_align"],
    "import sa_align + models": [sys.executable, "-c", "import sa_align; sa_align.DriftReport"],
    "sa-align --help": [sys.executable, "-m", "sa_align.cli", "--help"],
}


def seconds(cmd: list[str], tree: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env, cwd=tree)
    return time.perf_counter() - start


def medians(cmd: list[str], trees: list[Path], runs: int) -> list[float]:
    times: list[list[float]] = [[] for _ in trees]
    for _ in range(runs):
        for i, tree in enumerate(trees):
            times[i].append(seconds(cmd, tree))
    return [statistics.median(t) for t in times]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--against", type=Path, help="another source tree to time side by side")
    args = parser.parse_args()
    trees = [ROOT] + ([args.against.resolve()] if args.against else [])
    if len(trees) == 1:
        print("| command | median s |\n|---|---|")
    else:
        print(f"| command | this tree, median s | {args.against}, median s | ratio |\n|---|---|---|---|")
    for name, cmd in CASES.items():
        m = medians(cmd, trees, args.runs)
        cells = " | ".join(f"{x:.3f}" for x in m) + (f" | {m[0] / m[1]:.2f}" if len(m) == 2 else "")
        print(f"| {name} | {cells} |")


if __name__ == "__main__":
    main()
