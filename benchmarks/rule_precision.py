"""Precision of each rule code, and the table `sa-align rules` reads (`units/rules/precision.json`).

    python benchmarks/rule_precision.py --sample REPORTS:SAMPLE [--sample REPORTS2:SAMPLE2 ...]
        [--sabench-out BENCH_OUT] [--write]

Hand-judged: each sample (`benchmarks/label_sample.py`: `SAMPLE/items.jsonl` and the exported code
under `SAMPLE/repos/`, drawn from the drift reports in REPORTS) is judged again with this checkout's
judges, every rule deciding as under `--preview`, and each decision is scored against the first
reader's verdict on its item (`benchmarks/verdicts/labels.jsonl`): right when it is the label the
reader called right (an unchanged label keeps the reader's `label_ok`). A decision counts for the
code of the rule that decided it (`UnitResult.rule`); a label the calibrated judge took from a lean
(`CAL002`) counts for the lean's code too. A veto (`CAL003`, `CAL004`, `CAL005`, `SCP001`, `SCP002`) is judged by
what it held back: the sample is judged once more with the vetoes switched off, and a veto that
changed the label is right when the label it prevented is wrong.

SA-Bench: with `--sabench-out`, the folder `sa-align bench SA-BENCH --sabench --preview --out
BENCH_OUT` wrote; each decided claim counts for its code, agreeing when our label and SA-Bench's
judge agree on faithful (its level at least 0.75) or not.

`--write` stores the table in `units/rules/precision.json` with what it was measured on, and puts the
Markdown tables between the `rule-table` markers of `benchmarks/README.md`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from label_rejudge import rejudged  # noqa: E402
from label_verdicts import VERDICTS, read, wilson  # noqa: E402

from sa_align.config import EvalConfig, RulesConfig  # noqa: E402
from sa_align.models import UnitResult  # noqa: E402
from sa_align.rules.registry import STABLE_MIN_JUDGED, STABLE_MIN_PRECISION, rules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "units" / "rules" / "precision.json"
README = ROOT / "benchmarks" / "README.md"
MARKERS = ("<!-- rule-table -->", "<!-- /rule-table -->")
VETOES = ("CAL003", "CAL004", "CAL005", "SCP001", "SCP002")
SABENCH = Path("/work/.mirror/kernel-14+SA-Bench/repo")


def _right(item: dict, verdict: dict, label: str) -> bool:
    if label == item["label"]:
        return bool(verdict["label_ok"])
    return label == verdict.get("correct_label")


def _codes(result: UnitResult) -> set[str]:
    return {result.rule} | {v.rule for v in result.verdicts if v.rule}


def hand_judged(samples: list[tuple[Path, Path]], sabench: Path) -> tuple[dict[str, list[bool]], list[dict]]:
    """Code -> whether each of its hand-judged decisions was right; and each judged item's decision
    (its kind of code, label, rule, and whether that label and the reader's correct label are right)."""
    verdicts = {r["item"]: r for r in read(VERDICTS) if r.get("reader", "first") == "first"}
    out: dict[str, list[bool]] = defaultdict(list)
    decisions: list[dict] = []
    preview = EvalConfig(embeddings=False, rules=RulesConfig(preview=True))
    unvetoed = EvalConfig(embeddings=False, rules=RulesConfig(preview=True, ignore=list(VETOES)))
    for reports, sample in samples:
        items = [i for i in read(sample / "items.jsonl") if verdicts.get(i["item"], {}).get("label_ok") is not None]
        now = rejudged(items, reports, sample, sabench, preview)
        without = rejudged(items, reports, sample, sabench, unvetoed)
        for item in items:
            verdict, result = verdicts[item["item"]], now[item["item"]]
            label = result.label.value
            decisions.append({"code": item["code"], "label": label, "rule": result.rule,
                              "right": label != "undecided" and _right(item, verdict, label)})
            if label != "undecided" and result.rule:
                right = _right(item, verdict, label)
                out[result.rule].append(right)
                if result.rule == "CAL002":
                    lean = next((v.rule for v in result.verdicts if v.lean and v.lean.value == label and v.rule), None)
                    if lean:
                        out[lean].append(right)
            held = without[item["item"]].label.value
            if held != label and held != "undecided":
                for code in _codes(result) & set(VETOES):
                    out[code].append(not _right(item, verdict, held))
    return out, decisions


def _picked(decisions: list[dict], label: str) -> list[dict]:
    """The decisions of `label`, or every decided one for `all decided`."""
    return [d for d in decisions if (d["label"] != "undecided" if label == "all decided" else d["label"] == label)]


def _cell(decisions: list[dict]) -> str:
    return f"{sum(d['right'] for d in decisions)}/{len(decisions)}"


def policy_effect(decisions: list[dict], rows: dict[str, dict]) -> str:
    """Precision and coverage per label on the judged items, with every rule deciding (`--preview`) and
    under the default policy (a preview rule's failure held back), per kind of code."""
    stable = {c for c, r in rows.items() if r.get("judged", 0) >= STABLE_MIN_JUDGED and r.get("precision", 0) >= STABLE_MIN_PRECISION}
    lines = ["| code | label | --preview: right / decided | default: right / decided |", "|---|---|---|---|"]
    for who in ("authors", "agent"):
        mine = [d for d in decisions if d["code"] == who]
        held = [d if d["label"] in ("undecided", "aligned") or d["rule"] in stable else {**d, "label": "undecided"}
                for d in mine]
        for label in ("aligned", "mismatched", "missing", "stubbed", "misattributed", "all decided"):
            lines.append(f"| {who} | {label} | {_cell(_picked(mine, label))} | {_cell(_picked(held, label))} |")
        decided_before, decided_after = len(_picked(mine, "all decided")), len(_picked(held, "all decided"))
        lines.append(f"| {who} | coverage (decided / judged) | {decided_before}/{len(mine)} | {decided_after}/{len(mine)} |")
    return "\n".join(lines)


def sabench_agreement(folder: Path) -> dict[str, list[bool]]:
    """Code -> whether SA-Bench's judge agrees with each decision on its development split."""
    out: dict[str, list[bool]] = defaultdict(list)
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for outcome in data.get("outcomes", []) if isinstance(data, dict) else []:
            if outcome.get("label") in (None, "undecided") or not outcome.get("rule"):
                continue
            faithful = outcome["reference"] >= 0.75
            out[outcome["rule"]].append((outcome["label"] == "aligned") == faithful)
    return out


def table(hand: dict[str, list[bool]], bench: dict[str, list[bool]]) -> dict[str, dict]:
    rows = {}
    for code in rules():
        judged, agreed = hand.get(code, []), bench.get(code, [])
        if not judged and not agreed:
            continue
        row = {"judged": len(judged), "right": sum(judged), "sabench_decided": len(agreed), "sabench_agree": sum(agreed)}
        if judged:
            low, _high = wilson(sum(judged), len(judged))
            row |= {"precision": round(sum(judged) / len(judged), 4), "low": round(low, 4)}
        rows[code] = row
    return rows


def markdown(rows: dict[str, dict]) -> str:
    lines = ["| code | name | decides | status | hand-judged right / judged | precision (95% low) | SA-Bench agree / decided |",
             "|---|---|---|---|---|---|---|"]
    for code, rule in rules().items():
        r = rows.get(code, {})
        judged = r.get("judged", 0)
        ok = judged >= STABLE_MIN_JUDGED and r.get("precision", 0) >= STABLE_MIN_PRECISION
        prec = f"{r['precision']:.2f} ({r['low']:.2f})" if judged else "-"
        bench = f"{r['sabench_agree']}/{r['sabench_decided']}" if r.get("sabench_decided") else "-"
        lines.append(f"| {code} | {rule.name} | {rule.decides} | {'stable' if ok else 'preview'} | "
                     f"{r.get('right', 0)}/{judged} | {prec} | {bench} |")
    return "\n".join(lines)


def _into_readme(text: str, measured_on: dict) -> None:
    readme = README.read_text(encoding="utf-8")
    start, end = readme.index(MARKERS[0]) + len(MARKERS[0]), readme.index(MARKERS[1])
    stamp = f"Measured {measured_on['date']} at `{measured_on['commit'][:7]}` (generated by `rule_precision.py --write`)."
    README.write_text(f"{readme[:start]}\n{stamp}\n\n{text}\n{readme[end:]}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", action="append", default=[], help="REPORTS:SAMPLE (repeatable)")
    ap.add_argument("--sabench", type=Path, default=SABENCH)
    ap.add_argument("--sabench-out", type=Path, help="the folder of `sa-align bench --sabench --preview --out`")
    ap.add_argument("--write", action="store_true", help=f"write {TABLE.relative_to(ROOT)}")
    ap.add_argument("--dump", type=Path, help="also write each judged decision here (outside the project)")
    ap.add_argument("--from-dump", type=Path, help="read the decisions a run wrote with --dump; judge nothing")
    args = ap.parse_args(argv)
    samples = [tuple(Path(p) for p in s.split(":", 1)) for s in args.sample]
    if args.from_dump:
        dumped = json.loads(args.from_dump.read_text(encoding="utf-8"))
        hand, bench, decisions = dumped["hand"], dumped["bench"], dumped["decisions"]
    else:
        hand, decisions = hand_judged(samples, args.sabench) if samples else ({}, [])
        bench = sabench_agreement(args.sabench_out) if args.sabench_out else {}
    rows = table(hand, bench)
    if args.dump:
        args.dump.write_text(json.dumps({"hand": hand, "bench": bench, "decisions": decisions}), encoding="utf-8")
    text = markdown(rows)
    if decisions:
        text += "\n\nThe preview policy on the hand-judged items (a failure of a preview rule held back by default):\n\n"
        text += policy_effect(decisions, rows)
    print(text)
    if args.write:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        measured_on = {
            "commit": commit, "date": datetime.date.today().isoformat(),
            "hand_judged": f"{VERDICTS.relative_to(ROOT)} (first reader), rejudged with --preview",
            "samples": 2, "sabench": "development split, SA-Bench's claims, all setups, --preview" if bench else None,
            "command": "python benchmarks/rule_precision.py --sample /tmp/authors:/tmp/labelset "
                       "--sample /tmp/authors-rules:/tmp/ruleset --sabench-out OUT --write",
        }
        TABLE.write_text(json.dumps({"measured_on": measured_on, "rules": rows}, indent=1) + "\n", encoding="utf-8")
        _into_readme(text, measured_on)
        print(f"wrote {TABLE.relative_to(ROOT)} and the tables of {README.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
