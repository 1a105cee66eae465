"""Would a per-repository base rate tell the authors' code from the agents'? An offline trial of prior shift.

    python benchmarks/prior_shift.py REPORTS [--train-prior 0.085]

REPORTS is a folder `benchmarks/authors_bench.py` wrote. For each repository, the calibrated judge's
probabilities of its units (trained where about 8.5% of claims are faithful) are re-weighted to the
base rate that the repository's own units imply, by the expectation-maximisation of Saerens, Latinne
and Decaestecker (2002). Reported per unit source: the estimated base rate on the authors' code and on
the agents' runs (medians), and on how many papers the authors' code ranks above every agent run by
the report's headline (the expected score), by the mean probability, and by the re-weighted mean
probability, over all papers and over those whose release covers the claims' experiments.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import yaml

MANIFEST = Path(__file__).resolve().parent / "authors" / "manifest.yaml"


def shifted(p: list[float], train_prior: float, iters: int = 500) -> tuple[float, np.ndarray]:
    """The base rate the probabilities imply and the probabilities re-weighted to it (Saerens et al., EM)."""
    q = np.clip(np.asarray(p, float), 1e-6, 1 - 1e-6)
    prior = train_prior
    for _ in range(iters):
        up, down = prior / train_prior * q, (1 - prior) / (1 - train_prior) * (1 - q)
        post = up / (up + down)
        if abs(post.mean() - prior) < 1e-9:
            break
        prior = float(post.mean())
    return prior, post


def scores(reports: Path, source: str, train_prior: float) -> dict[str, dict[str, tuple[float, float, float, float]]]:
    """paper -> run -> (estimated base rate, expected score, mean probability, re-weighted mean)."""
    out: dict[str, dict] = defaultdict(dict)
    for path in sorted(reports.glob(f"{source}/*/*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        p = [r["calibration"]["probability"] for r in report["results"]
             if (r.get("calibration") or {}).get("probability") is not None]
        if not p:
            continue
        prior, post = shifted(p, train_prior)
        out[path.parent.name][path.stem] = (prior, report["summary"].get("expected_score") or 0.0,
                                            float(np.mean(p)), float(post.mean()))
    return out


def first(runs: dict[str, tuple], i: int) -> bool:
    """The authors' code above every agent run by figure `i` (a tie counts against the authors)."""
    return "authors" in runs and all(runs["authors"][i] > v[i] for k, v in runs.items() if k != "authors")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", type=Path)
    ap.add_argument("--train-prior", type=float, default=0.085)
    args = ap.parse_args(argv)
    covered = {e["paper"] for e in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
               if str(e.get("experiments_covered")).lower() == "true"}
    print("| units | base rate: authors / agents (median) | authors first, all papers: expected score / mean p / shifted | covered papers: same |")
    print("|---|---|---|---|")
    for source in ("claims", "extracted"):
        by_paper = {p: r for p, r in scores(args.reports, source, args.train_prior).items() if "authors" in r}
        authors = [r["authors"][0] for r in by_paper.values()]
        agents = [v[0] for r in by_paper.values() for k, v in r.items() if k != "authors"]
        cells = [" / ".join(str(sum(first(r, i) for p, r in papers)) for i in (1, 2, 3)) + f" of {len(papers)}"
                 for papers in (list(by_paper.items()), [(p, r) for p, r in by_paper.items() if p in covered])]
        print(f"| {source} | {statistics.median(authors):.3f} / {statistics.median(agents):.3f} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
