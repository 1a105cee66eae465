"""Where a cold `sa-align index` of the generated repository spends its time, and the least it could take.

    python benchmarks/index_floor.py [--lines 100000] [--runs 5]

Each part is measured on its own, in fresh subprocesses, medians over `--runs`:

- `start`: a whole `sa-align index` process on a repository of one empty file (interpreter,
  imports, walk, summary, exit): what every call pays before and after indexing;
- `parse` and `match`: CPU seconds of tree-sitter alone, parsing every Python file and running
  the compiled query over each tree, serially in one process (C code: no Python facts are built);
- `extract`: CPU seconds of `extract_file` over every file, serially (parse and match included);
- `assemble`: call resolution, entry points and reachability over the extracted facts (serial
  in the parent process after the workers finish).

The floor is what the command would take on `--cores` idle cores if building the facts in Python
cost nothing: `start + (parse + match) / cores + assemble`. `extract - parse - match` is the
Python side that the cold target leaves room for.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _parts(repo: str) -> dict[str, float]:
    """Serial CPU seconds of each part of a cold build (runs in a subprocess)."""
    from tree_sitter import QueryCursor

    from sa_align.index.build import _assemble, snapshot
    from sa_align.index.extract import extract_file, prepare
    from sa_align.index.queries import parser, query

    snap = snapshot(repo)
    prepare()
    sources = [blob for rel, blob in snap.data.items() if rel.endswith(".py")]
    py, q = parser("python"), query("python")
    t = time.process_time()
    trees = [py.parse(blob) for blob in sources]
    parse = time.process_time() - t
    t = time.process_time()
    for tree in trees:
        QueryCursor(q).matches(tree.root_node)
    match = time.process_time() - t
    t = time.process_time()
    facts = [extract_file(rel, blob) for rel, blob in sorted(snap.data.items())]
    extract = time.process_time() - t
    t = time.process_time()
    _assemble(snap.root, snap.content, facts, snap.walked.skipped)
    return {"parse": parse, "match": match, "extract": extract, "assemble": time.process_time() - t}


def _start(tmp: Path, run: int) -> float:
    """Wall seconds of a whole `sa-align index` process on a one-file repository."""
    tiny = tmp / "tiny"
    tiny.mkdir(exist_ok=True)
    (tiny / "empty.py").write_text("")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sa_align.cli", "index", str(tiny), "--cache-dir", str(tmp / f"c{run}")],
                   check=True, capture_output=True, cwd=HERE.parent)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--child", metavar="REPO", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(_parts(args.child)))
        return
    from gen_repo import generate

    with tempfile.TemporaryDirectory() as tmp:
        repo = generate(Path(tmp) / "repo", args.lines, seed=0)
        runs = []
        for i in range(args.runs):
            out = subprocess.run([sys.executable, __file__, "--child", str(repo)], check=True, capture_output=True,
                                 text=True, cwd=HERE.parent)
            runs.append({**json.loads(out.stdout.strip().splitlines()[-1]), "start": _start(Path(tmp), i)})
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    floor = med["start"] + (med["parse"] + med["match"]) / args.cores + med["assemble"]
    print(f"{args.runs} runs, medians: start {med['start']:.2f} s wall; serial CPU s: parse {med['parse']:.2f}, "
          f"match {med['match']:.2f}, extract {med['extract']:.2f} (Python side {med['extract'] - med['parse'] - med['match']:.2f}), "
          f"assemble {med['assemble']:.2f}")
    print(f"floor on {args.cores} idle cores with the Python side free: {floor:.2f} s; "
          f"with it: {med['start'] + med['extract'] / args.cores + med['assemble']:.2f} s")


if __name__ == "__main__":
    main()
