"""Hand verdicts on extracted units: is each unit a checkable claim of the paper, or junk, and which kind.

    # units as the default path extracts them, with the paper text around each quote, for a reader
    python benchmarks/unit_verdicts.py dump SA-BENCH --papers mrq,olmoe --out /tmp/units
    # junk share pooled and per paper, coverage, orphaned verdicts, second-reader agreement
    python benchmarks/unit_verdicts.py score SA-BENCH [--verdicts benchmarks/verdicts/units.jsonl]
    # which first-reader verdicts of one commit the second reader re-judges (seeded 20% per paper)
    python benchmarks/unit_verdicts.py second --commit 1b6d8b03ff129886a4b906c9f17f4b1784b7667c --out /tmp/second.jsonl

SA-BENCH is a checkout or the git directory of SA-Bench; only development papers are read.
Units no verdict matches are new (not yet judged) and counted per paper, as are units whose params,
entities or steps changed since their verdict (a changed unit needs a fresh verdict; the dump marks
both with `needs_verdict`); orphaned verdicts are
split into junk and ok ones (an orphaned ok verdict is a claim the extractor no longer finds).
The dump holds paper text and stays outside the project. The verdict file holds keys only
(LABELLING.md): paper id and `Paper.sha256`, the unit's character span in `Paper.text`, its
kind and its params/entities/steps, and the verdict. After re-extraction a verdict matches a
unit of the same paper and kind whose span overlaps its own (the largest overlap wins); a
verdict no unit matches is orphaned and counted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sabench_claims import dev_papers, load  # noqa: E402

from sa_align.bench.agreement import cohen_kappa  # noqa: E402
from sa_align.config import EvalConfig  # noqa: E402
from sa_align.extract import extract_units  # noqa: E402
from sa_align.models import Paper, Unit  # noqa: E402
from sa_align.paper import load_paper  # noqa: E402

VERDICTS = Path(__file__).resolve().parent / "verdicts" / "units.jsonl"
CUT_VERDICTS = Path(__file__).resolve().parent / "verdicts" / "cut_units.jsonl"
"""Verdicts on method units the budget cut (keyed like `units.jsonl`): what the budget target is measured on."""
KEPT_BEFORE_CLAIMS = ("background", "theory", "result")
"""Junk kinds the budget must never keep while it cuts a method claim of the paper's own approach."""
JUNK_KINDS = ("theory", "example", "number-of", "result", "background", "misread", "fragment")
CONTEXT = 700
"""Characters of paper text either side of a quote in the dump, for the reader."""


def paper_and_units(sabench: Path, name: str, cut: bool = False) -> tuple[Paper, list[Unit]]:
    """The paper as `sa-align evaluate paper.md repo` loads it, and the units the default path extracts
    (with `cut`, the units its unit budget cut instead)."""
    paper, kept, dropped = kept_and_cut(sabench, name, cut)
    return paper, dropped if cut else kept


def kept_and_cut(sabench: Path, name: str, cut: bool = True) -> tuple[Paper, list[Unit], list[Unit]]:
    """The paper, the units the default path keeps and (with `cut`, else none) the units its budget cuts."""
    markdown, _claims = load(sabench, name)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "paper.md"
        path.write_text(markdown, encoding="utf-8")
        paper = load_paper(path)
    kept = extract_units(paper, EvalConfig())
    if not cut:
        return paper, kept, []
    spans = {(u.span.start, u.span.end, u.kind) for u in kept if u.span}
    return paper, kept, [u for u in extract_units(paper, EvalConfig(max_units=None))
                         if u.span and (u.span.start, u.span.end, u.kind) not in spans]


def unit_key(name: str, paper: Paper, unit: Unit) -> dict:
    """What identifies a unit across extractions, and nothing of the paper's text beyond it."""
    span = [unit.span.start, unit.span.end] if unit.span else None
    return {
        "paper": name, "paper_sha256": paper.sha256, "span": span, "kind": unit.kind.value,
        "params": [{"name": p.name, "value": p.value, "values": p.values} for p in unit.params],
        "entities": list(unit.entities), "steps": list(unit.order),
    }


def dump(args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    first = [r for r in read_verdicts(args.verdicts) if r.get("reader", "first") == "first"]
    for name in _papers(args.papers):
        paper, units = paper_and_units(args.sabench, name, cut=args.cut)
        keys = [unit_key(name, paper, u) for u in units]
        taken, _orphans, _changed = match([v for v in first if v["paper"] == name and v["paper_sha256"] == paper.sha256], keys)
        (args.out / f"{name}.paper.md").write_text(paper.text, encoding="utf-8")
        with open(args.out / f"{name}.units.jsonl", "w", encoding="utf-8") as fh:
            for i, unit in enumerate(units):
                row = keys[i]
                start, end = row["span"] or (0, 0)
                row.update(id=unit.id, needs_verdict=i not in taken, claim=unit.claim, quote=unit.quote, section=unit.section,
                           attribution=unit.attribution.value,
                           context=paper.text[max(0, start - CONTEXT):end + CONTEXT])
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{name}: {len(units)} units ({len(units) - len(taken)} need a verdict), sha256 {paper.sha256[:12]}")
    return 0


def _papers(arg: str | None) -> list[str]:
    names = arg.split(",") if arg else list(dev_papers())
    outside = [n for n in names if n not in dev_papers()]
    if outside:
        raise SystemExit(f"not development papers (held-out papers are never read): {outside}")
    return names


def read_verdicts(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _same_content(verdict: dict, key: dict) -> bool:
    return all(verdict.get(f) == key[f] for f in ("params", "entities", "steps"))


def match(verdicts: list[dict], keys: list[dict]) -> tuple[dict[int, dict], list[dict], dict[int, dict]]:
    """Unit index -> its verdict (span overlap plus kind, largest overlap first), the orphaned verdicts,
    and unit index -> the verdict of a unit whose params, entities or steps have changed since (a changed
    unit needs a fresh verdict; a verdict on its new content wins over the old one)."""
    taken: dict[int, dict] = {}
    changed: dict[int, dict] = {}
    left = []
    for same in (True, False):
        left = []
        for v in verdicts:
            best = _best_overlap(v, keys, set(taken) | set(changed), same)
            if best is None:
                left.append(v)
            else:
                (taken if same else changed)[best] = v
        verdicts = left
    return taken, left, changed


def _best_overlap(v: dict, keys: list[dict], used: set[int], same: bool) -> int | None:
    best, overlap = None, 0
    for i, k in enumerate(keys):
        if i in used or k["kind"] != v["kind"] or not k["span"] or not v["span"]:
            continue
        if same and not _same_content(v, k):
            continue
        shared = min(k["span"][1], v["span"][1]) - max(k["span"][0], v["span"][0])
        if shared > overlap:
            best, overlap = i, shared
    return best


def score(args: argparse.Namespace) -> int:
    rows = read_verdicts(args.verdicts)
    first = [r for r in rows if r.get("reader", "first") == "first"]
    second = [r for r in rows if r.get("reader") == "second"]
    by_paper: dict[str, list[dict]] = defaultdict(list)
    for r in first:
        by_paper[r["paper"]].append(r)
    pooled = Counter()
    print("| paper | units | with a verdict | new, unjudged (changed since judged) | orphaned verdicts (junk / ok) | junk | junk share | junk kinds |")
    print("|---|---|---|---|---|---|---|---|")
    for name in sorted(by_paper):
        paper, units = paper_and_units(args.sabench, name)
        keys = [unit_key(name, paper, u) for u in units]
        stale = [v for v in by_paper[name] if v["paper_sha256"] != paper.sha256]
        taken, orphans, changed = match([v for v in by_paper[name] if v not in stale], keys)
        judged = [v for v in taken.values() if v.get("unit_ok") is not None]
        junk = [v for v in judged if not v["unit_ok"]]
        kinds = Counter(v.get("junk_kind") or "?" for v in junk)
        share = len(junk) / len(judged) if judged else float("nan")
        lost = orphans + stale
        lost_junk = sum(v.get("unit_ok") is False for v in lost)
        lost_ok = sum(v.get("unit_ok") is True for v in lost)
        new = len(units) - len(taken)
        pooled.update(units=len(units), judged=len(judged), junk=len(junk), orphans=len(lost), new=new, changed=len(changed),
                      lost_junk=lost_junk, lost_ok=lost_ok)
        print(f"| {name} | {len(units)} | {len(judged)} ({len(judged) / max(len(units), 1):.0%}) | {new} ({len(changed)}) "
              f"| {len(lost)} ({lost_junk} / {lost_ok}) "
              f"| {len(junk)} | {share:.1%} | {', '.join(f'{k} {n}' for k, n in kinds.most_common())} |")
    print(f"| pooled | {pooled['units']} | {pooled['judged']} ({pooled['judged'] / max(pooled['units'], 1):.0%}) "
          f"| {pooled['new']} ({pooled['changed']}) | {pooled['orphans']} ({pooled['lost_junk']} / {pooled['lost_ok']}) | {pooled['junk']} | {pooled['junk'] / max(pooled['judged'], 1):.1%} | |")
    _agreement(first, second)
    return 0


def budget(args: argparse.Namespace) -> int:
    """Per paper: cut method units the readers call claims, beside kept units they call background,
    theory or results junk; the budget's target is no paper with both."""
    kept_verdicts = [r for r in read_verdicts(VERDICTS) if r.get("reader", "first") == "first"]
    cut_verdicts = [r for r in read_verdicts(CUT_VERDICTS) if r.get("reader", "first") == "first"] if CUT_VERDICTS.exists() else []
    print("| paper | method units cut | judged | claims among them | kept background/theory/result junk | target met |")
    print("|---|---|---|---|---|---|")
    met = total = 0
    for name in sorted({r["paper"] for r in kept_verdicts}):
        paper, kept, cut = kept_and_cut(args.sabench, name)
        cut = [u for u in cut if u.kind.value == "method"]
        taken_cut, _, _ = match([v for v in cut_verdicts if v["paper"] == name], [unit_key(name, paper, u) for u in cut])
        taken_kept, _, _ = match([v for v in kept_verdicts if v["paper"] == name], [unit_key(name, paper, u) for u in kept])
        claims = sum(bool(v.get("unit_ok")) for v in taken_cut.values())
        junk = sum(v.get("junk_kind") in KEPT_BEFORE_CLAIMS for v in taken_kept.values())
        ok = not (claims and junk)
        met, total = met + ok, total + 1
        print(f"| {name} | {len(cut)} | {len(taken_cut)} | {claims} | {junk} | {'yes' if ok else 'no'} |")
    print(f"target met on {met} of {total} papers")
    _agreement([r for r in read_verdicts(CUT_VERDICTS) if r.get("reader", "first") == "first"],
               [r for r in read_verdicts(CUT_VERDICTS) if r.get("reader") == "second"])
    return 0


def _agreement(first: list[dict], second: list[dict]) -> None:
    """Cohen's kappa of the two readers on `unit_ok`, over the units both judged (same paper, span and kind)."""
    firsts: dict[tuple, dict] = {}
    for r in first:  # the verdict the second reader re-judged, not a later one on a changed unit
        firsts.setdefault((r["paper"], tuple(r["span"] or ()), r["kind"]), r)
    pairs = [(firsts[k]["unit_ok"], r["unit_ok"]) for r in second
             if (k := (r["paper"], tuple(r["span"] or ()), r["kind"])) in firsts
             and firsts[k].get("unit_ok") is not None and r.get("unit_ok") is not None]
    if not pairs:
        print("second reader: no verdicts yet")
        return
    a, b = [str(x) for x, _ in pairs], [str(y) for _, y in pairs]
    agree = sum(x == y for x, y in zip(a, b))
    kappa = cohen_kappa(a, b, ["True", "False"])
    print(f"second reader: {len(pairs)} units, raw agreement {agree / len(pairs):.1%}, "
          f"Cohen's kappa {'-' if kappa is None else f'{kappa:.3f}'} (unit_ok)")


def sample_for_second_reader(rows: list[dict], share: float = 0.2, seed: int = 0) -> list[dict]:
    """A random `share` of the first reader's verdicts, per paper (seeded): what the second reader re-judges."""
    rng = random.Random(seed)
    out = []
    by_paper: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_paper[r["paper"]].append(r)
    for name in sorted(by_paper):
        group = by_paper[name]
        out += rng.sample(group, max(1, round(share * len(group))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="units as extracted, with context, for a reader (outside the project)")
    d.add_argument("sabench", type=Path)
    d.add_argument("--papers")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--verdicts", type=Path, default=None, help="default: units.jsonl, or cut_units.jsonl with --cut")
    d.add_argument("--cut", action="store_true", help="the units the unit budget cut, not the ones it kept")
    b = sub.add_parser("budget", help="what the unit budget cut that readers call claims, beside the junk it kept")
    b.add_argument("sabench", type=Path)
    s = sub.add_parser("score", help="junk share, coverage, orphans and agreement from the verdict file")
    s.add_argument("sabench", type=Path)
    s.add_argument("--verdicts", type=Path, default=VERDICTS)
    r = sub.add_parser("second", help="the seeded 20%% per paper of one commit's first verdicts a second reader re-judges")
    r.add_argument("--commit", required=True, help="`judged_at_commit` of the first verdicts to sample from")
    r.add_argument("--verdicts", type=Path, default=VERDICTS)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.cmd == "dump" and args.verdicts is None:
        args.verdicts = CUT_VERDICTS if args.cut else VERDICTS
    return {"dump": dump, "score": score, "second": second, "budget": budget}[args.cmd](args)


def second(args: argparse.Namespace) -> int:
    first = [r for r in read_verdicts(args.verdicts) if r["reader"] == "first" and r["judged_at_commit"] == args.commit]
    chosen = sample_for_second_reader(first, seed=args.seed)
    with open(args.out, "w", encoding="utf-8") as fh:
        for r in chosen:
            fh.write(json.dumps({k: r[k] for k in ("paper", "paper_sha256", "span", "kind", "unit_id")}) + "\n")
    print(f"{len(chosen)} of {len(first)} units")
    return 0


if __name__ == "__main__":
    sys.exit(main())
