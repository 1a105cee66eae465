"""Whole-process speed of offline extraction and of a cold offline `evaluate` on a 40-page paper.

    python benchmarks/extract_speed.py [--paper PAPER.md] [--lines 2000] [--runs 3] [--out FILE.json]

Wall time (`*_s`) and CPU time of the child (`*_cpu_s`, user + system; steadier on a shared machine).

- `extract_s`: `python -m sa_align.cli extract PAPER` as a fresh process (imports, loading,
  regions, tables, rules, budget, writing the units file), median of `--runs`;
- `evaluate_cold_s`: `python -m sa_align.cli evaluate PAPER REPO --no-embeddings` with an empty
  cache, the units extracted in the run, on a generated repository of `--lines` lines
  (`benchmarks/gen_repo.py`), median of `--runs`. No embedding model is loaded.

Without `--paper`, a 40-page paper is assembled from the benchmark cases' papers (text, math,
Markdown tables) with converter-style HTML hyperparameter tables, a contents page and a
reference list, about 6,000 characters per page.
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

ROOT = Path(__file__).resolve().parent.parent
PAGE_CHARS = 6000


def synthetic_paper(pages: int = 40) -> str:
    """A converted-looking paper of about `pages` pages built from the cases' own papers."""
    bodies = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "benchmarks" / "cases").glob("*/paper.md"))]
    toc = "\n".join(f"{i}.1 Section {i} . . . . {i + 1}" for i in range(1, 9))
    parts = ["# A Long Paper\n\n# Contents\n\n" + toc + "\n"]
    i = 0
    while sum(map(len, parts)) < pages * PAGE_CHARS:
        body = bodies[i % len(bodies)].replace("\n# ", f"\n# {i + 1}.")
        table = (
            f"\n\nTable {i + 1}: Hyperparameters of run {i}.\n\n<table><tr><td></td><td>Hyperparameter</td><td>Stage 1</td>"
            f"<td>Stage 2</td></tr><tr><td rowspan=\"2\">Optim</td><td>Learning rate</td><td>{i + 1}e- 4</td><td>1e-5</td></tr>"
            f"<tr><td>Batch size</td><td>{64 * (1 + i % 4)}</td><td>256</td></tr></table>\n\n{i + 2}\n\n"
        )
        parts.append(body + table)
        i += 1
    parts.append("# References\n\n" + "\n\n".join(f"[{k}] A. Author. Title {k}. 2020." for k in range(1, 120)))
    return "".join(parts)


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", type=Path, help="paper to time (default: a synthetic 40-page paper)")
    ap.add_argument("--lines", type=int, default=2000, help="lines of the generated repository")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--src", type=Path, default=ROOT, help="checkout whose sa_align is timed (for side-by-side ratios)")
    args = ap.parse_args(argv)
    py = [sys.executable, "-m", "sa_align.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        paper = args.paper.resolve() if args.paper else work / "paper.md"
        if not args.paper:
            paper.write_text(synthetic_paper(), encoding="utf-8")
        repo = work / "repo"
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gen_repo.py"), str(repo), "--lines", str(args.lines), "--seed", "0"], check=True, capture_output=True)
        extract = [timed([*py, "extract", str(paper), "-o", str(work / "units.yaml")], args.src) for _ in range(args.runs)]
        cold = []
        for r in range(args.runs):
            cache = work / f"cache{r}"
            cmd = [*py, "evaluate", str(paper), str(repo), "--no-embeddings", "--cache-dir", str(cache), "-o", str(work / f"out{r}"), "-q"]
            cold.append(timed(cmd, args.src))
        units = len([line for line in (work / "units.yaml").read_text(encoding="utf-8").splitlines() if line.startswith("- id:")])
        result = {
            "paper_chars": len(paper.read_text(encoding="utf-8")),
            "repo_lines": args.lines,
            "units": units,
            "extract_s": round(statistics.median(w for w, _ in extract), 2),
            "extract_cpu_s": round(statistics.median(c for _, c in extract), 2),
            "evaluate_cold_s": round(statistics.median(w for w, _ in cold), 2),
            "evaluate_cold_cpu_s": round(statistics.median(c for _, c in cold), 2),
            "runs": args.runs,
        }
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
