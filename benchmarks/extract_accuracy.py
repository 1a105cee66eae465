"""Numerical recall and precision of the offline rule extractor against the benchmark cases' gold units.

    python benchmarks/extract_accuracy.py [--cases benchmarks/cases] [--verbose]
    python benchmarks/extract_accuracy.py --sabench /path/to/SA-Bench [--papers mrq,olmoe] [--verbose]

The second form measures against SA-Bench's reviewed claims on its development papers
(`benchmarks/sabench_claims.py` says what is counted).

Every param of a gold `numerical` unit in `<case>/units.yaml` is one gold item; every param of
an extracted numerical or protocol unit (seeds, runs) is one predicted item. Tuple names are split into their parts
(`betas = (0.9, 0.999)` -> `beta1 = 0.9`, `beta2 = 0.999`). A gold item is recalled when some
predicted item has the same canonical name (through the alias table) and an equal value
(percent-aware, relative tolerance 1e-6; lists compare element by element). A predicted
item is correct when it recalls some gold item. Gold sets may leave some stated values
unannotated, so precision is a lower bound.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from sa_align.aliases import canonical_param, param_components
from sa_align.config import EvalConfig
from sa_align.extract import extract_units
from sa_align.models import Param, UnitKind
from sa_align.numbers import values_equal
from sa_align.paper import load_paper

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
Item = tuple[str, tuple]


@dataclass
class CaseScore:
    case: str
    gold: list[Item]
    predicted: list[Item]
    recalled: list[Item]
    correct: list[Item]
    quotes: dict[Item, str]


def atoms(p: Param | dict) -> list[Item]:
    """A param as `(canonical name, values)` items, tuples split into their component parameters."""
    p = p if isinstance(p, Param) else Param.model_validate(p)
    name = canonical_param(p.name) or p.name
    values = [p.value] if p.value is not None else list(p.values)
    parts = param_components(name)
    if parts and len(parts) == len(values) and p.shape == "sequence":
        return [(part, (v,)) for part, v in zip(parts, values)]
    return [(name, tuple(values))]


def same(a: Item, b: Item) -> bool:
    return a[0] == b[0] and len(a[1]) == len(b[1]) and all(values_equal(x, y) for x, y in zip(a[1], b[1]))


def score_case(case_dir: Path) -> CaseScore:
    meta = yaml.safe_load((case_dir / "case.yaml").read_text(encoding="utf-8"))
    gold_units = yaml.safe_load((case_dir / meta.get("units", "units.yaml")).read_text(encoding="utf-8"))["units"]
    gold = [a for u in gold_units if u.get("kind") == "numerical" for p in u.get("params", []) for a in atoms(p)]
    paper = load_paper(case_dir / meta.get("paper", "paper.md"))
    # Counts of seeds and runs are protocol units carrying a param; they are numeric claims all the same.
    units = [u for u in extract_units(paper) if u.kind in (UnitKind.NUMERICAL, UnitKind.PROTOCOL)]
    predicted = [a for u in units for p in u.params for a in atoms(p)]
    quotes = {a: u.quote for u in units for p in u.params for a in atoms(p)}
    recalled = [g for g in gold if any(same(g, p) for p in predicted)]
    correct = [p for p in predicted if any(same(p, g) for g in gold)]
    return CaseScore(case_dir.name, gold, predicted, recalled, correct, quotes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=Path, default=ROOT / "cases")
    ap.add_argument("--verbose", action="store_true", help="list missed gold items and unmatched predictions")
    ap.add_argument("--sabench", type=Path, help="SA-Bench checkout or git directory: score against its claims")
    ap.add_argument("--papers", help="comma-separated development papers (default: all 20)")
    ap.add_argument("--setup", default="claude-sonnet", help="SA-Bench run whose paper copy and claims are read")
    ap.add_argument("--max-units", type=int, default=80, help="unit budget per paper (0: no budget)")
    args = ap.parse_args(argv)
    if args.sabench:
        return sabench_main(args)
    cases = sorted(d for d in args.cases.iterdir() if (d / "case.yaml").is_file())
    if not cases:
        print(f"no cases under {args.cases}", file=sys.stderr)
        return 2
    totals = [0, 0, 0, 0]
    print(f"{'case':<16}{'gold':>6}{'pred':>6}{'recall':>9}{'precision':>11}")
    for d in cases:
        s = score_case(d)
        rec = len(s.recalled) / len(s.gold) if s.gold else float("nan")
        prec = len(s.correct) / len(s.predicted) if s.predicted else float("nan")
        print(f"{s.case:<16}{len(s.gold):>6}{len(s.predicted):>6}{rec:>9.1%}{prec:>11.1%}")
        if args.verbose:
            for g in s.gold:
                if g not in s.recalled:
                    print(f"    missed    {g[0]} = {list(g[1])}")
            for p in s.predicted:
                if p not in s.correct:
                    quote = " ".join(s.quotes.get(p, "").split())[:150]
                    print(f"    unmatched {p[0]} = {list(p[1])}  <- {quote}")
        for i, n in enumerate((len(s.gold), len(s.predicted), len(s.recalled), len(s.correct))):
            totals[i] += n
    gold, pred, recalled, correct = totals
    print(f"{'total':<16}{gold:>6}{pred:>6}{recalled / max(gold, 1):>9.1%}{correct / max(pred, 1):>11.1%}")
    return 0



def sabench_main(args: argparse.Namespace) -> int:
    """Numerical and entity recall, unit counts and off-limits quotes against SA-Bench's claims."""
    from sabench_claims import dev_papers, is_result, load, score_paper

    papers = args.papers.split(",") if args.papers else list(dev_papers())
    tot = [0] * 7
    ratios = []
    print(f"{'paper':<34}{'pairs':>6}{'recall':>8}{'ents':>6}{'recall':>8}{'units':>7}{'claims':>7}{'ratio':>7}{'off':>5}")
    for name in papers:
        markdown, claims = load(args.sabench, name, args.setup)
        # Commits before the unit budget have no `max_units`; they are measured as they were.
        budget = {"max_units": args.max_units or None} if "max_units" in EvalConfig.model_fields else {}
        config = EvalConfig(**budget)
        s = score_paper(name, markdown, claims, lambda paper: extract_units(paper, config))
        ratio = s.units / max(s.claims, 1)
        ratios.append(ratio)
        rec = len(s.recalled) / max(len(s.pairs), 1)
        erec = len(s.entities_found) / max(len(s.entities), 1)
        print(f"{name:<34}{len(s.pairs):>6}{rec:>8.1%}{len(s.entities):>6}{erec:>8.1%}{s.units:>7}{s.claims:>7}{ratio:>7.2f}{s.off_limits:>5}")
        if args.verbose:
            for p in s.pairs:
                if p not in s.recalled:
                    print(f"    missed    {p[1]:g}  <- {p[0]}")
        settings = [p for p in s.pairs if not is_result(p)]
        counts = (len(s.pairs), len(s.recalled), len(s.entities), len(s.entities_found), s.off_limits,
                  len(settings), sum(p in s.recalled for p in settings))
        for i, n in enumerate(counts):
            tot[i] += n
    within = sum(0.5 <= r <= 2 for r in ratios)
    print(f"numerical recall {tot[1]}/{tot[0]} = {tot[1] / max(tot[0], 1):.1%} "
          f"(values a metric names, results, left out: {tot[6]}/{tot[5]} = {tot[6] / max(tot[5], 1):.1%}); "
          f"D3 entity recall {tot[3]}/{tot[2]} = {tot[3] / max(tot[2], 1):.1%}; "
          f"units within 0.5x-2x of the claim count: {within}/{len(ratios)}; off-limits quotes: {tot[4]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
