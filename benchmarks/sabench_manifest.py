"""Export SA-Bench's development runs into a folder and write a `sa-align batch` manifest of them.

    python benchmarks/sabench_manifest.py /path/to/SA-Bench OUT [--setups S ...]

Reads a fetched SA-Bench checkout or git directory with `sa_align.bench.sabench`
(the development split only; the held-out papers are never read). Per run it
writes the repository without its judge output (`repo/result/`), the paper, and
the run's claims as a units file (id, claim and source only: never the reference
score), then one manifest line. A run without a repository gets an empty folder
(SA-Bench scores it 0); a run the reader skips is left out and counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sa_align.bench.sabench.dataset import RunSkipped, claim_units, read_scores, tables  # noqa: E402
from sa_align.bench.sabench.runner import _has_repo, _paper, run_paths  # noqa: E402
from sa_align.unitsfile import save_units  # noqa: E402


def export(source_path: Path, out: Path, setups: list[str] | None) -> tuple[Path, int, int]:
    source, runs = run_paths(source_path, None, setups)
    lines, skipped = [], 0
    for run in runs:
        try:
            scores = read_scores(source, run)
            paper = _paper(source, run.paper, out)
        except RunSkipped:
            skipped += 1
            continue
        repo = out / "repos" / run.setup / run.paper
        repo.mkdir(parents=True, exist_ok=True)
        if _has_repo(source, run):
            source.export(run.repo, repo, skip=tables().result_dir)
        units = out / "units" / run.setup / f"{run.paper}.yaml"
        units.parent.mkdir(parents=True, exist_ok=True)
        save_units(claim_units(scores.claims), units)
        lines.append({"id": f"{run.setup}--{run.paper}", "paper": str(paper), "repo": str(repo), "units": str(units)})
    manifest = out / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return manifest, len(lines), skipped


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--setups", action="append", default=None)
    args = ap.parse_args()
    manifest, n, skipped = export(args.source, args.out, args.setups)
    print(f"{manifest}: {n} runs ({skipped} skipped by the reader)")


if __name__ == "__main__":
    main()
