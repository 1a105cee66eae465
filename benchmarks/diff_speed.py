"""Diff speed: `sa_align.diff_reports` on two 400-unit reports read from `report.json` files,
then rendered as Markdown, JSON and HTML (target: under 1 s).

    python benchmarks/diff_speed.py [--units 400] [--runs 5]

The reports are synthetic but full-sized: every unit has a claim, a quote, eight
candidates with snippets, two verdicts and evidence. The new report shifts unit
ids (a unit inserted in front), regresses a tenth of the units and fixes another
tenth, moves the evidence of a tenth, and drops and adds a few units. Medians of `--runs` in-process
runs are printed, plus one fresh process (imports included).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sa_align.models import (  # noqa: E402
    Candidate, CodeSpan, DriftReport, Label, PaperIdentity, RepoIdentity, Unit, UnitResult, Verdict,
)
from sa_align.report import summarize  # noqa: E402

LABELS = [Label.ALIGNED, Label.MISMATCHED, Label.STUBBED, Label.MISSING, Label.UNDECIDED]
SCORES = {Label.ALIGNED: 1.0, Label.MISMATCHED: 0.25, Label.STUBBED: 0.0, Label.MISSING: 0.0, Label.UNDECIDED: None}


def _result(i: int, label: Label, line: int) -> UnitResult:
    claim = f"Claim number {i}: the learning rate of block {i} is {i / 1000:.3f} during warmup."
    unit = Unit(id=f"num-{i:03d}", kind="numerical", claim=claim, quote=f"as stated, {claim.lower()}", section="4 Training")
    span = CodeSpan(path=f"pkg/m{i % 40}.py", start_line=line, end_line=line + 2, symbol=f"Block{i}.forward")
    cands = [Candidate(span=CodeSpan(path=f"pkg/m{(i + k) % 40}.py", start_line=10 * k + 1, end_line=10 * k + 9),
                       score=1.0 / (k + 1), why=["bm25", "param:lr"], snippet="    y = x * scale\n" * 9) for k in range(8)]
    verdicts = [Verdict(judge=j, label=label, score=SCORES[label], confidence=0.8, reason=f"{j} says {label.value}",
                        evidence=[span]) for j in ("numeric", "stub")]
    return UnitResult(unit=unit, label=label, score=SCORES[label], confidence=0.8, verdicts=verdicts, candidates=cands,
                      evidence=[span], reason=f"decided {label.value}")


def make_reports(n: int) -> tuple[DriftReport, DriftReport]:
    old = [_result(i, LABELS[i % 5], 20) for i in range(n)]
    new = [_result(n + 1, Label.ALIGNED, 20)]  # inserted first: every id after it shifts
    for i, r in enumerate(old[:-3]):
        label = LABELS[1] if i % 10 == 0 else Label.ALIGNED if i % 10 == 3 else r.label
        moved = _result(i, label, 40 if i % 10 == 5 else 20)
        moved.unit.id = f"num-{i + 1:03d}"
        new.append(moved)
    paper = PaperIdentity(title="A paper", sha256="ab" * 32)
    return tuple(DriftReport(paper=paper, repo=RepoIdentity(path="repo", git_commit=c * 40), results=rs,
                             summary=summarize(rs)) for c, rs in (("1", old), ("2", new)))


def once(old: Path, new: Path) -> dict[str, float]:
    from sa_align.diff import diff_reports, render_diff

    t0 = time.perf_counter()
    d = diff_reports(old, new)
    t1 = time.perf_counter()
    for fmt in ("md", "json", "html"):
        render_diff(d, fmt)
    t2 = time.perf_counter()
    return {"diff_s": t1 - t0, "render_s": t2 - t1, "total_s": t2 - t0, "regressions": len(d.regressions),
            "fixes": len(d.fixes), "moved": len(d.moved), "matched": d.matched}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=400)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        old_r, new_r = make_reports(args.units)
        old, new = Path(tmp) / "old.json", Path(tmp) / "new.json"
        old.write_text(old_r.model_dump_json(), encoding="utf-8")
        new.write_text(new_r.model_dump_json(), encoding="utf-8")
        runs = [once(old, new) for _ in range(args.runs)]
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sa_align.cli", "diff", str(old), str(new), "--out", str(Path(tmp) / "d"),
                        "--format", "md,json,html"], check=True, capture_output=True, cwd=ROOT)
        cli = time.perf_counter() - t0
        size = old.stat().st_size
    med = {k: round(statistics.median(r[k] for r in runs), 4) for k in ("diff_s", "render_s", "total_s")}
    print(json.dumps({"units": args.units, "report_bytes": size, "runs": args.runs, "median": med,
                      "cli_fresh_process_s": round(cli, 3),
                      "found": {k: runs[-1][k] for k in ("matched", "regressions", "fixes", "moved")}}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
