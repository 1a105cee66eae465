"""A seeded, label-stratified sample of decided units from drift reports, for judging labels by reading code.

    python benchmarks/label_sample.py REPORTS --out /tmp/labelset [--per-cell 20] [--seed 0]
    python benchmarks/label_sample.py REPORTS --out /tmp/labelset --second   # also second.jsonl: the second reader's 20%
    python benchmarks/label_sample.py REPORTS --out /tmp/ruleset --by-rule NUM006=10,STB007=3 \
        --first-item 1000 --exclude /tmp/labelset/items.jsonl   # this many decisions of each rule code

REPORTS is the folder `benchmarks/authors_bench.py` writes: `<source>/<paper>/<run>.json`, one
`DriftReport` per run, `<source>` being `claims` (SA-Bench's claims as units) or `extracted` (the
default path's units), `<run>` `authors` (the authors' released code) or an agent setup. Cells are
(label, authors or agent, claims or extracted); each gets up to `--per-cell` units drawn at random.
The sample, with what a reader needs (claim, quote, reason, evidence, candidates), is written to
`--out/items.jsonl`, outside the project; the repositories are exported beside it by
`--export` (authors' code from the fetched mirrors at the manifest's commit, agent runs from SA-Bench).
With `--by-rule CODE=N,...`, N decisions of each rule code (`UnitResult.rule`, in reports made with
`--preview`) are drawn, the authors' code and agents' runs in turn, leaving out units an earlier sample
holds (`--exclude`); items are numbered from `--first-item`, so verdicts of several samples share one file.
Only the key of each verdict goes into the project (`benchmarks/verdicts/labels.jsonl`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from itertools import zip_longest
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from authors_bench import export_release  # noqa: E402
from label_verdicts import read  # noqa: E402

from sa_align.bench.sabench.dataset import RunRef, tables  # noqa: E402
from sa_align.bench.sabench.runner import _has_repo  # noqa: E402
from sa_align.bench.sabench.source import open_source  # noqa: E402

LABELS = ("aligned", "mismatched", "missing", "stubbed", "misattributed")
MANIFEST = Path(__file__).resolve().parent / "authors" / "manifest.yaml"
MIRRORS = Path("/work/.mirror")


def unit_key(report: dict, result: dict, source: str) -> dict:
    """SA-Bench's claim id for its claims; otherwise `Paper.sha256` + span + kind + what the unit states."""
    unit = result["unit"]
    if source == "claims":
        return {"claim_id": unit["id"]}
    span = unit.get("span")
    return {"paper_sha256": report["paper"]["sha256"], "span": [span["start"], span["end"]] if span else None,
            "kind": unit["kind"], "params": [{"name": p["name"], "value": p.get("value"), "values": p.get("values", [])}
                                              for p in unit.get("params", [])],
            "entities": unit.get("entities", []), "steps": unit.get("order", [])}


def run_name(paper: str, run: str, manifest: dict) -> str:
    """`owner/name@commit` of the authors' release (every repository of it), else `<setup>/<paper>`."""
    if run != "authors":
        return f"{run}/{paper}"
    return " + ".join(f"{r['repo']}@{r['commit']}" for r in manifest[paper]["repos"])


def items(reports: Path, manifest: dict) -> list[dict]:
    out = []
    for path in sorted(reports.glob("*/*/*.json")):
        source, paper, run = path.parent.parent.name, path.parent.name, path.stem
        report = json.loads(path.read_text(encoding="utf-8"))
        for result in report["results"]:
            if result["label"] not in LABELS:
                continue
            unit = result["unit"]
            out.append({
                "run": run_name(paper, run, manifest), "paper": paper, "setup": run, "source": source,
                "code": "authors" if run == "authors" else "agent", **unit_key(report, result, source),
                "label": result["label"], "score": result.get("score"), "rule": result.get("rule"),
                # what the reader needs; stays in the sample outside the project
                "unit_id": unit["id"], "claim": unit["claim"], "quote": unit.get("quote") or "", "reason": result["reason"],
                "evidence": [f"{e['path']}:{e['start_line']}-{e['end_line']}" for e in result.get("evidence", [])],
                "candidates": [f"{c['span']['path']}:{c['span']['start_line']}-{c['span']['end_line']}"
                               for c in result.get("candidates", [])[:3]],
                "params": unit.get("params", []), "entities": unit.get("entities", []), "steps": unit.get("order", []),
            })
    return out


def sample(pool: list[dict], per_cell: int, seed: int, cell_of=None) -> list[dict]:
    """Up to `per_cell` units of each cell (by default (label, code, source)), drawn at random with `seed`."""
    cells: dict[tuple, list[dict]] = defaultdict(list)
    for item in pool:
        cells[cell_of(item) if cell_of else (item["label"], item["code"], item["source"])].append(item)
    rng = random.Random(seed)
    out = []
    for cell in sorted(cells):
        group = cells[cell]
        out += rng.sample(group, min(per_cell, len(group)))
    return out


def by_rule(pool: list[dict], wanted: dict[str, int], seen: set, seed: int) -> list[dict]:
    """For each rule code, its wanted number of decisions not in `seen`, drawn at random with `seed`, the
    authors' code and agents' runs taken in turn (authors first) while both have some left."""
    rng = random.Random(seed)
    out = []
    for code in sorted(wanted):
        groups = [[i for i in pool if i["rule"] == code and i["code"] == who and _key(i) not in seen]
                  for who in ("authors", "agent")]
        for group in groups:
            rng.shuffle(group)
        turns = [x for pair in zip_longest(*groups) for x in pair if x is not None]
        out += turns[:wanted[code]]
    return out


def _wanted(text: str, default: int) -> tuple[str, int]:
    """`NUM008=20` -> ("NUM008", 20); a bare code takes `default`."""
    code, _, n = text.partition("=")
    return code.strip(), int(n) if n else default


def second_sample(chosen: list[dict], share: float = 0.2, seed: int = 0) -> list[dict]:
    """A random `share` of the sample per (label, code) (seeded): what a second reader re-judges blind."""
    rng = random.Random(seed)
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for item in chosen:
        groups[(item["label"], item["code"])].append(item)
    out = [x for key in sorted(groups) for x in rng.sample(groups[key], max(1, round(share * len(groups[key]))))]
    return sorted(out, key=lambda x: x["item"])


def export(chosen: list[dict], manifest: dict, sabench: Path, out: Path) -> None:
    """Each sampled run's code under `out/repos/<paper>/<setup>`, read from the fetched copies."""
    source = open_source(sabench)
    for paper, setup in sorted({(i["paper"], i["setup"]) for i in chosen}):
        dest = out / "repos" / paper / setup
        if dest.exists():
            continue
        dest.mkdir(parents=True)
        if setup == "authors":
            # The same layout as the reports' evidence paths (`authors_bench.export_release`).
            export_release(tuple((r["repo"], r["commit"]) for r in manifest[paper]["repos"]), MIRRORS, dest)
        else:
            run = RunRef(setup=setup, paper=paper)
            if _has_repo(source, run):
                source.export(run.repo, dest, skip=tables().result_dir)


def _key(item: dict) -> tuple:
    """A sampled unit's identity across samples: its run, source and unit key."""
    unit = item.get("claim_id") or (item.get("paper_sha256"), tuple(item.get("span") or ()), item.get("kind"))
    return (item["run"], item["source"], unit)


def _write(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--per-cell", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--export", type=Path, help="SA-Bench (checkout or git dir): export the sampled runs' code")
    ap.add_argument("--second", action="store_true", help="also write second.jsonl, the second reader's share")
    ap.add_argument("--by-rule", help="CODE=N,...: N decisions of each rule code (a bare code: --per-cell)")
    ap.add_argument("--exclude", type=Path, action="append", default=[], help="an earlier sample's items.jsonl")
    ap.add_argument("--first-item", type=int, default=0, help="number of the first item")
    args = ap.parse_args(argv)
    manifest = {e["paper"]: e for e in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    pool = items(args.reports, manifest)
    cell_of = None
    if args.by_rule:
        seen = {_key(i) for path in args.exclude for i in read(path)}
        chosen = by_rule(pool, dict(_wanted(c, args.per_cell) for c in args.by_rule.split(",")), seen, args.seed)
        cell_of = lambda i: (i["rule"], i["code"])  # noqa: E731
    else:
        chosen = sample(pool, args.per_cell, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    chosen = [{"item": args.first_item + i, **item} for i, item in enumerate(chosen)]
    _write(args.out / "items.jsonl", chosen)
    if args.second:
        _write(args.out / "second.jsonl", second_sample(chosen, seed=args.seed))
    counts: dict[tuple, int] = defaultdict(int)
    for item in chosen:
        counts[cell_of(item) if cell_of else (item["label"], item["code"], item["source"])] += 1
    for cell in sorted(counts):
        print(*cell, counts[cell])
    print(f"{len(chosen)} units sampled from {len(pool)} decided")
    if args.export:
        export(chosen, manifest, args.export, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
