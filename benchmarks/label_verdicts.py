"""Precision of each label, judged by reading code: from the hand verdicts in `benchmarks/verdicts/labels.jsonl`.

    python benchmarks/label_verdicts.py [--verdicts benchmarks/verdicts/labels.jsonl]
    python benchmarks/label_verdicts.py --reports /tmp/authors --items /tmp/labelset/items.jsonl   # by decision path

For each label the library gave, and each kind of code (the authors' release, an agent's run) and
unit source (SA-Bench's claims, extracted units): how many verdicts, how many right, precision with
its 95% Wilson interval, and the most common right labels when it was wrong. A figure on fewer than
20 verdicts is an anecdote and is marked so. The second reader's agreement (Cohen's kappa on
`label_ok` and on the correct label) is reported over the items both judged.

With `--reports` (the drift reports the sample was drawn from, `benchmarks/authors_bench.py`'s
folder) and `--items` (`benchmarks/label_sample.py`'s sample), precision is also given per decision
path: the label, how the calibrated judge applied its probability (`Calibration.applied`) and which
judges voted for the label: which rule a wrong flag came from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from scipy.stats import binomtest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sa_align.bench.agreement import cohen_kappa  # noqa: E402

VERDICTS = Path(__file__).resolve().parent / "verdicts" / "labels.jsonl"
ANECDOTE = 20
"""Fewer verdicts than this make a precision an anecdote (`shared/LABELLING.md`)."""


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def wilson(right: int, n: int) -> tuple[float, float]:
    ci = binomtest(right, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def precision_rows(rows: list[dict], group) -> list[tuple]:
    """(group key, n, right, precision, low, high, wrong -> correct labels) over decided verdicts."""
    cells: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        if r.get("label_ok") is not None:
            cells[group(r)].append(r)
    out = []
    for key in sorted(cells):
        group_rows = cells[key]
        right = sum(1 for r in group_rows if r["label_ok"])
        low, high = wilson(right, len(group_rows))
        wrong = Counter(r.get("correct_label") or "?" for r in group_rows if not r["label_ok"])
        out.append((key, len(group_rows), right, right / len(group_rows), low, high, wrong))
    return out


def table(title: str, rows: list[tuple]) -> str:
    lines = [f"#### {title}", "", "| group | verdicts | right | precision | 95% Wilson | right label when wrong |",
             "|---|---|---|---|---|---|"]
    for key, n, right, p, low, high, wrong in rows:
        note = " (anecdote)" if n < ANECDOTE else ""
        lines.append(f"| {' / '.join(key)} | {n}{note} | {right} | {p:.2f} | {low:.2f}-{high:.2f} | "
                     f"{', '.join(f'{k} {v}' for k, v in wrong.most_common())} |")
    return "\n".join(lines)


def item_key(r: dict) -> tuple:
    return (r["run"], r.get("claim_id") or (r.get("paper_sha256"), tuple(r.get("span") or ()), r.get("kind")))


def agreement(first: list[dict], second: list[dict]) -> str:
    firsts = {item_key(r): r for r in first}
    pairs = [(firsts[item_key(r)], r) for r in second if item_key(r) in firsts]
    ok = [(str(a["label_ok"]), str(b["label_ok"])) for a, b in pairs
          if a.get("label_ok") is not None and b.get("label_ok") is not None]
    correct = [(a["correct_label"], b["correct_label"]) for a, b in pairs if a.get("correct_label") and b.get("correct_label")]
    if not ok:
        return "second reader: no verdicts yet"
    k_ok = cohen_kappa([a for a, _ in ok], [b for _, b in ok], ["True", "False"])
    labels = sorted({x for pair in correct for x in pair})
    k_label = cohen_kappa([a for a, _ in correct], [b for _, b in correct], labels) if correct else None
    agree = sum(a == b for a, b in ok) / len(ok)
    fmt = lambda k: "-" if k is None else f"{k:.3f}"  # noqa: E731
    return (f"second reader: {len(pairs)} items; label_ok raw agreement {agree:.1%}, Cohen's kappa {fmt(k_ok)}; "
            f"correct label kappa {fmt(k_label)} over {len(correct)}")


def with_paths(rows: list[dict], reports: Path, items: Path) -> list[dict]:
    """Each verdict with the decision path of the result it judged (read from the report it came from)."""
    sampled = {i["item"]: i for i in read(items)}
    cache: dict[Path, dict[str, dict]] = {}
    out = []
    for r in rows:
        item = sampled[r["item"]]
        path = reports / item["source"] / item["paper"] / f"{item['setup']}.json"
        if path not in cache:
            cache[path] = {x["unit"]["id"]: x for x in json.loads(path.read_text(encoding="utf-8"))["results"]}
        result = cache[path][item["unit_id"]]
        voters = sorted({v["judge"] for v in result["verdicts"] if not v["abstained"] and v["label"] == result["label"]})
        applied = (result.get("calibration") or {}).get("applied", "none")
        out.append({**r, "path": (result["label"], applied, "+".join(voters) or "no vote")})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verdicts", type=Path, default=VERDICTS)
    ap.add_argument("--reports", type=Path, help="the drift reports the sample was drawn from")
    ap.add_argument("--items", type=Path, help="the sample (`label_sample.py --out`/items.jsonl)")
    args = ap.parse_args(argv)
    rows = read(args.verdicts)
    first = [r for r in rows if r.get("reader", "first") == "first"]
    # A second verdict given after seeing the first is no independent reading (`blind: false`).
    second = [r for r in rows if r.get("reader") == "second" and r.get("blind", True)]
    undecided = sum(1 for r in first if r.get("label_ok") is None)
    junk = sum(1 for r in first if r.get("unit_ok") is False)
    print(f"{len(first)} first-reader verdicts ({undecided} undecided by the reader, {junk} on units that are no claim)\n")
    print(table("By label", precision_rows(first, lambda r: (r["label"],))), "\n")
    print(table("By label and code", precision_rows(first, lambda r: (r["label"], r["code"]))), "\n")
    print(table("By label, code and unit source", precision_rows(first, lambda r: (r["label"], r["code"], r["source"]))), "\n")
    if args.reports and args.items:
        paths = with_paths(first, args.reports, args.items)
        print(table("By decision path (label / calibrated step / voting judges)", precision_rows(paths, lambda r: r["path"])), "\n")
    print(agreement(first, second))
    return 0


if __name__ == "__main__":
    sys.exit(main())
