"""The hand-judged labels again, with this checkout's judges: how a change to the judges moves them.

    python benchmarks/label_rejudge.py REPORTS SAMPLE [--sabench PATH] [--labels stubbed,misattributed]

REPORTS is the folder of drift reports the sample was drawn from (`benchmarks/authors_bench.py`),
SAMPLE the folder `benchmarks/label_sample.py --export` wrote (`items.jsonl` and `repos/`). Each
sampled unit, read from its report, is judged again on its run's exported code, offline, and its new
label is scored against the frozen first-reader verdict (`benchmarks/verdicts/labels.jsonl`): an
unchanged label keeps its verdict; a changed one is right when it is the verdict's correct label;
`undecided` raises no flag and is counted apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from label_verdicts import VERDICTS, read  # noqa: E402
from sabench_claims import load  # noqa: E402

from sa_align.config import EvalConfig  # noqa: E402
from sa_align.models import Unit, UnitResult  # noqa: E402
from sa_align.paper import paper_from_text  # noqa: E402
from sa_align.pipeline import evaluate  # noqa: E402


def relabel(items: list[dict], reports: Path, sample: Path, sabench: Path) -> dict[int, str]:
    """Item number -> the label this checkout gives its unit, one evaluation per sampled run."""
    return {i: r.label.value for i, r in rejudged(items, reports, sample, sabench).items()}


def rejudged(items: list[dict], reports: Path, sample: Path, sabench: Path,
             config: EvalConfig | None = None) -> dict[int, UnitResult]:
    """Item number -> this checkout's result for its unit (under `config`), one evaluation per sampled run."""
    by_run: dict[tuple, list[dict]] = defaultdict(list)
    for item in items:
        by_run[(item["paper"], item["setup"], item["source"])].append(item)
    out: dict[int, UnitResult] = {}
    for (paper, setup, source), group in sorted(by_run.items()):
        report = json.loads((reports / source / paper / f"{setup}.json").read_text(encoding="utf-8"))
        units = {r["unit"]["id"]: Unit.model_validate(r["unit"]) for r in report["results"]}
        markdown, _claims = load(sabench, paper)
        now = evaluate(paper_from_text(markdown, format="markdown", title=paper), sample / "repos" / paper / setup,
                       units=[units[i["unit_id"]] for i in group], config=config or EvalConfig(embeddings=False))
        results = {r.unit.id: r for r in now.results}
        out.update({i["item"]: results[i["unit_id"]] for i in group})
    return out


def score(items: list[dict], verdicts: dict[int, dict], new: dict[int, str]) -> list[str]:
    before: Counter = Counter()
    after: Counter = Counter()
    undecided = changed = 0
    for item in items:
        v = verdicts[item["item"]]
        if v["label_ok"] is None:
            continue
        before[(item["label"], "n")] += 1
        before[(item["label"], "right")] += bool(v["label_ok"])
        label = new[item["item"]]
        if label == "undecided":
            undecided += label != item["label"]
            continue
        changed += label != item["label"]
        after[(label, "n")] += 1
        after[(label, "right")] += bool(v["label_ok"]) if label == item["label"] else label == v["correct_label"]
    labels = sorted({k[0] for k in before} | {k[0] for k in after})
    lines = ["| label | before: right / judged | now: right / judged |", "|---|---|---|"]
    lines += [f"| {lb} | {before[(lb, 'right')]}/{before[(lb, 'n')]} | {after[(lb, 'right')]}/{after[(lb, 'n')]} |" for lb in labels]
    return lines + [f"\n{changed} labels changed to another decided label; {undecided} now undecided."]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", type=Path)
    ap.add_argument("sample", type=Path)
    ap.add_argument("--sabench", type=Path, default=Path("/work/.mirror/kernel-14+SA-Bench/repo"))
    ap.add_argument("--labels", help="only items with these labels (comma-separated)")
    args = ap.parse_args(argv)
    items = read(args.sample / "items.jsonl")
    if args.labels:
        items = [i for i in items if i["label"] in args.labels.split(",")]
    verdicts = {r["item"]: r for r in read(VERDICTS) if r.get("reader", "first") == "first"}
    print("\n".join(score(items, verdicts, relabel(items, args.reports, args.sample, args.sabench))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
