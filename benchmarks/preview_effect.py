"""What the preview policy changes on every unit of two runs of `benchmarks/authors_bench.py`.

    python benchmarks/authors_bench.py --out /tmp/authors-rules --preview   # every rule decides
    python benchmarks/authors_bench.py --out /tmp/authors-default           # preview rules' failures held
    python benchmarks/preview_effect.py /tmp/authors-rules /tmp/authors-default

For the authors' released code and the agents' runs apart, and for SA-Bench's claims and extracted
units apart: the labels before and after, how many units changed label, the share of decided units
that carry a failure label, and how many findings the policy held back.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

LABELS = ("aligned", "mismatched", "missing", "stubbed", "misattributed", "undecided")


def _results(folder: Path) -> dict[tuple, dict]:
    """(source, paper, run, unit id) -> result, with `who` the authors' code or an agent's."""
    out = {}
    for path in sorted(folder.glob("*/*/*.json")):
        source, paper, run = path.parent.parent.name, path.parent.name, path.stem
        for r in json.loads(path.read_text(encoding="utf-8"))["results"]:
            out[(source, paper, run, r["unit"]["id"])] = r
    return out


def effect(before: dict[tuple, dict], after: dict[tuple, dict]) -> list[str]:
    lines = ["| units | code | labels with --preview | labels by default | changed | held | failure share of decided: --preview / default |",
             "|---|---|---|---|---|---|---|"]
    for source in ("claims", "extracted"):
        for who in ("authors", "agent"):
            keys = [k for k in before if k[0] == source and (k[2] == "authors") == (who == "authors") and k in after]
            b, a = Counter(before[k]["label"] for k in keys), Counter(after[k]["label"] for k in keys)
            changed = sum(before[k]["label"] != after[k]["label"] for k in keys)
            held = sum(after[k].get("held_label") is not None for k in keys)
            lines.append(f"| {source} | {who} | {_counts(b)} | {_counts(a)} | {changed} of {len(keys)} | {held} | "
                         f"{_failure_share(b)} / {_failure_share(a)} |")
    return lines


def _counts(c: Counter) -> str:
    return ", ".join(f"{lb} {c[lb]}" for lb in LABELS if c[lb])


def _failure_share(c: Counter) -> str:
    decided = sum(n for lb, n in c.items() if lb != "undecided")
    failures = sum(n for lb, n in c.items() if lb not in ("aligned", "undecided"))
    return f"{failures / decided:.2f}" if decided else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", type=Path, help="reports made with --preview")
    ap.add_argument("after", type=Path, help="reports made by default")
    args = ap.parse_args(argv)
    print("\n".join(effect(_results(args.before), _results(args.after))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
