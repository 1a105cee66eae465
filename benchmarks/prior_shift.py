"""Would a per-repository base rate tell the authors' code from the agents'? An offline trial of prior shift.

    python benchmarks/prior_shift.py REPORTS [--train-prior 0.085]
    python benchmarks/prior_shift.py REPORTS --levels   # reports made with `authors_bench.py --record-features`

REPORTS is a folder `benchmarks/authors_bench.py` wrote. For each repository, the calibrated judge's
probabilities of its units (trained where about 8.5% of claims are faithful) are re-weighted to the
base rate that the repository's own units imply, by the expectation-maximisation of Saerens, Latinne
and Decaestecker (2002). Reported per unit source: the estimated base rate on the authors' code and on
the agents' runs (medians), and on how many papers the authors' code ranks above every agent run by
the report's headline (the expected score), by the mean probability, and by the re-weighted mean
probability, over all papers and over those whose release covers the claims' experiments.

With `--levels`, the same is done on the level head (the expected score, the report's headline): each
unit's probabilities over SA-Bench's five levels, recomputed from its recorded inputs with the shipped
model, are re-weighted to the level frequencies the repository implies (multiclass EM, from the level
frequencies of the 11,952 development claims the model was trained on), and the repositories are
ranked by the re-weighted expected score.
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
TRAIN_LEVELS = np.array([4443, 5381, 1115, 426, 587]) / 11952
"""SA-Bench's reference levels (0, 0.25, 0.5, 0.75, 1) over the 11,952 development claims the shipped model
was trained on (the confusion table of `sa-align bench SA-BENCH --sabench`)."""


def shifted(p: list[float], train_prior: float) -> tuple[float, np.ndarray]:
    """The base rate the probabilities imply and the probabilities re-weighted to it: the two-class case
    of `shifted_levels`."""
    q = np.clip(np.asarray(p, float), 1e-6, 1 - 1e-6)
    post = shifted_levels(np.column_stack([1 - q, q]), np.array([1 - train_prior, train_prior]))[:, 1]
    return float(post.mean()), post


def shifted_levels(probs: np.ndarray, train: np.ndarray = TRAIN_LEVELS, iters: int = 500) -> np.ndarray:
    """Level probabilities (units x levels) re-weighted to the level frequencies they imply (Saerens et al.'s EM)."""
    prior = train.copy()
    post = probs
    for _ in range(iters):
        post = probs * (prior / train)
        post /= post.sum(axis=1, keepdims=True)
        new = post.mean(axis=0)
        if np.abs(new - prior).max() < 1e-9:
            break
        prior = new
    return post


def level_scores(reports: Path, source: str) -> dict[str, dict[str, tuple[float, float, float, float]]]:
    """paper -> run -> (estimated share of faithful levels, expected score, the model's mean expected score,
    the re-weighted mean expected score), from the recorded inputs."""
    from sa_align.calibrate.model import load_model

    model = load_model()
    levels = np.array(model.levels.classes)
    out: dict[str, dict] = defaultdict(dict)
    for path in sorted(reports.glob(f"{source}/*/*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        rows = [r["calibration"]["features"] for r in report["results"] if (r.get("calibration") or {}).get("features")]
        if not rows:
            continue
        logits = model.inputs(rows) @ np.array(model.levels.coef).T + np.array(model.levels.intercept)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        post = shifted_levels(probs)
        out[path.parent.name][path.stem] = (float(post[:, levels >= 0.75].sum(axis=1).mean()),
                                            report["summary"].get("expected_score") or 0.0,
                                            float((probs @ levels).mean()), float((post @ levels).mean()))
    return out


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
    ap.add_argument("--levels", action="store_true", help="the level head (needs reports with recorded inputs)")
    args = ap.parse_args(argv)
    covered = {e["paper"] for e in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
               if str(e.get("experiments_covered")).lower() == "true"}
    what = "faithful levels' share" if args.levels else "base rate"
    mean = "model's expected score" if args.levels else "mean p"
    print(f"| units | {what}: authors / agents (median) | authors first, all papers: headline / {mean} / shifted | covered papers: same |")
    print("|---|---|---|---|")
    for source in ("claims", "extracted"):
        figures = level_scores(args.reports, source) if args.levels else scores(args.reports, source, args.train_prior)
        by_paper = {p: r for p, r in figures.items() if "authors" in r}
        authors = [r["authors"][0] for r in by_paper.values()]
        agents = [v[0] for r in by_paper.values() for k, v in r.items() if k != "authors"]
        cells = [" / ".join(str(sum(first(r, i) for p, r in papers)) for i in (1, 2, 3)) + f" of {len(papers)}"
                 for papers in (list(by_paper.items()), [(p, r) for p, r in by_paper.items() if p in covered])]
        print(f"| {source} | {statistics.median(authors):.3f} / {statistics.median(agents):.3f} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
