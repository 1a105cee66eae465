"""The authors' released code against the agents' reproductions of the same papers, offline.

    python benchmarks/authors_bench.py --out /tmp/authors [--papers mrq,olmoe] [--workers 2]
        [--sabench /work/.mirror/kernel-14+SA-Bench/repo] [--mirrors /work/.mirror] [--summary PATH]

For each development paper of `benchmarks/authors/manifest.yaml` with a release, the release is
exported at its recorded commits from the fetched git directories (`<mirrors>/<owner>+<name>/repo`;
the repositories of a split release side by side, each in a folder named after it) into a temporary
folder outside the project (files whose content the snapshot lacks, checkpoints and other files of
4 MiB and more, are left out and counted), and evaluated twice with `EvalConfig(embeddings=False)` (`--preview`,
`--ignore`: the rules it runs with, `sa-align rules`): with SA-Bench's
claims of the paper as units (read from the `claude-sonnet_basic` run's score file: a paper's claims
are the same in every setup) and with the units the extractor reads from the paper. The paper's 12
agent runs are evaluated the same two ways, their repositories exported by `sa_align.bench.sabench`
without the judge output. Each DriftReport is written to `OUT/<claims|extracted>/<paper>/<authors|setup>.json`;
a report already there is not made again, so an interrupted run resumes. Exported code is removed
after each evaluation. Only the development split is ever read.

The tables rank the authors' code among the 13 repositories of its paper by the report's headline,
the calibrated expected score over all units (`summary.expected_score`), and by the mean score over
decided units (`summary.mean_score`). A tie counts against the authors (rank 1 means above every
agent run) and a missing figure ranks last.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sa_align.bench.sabench.dataset import RunRef, claim_units, read_scores, tables
from sa_align.bench.sabench.runner import _empty, _has_repo, _paper, run_paths
from sa_align.bench.sabench.source import _SAFE_GIT, Source, open_source
from sa_align.config import EvalConfig, RulesConfig
from sa_align.paper import load_paper
from sa_align.pipeline import evaluate

MANIFEST = ROOT / "benchmarks" / "authors" / "manifest.yaml"
SABENCH = Path("/work/.mirror/kernel-14+SA-Bench/repo")
MIRRORS = Path("/work/.mirror")
AUTHORS = "authors"
CLAIMS_SETUP = "claude-sonnet_basic"
"""The run whose score file gives the authors' code its claims (the same claims in every setup)."""
SOURCES = ("claims", "extracted")
LABELS = ("aligned", "mismatched", "stubbed", "misattributed", "missing", "undecided")
FAILURES = ("mismatched", "stubbed", "missing", "misattributed")
HEADLINES = ("expected_score", "mean_score")


# --------------------------------------------------------------------------- jobs


@dataclass(frozen=True)
class Job:
    """One repository of one paper: the authors' release or one agent run, evaluated both ways."""

    paper: str
    subject: str
    """`authors`, or the SA-Bench setup of an agent run."""
    repos: tuple[tuple[str, str], ...] = ()
    """`(owner/name, commit)` of each repository of the authors' release."""


@dataclass
class Done:
    job: Job
    seconds: dict[str, float] = field(default_factory=dict)
    """Evaluation wall time per unit source made by this job (cached reports are absent)."""
    wall: float = 0.0
    files: int = 0
    absent: int = 0
    """Files of the authors' release whose content the snapshot lacks (left out of the export)."""
    skipped: str | None = None


def report_path(out: Path, source: str, paper: str, subject: str) -> Path:
    return out / source / paper / f"{subject}.json"


def releases(manifest: Path, papers: list[str] | None) -> list[dict]:
    """Manifest entries with a release, of the development split only, in manifest order."""
    development = set(tables().development)
    entries = [e for e in yaml.safe_load(manifest.read_text(encoding="utf-8")) if e.get("repos")]
    outside = [e["paper"] for e in entries if e["paper"] not in development]
    if outside:
        raise SystemExit(f"not in the development split: {', '.join(outside)}")
    if papers:
        unknown = set(papers) - {e["paper"] for e in entries}
        if unknown:
            raise SystemExit(f"no release in the manifest for: {', '.join(sorted(unknown))}")
        entries = [e for e in entries if e["paper"] in papers]
    return entries


def covered(entry: dict) -> str:
    value = entry.get("experiments_covered")
    return {True: "true", False: "false"}.get(value, str(value))


def make_jobs(entries: list[dict], setups: dict[str, list[str]]) -> list[Job]:
    """The authors' releases first, largest first (they take longest), then the agent runs."""
    size = {e["paper"]: sum(r.get("python_lines", 0) for r in e["repos"]) for e in entries}
    authors = [Job(e["paper"], AUTHORS, tuple((r["repo"], r["commit"]) for r in e["repos"])) for e in entries]
    authors.sort(key=lambda j: -size[j.paper])
    agents = [Job(e["paper"], s) for e in entries for s in setups.get(e["paper"], [])]
    return authors + agents


def export_release(repos: tuple[tuple[str, str], ...], mirrors: Path, dest: Path) -> tuple[int, int]:
    """Each repository at its commit into `dest` (side by side in folders named after them when
    several); links out of `dest`, absolute paths and device files are refused. Blobs the snapshot
    lacks (files of 4 MiB and more, LFS content) are left out. The files written and left out."""
    written = absent = 0
    for repo, commit in repos:
        target = dest / repo.split("/", 1)[1] if len(repos) > 1 else dest
        target.mkdir(parents=True, exist_ok=True)
        git = ["git", *_SAFE_GIT, f"--git-dir={mirrors / repo.replace('/', '+') / 'repo'}"]
        missing = _missing_blobs(git, commit)
        absent += len(missing)
        excludes = [f":(exclude,literal){p}" for p in missing]
        with tempfile.TemporaryFile() as tar_file:
            subprocess.run([*git, "archive", "--format=tar", commit, "--", ".", *excludes],
                           stdout=tar_file, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, check=True, timeout=600)
            tar_file.seek(0)
            with tarfile.open(fileobj=tar_file) as tar:
                members = tar.getmembers()
                tar.extractall(target, members=members, filter="data")
                written += sum(1 for m in members if m.isfile())
    return written, absent


def _missing_blobs(git: list[str], commit: str) -> list[str]:
    """Paths at `commit` whose blob the fetched copy does not hold."""
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", commit], capture_output=True, check=True, timeout=300)
    blobs = []
    for entry in listing.stdout.decode("utf-8", "surrogateescape").split("\0"):
        meta, _, path = entry.partition("\t")
        if meta.split(" ")[1:2] == ["blob"]:
            blobs.append((meta.split(" ")[2], path))
    check = subprocess.run([*git, "cat-file", "--batch-check=%(objectname)"],
                           input="".join(f"{sha}\n" for sha, _ in blobs).encode(),
                           capture_output=True, check=True, timeout=300)
    answers = check.stdout.decode().splitlines()
    return [path for (sha, path), answer in zip(blobs, answers) if answer.endswith(" missing")]


def run_job(job: Job, sabench: str, mirrors: str, work: str, out: str, rules: str = "{}", features: bool = False) -> Done:
    """Export the job's repository, write the reports not yet written, remove the export."""
    started = time.perf_counter()
    done = Done(job)
    todo = [s for s in SOURCES if not report_path(Path(out), s, job.paper, job.subject).is_file()]
    if not todo:
        return done
    try:
        source = _source(sabench)
        run = RunRef(setup=CLAIMS_SETUP if job.subject == AUTHORS else job.subject, paper=job.paper)
        scores = read_scores(source, run)
        paper = _paper(source, job.paper, Path(work))
        repo = Path(tempfile.mkdtemp(prefix=f"{job.paper}-{job.subject}-", dir=work))
        try:
            print(f"  start {job.paper} {job.subject}", flush=True)
            if job.subject == AUTHORS:
                done.files, done.absent = export_release(job.repos, Path(mirrors), repo)
            elif _has_repo(source, run):
                done.files = source.export(run.repo, repo, skip=tables().result_dir)
            else:
                done.files = _empty(repo)
            for name in todo:
                units = claim_units(scores.claims) if name == "claims" else None
                t0 = time.perf_counter()
                config = EvalConfig(embeddings=False, rules=RulesConfig.model_validate_json(rules),
                                    calibration={"record_features": features})
                report = evaluate(load_paper(paper), repo, units=units, config=config)
                done.seconds[name] = round(time.perf_counter() - t0, 1)
                _write(report_path(Path(out), name, job.paper, job.subject), report.model_dump_json())
        finally:
            shutil.rmtree(repo, ignore_errors=True)
    except Exception as exc:  # one repository's failure is recorded; the others go on
        done.skipped = f"{type(exc).__name__}: {exc}"
    done.wall = round(time.perf_counter() - started, 1)
    return done


@lru_cache(maxsize=1)
def _source(path: str) -> Source:
    return open_source(path)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def execute(jobs: list[Job], sabench: Path, mirrors: Path, out: Path, workers: int, rules: RulesConfig | None = None,
            features: bool = False) -> list[Done]:
    results = []
    with tempfile.TemporaryDirectory(prefix="sa-align-authors-") as work:
        chosen = (rules or RulesConfig()).model_dump_json()
        args = [(job, str(sabench), str(mirrors), work, str(out), chosen, features) for job in jobs]
        with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = [pool.submit(run_job, *a) for a in args]
            for i, future in enumerate(as_completed(futures), 1):
                d = future.result()
                results.append(d)
                what = f"skipped: {d.skipped}" if d.skipped else (
                    ", ".join(f"{k} {v} s" for k, v in d.seconds.items()) or "cached")
                print(f"[{i}/{len(jobs)}] {d.job.paper} {d.job.subject} ({d.files} files{f', {d.absent} absent' if d.absent else ''}, {d.wall} s): {what}", flush=True)
    return results


# --------------------------------------------------------------------------- figures (pure)


@dataclass
class PaperRow:
    """One paper under one unit source: the authors' summary and the agents' summaries."""

    paper: str
    covered: str
    authors: dict | None
    agents: list[dict]


def _value(summary: dict | None, key: str) -> float | None:
    return None if summary is None else summary.get(key)


def rank(value: float | None, others: list[float | None]) -> int:
    """1 + the repositories at least as good (a tie counts against `value`); a missing figure is lowest."""
    low = float("-inf")
    mine = low if value is None else value
    return 1 + sum((low if o is None else o) >= mine for o in others)


def spread(values: list[float | None]) -> tuple[float | None, float | None]:
    """Best and median of the figures present."""
    present = [v for v in values if v is not None]
    return (max(present), statistics.median(present)) if present else (None, None)


def row_figures(row: PaperRow) -> dict:
    out: dict = {"paper": row.paper, "covered": row.covered, "agents": len(row.agents)}
    for key in HEADLINES:
        mine, theirs = _value(row.authors, key), [_value(a, key) for a in row.agents]
        best, median = spread(theirs)
        out[key] = {"authors": _round(mine), "agents_best": _round(best), "agents_median": _round(median),
                    "rank": rank(mine, theirs)}
    return out


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def pooled_firsts(figures: list[dict]) -> dict:
    """Share of papers where the authors rank first, per headline, over `true` and `true`+`partial` papers."""
    out = {}
    for group, kinds in (("true", {"true"}), ("true+partial", {"true", "partial"})):
        rows = [f for f in figures if f["covered"] in kinds]
        out[group] = {key: {"first": sum(f[key]["rank"] == 1 for f in rows), "papers": len(rows)} for key in HEADLINES}
    return out


def label_counts(summaries: list[dict]) -> dict:
    counts = Counter()
    for s in summaries:
        counts.update(s.get("counts", {}))
    decided = sum(v for k, v in counts.items() if k != "undecided")
    failures = sum(counts[k] for k in FAILURES)
    return {"reports": len(summaries), "counts": {k: counts[k] for k in LABELS},
            "failure_share": round(failures / decided, 3) if decided else None}


def summarize_source(rows: list[PaperRow]) -> dict:
    figures = [row_figures(r) for r in rows]
    return {"papers": figures, "firsts": pooled_firsts(figures),
            "labels": {"authors": label_counts([r.authors for r in rows if r.authors]),
                       "agents": label_counts([a for r in rows for a in r.agents])}}


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def render(source: str, summary: dict) -> str:
    header = ("| paper | covered | authors E | agents best E | agents median E | rank E | "
              "authors mean | agents best mean | agents median mean | rank mean |")
    lines = [f"Units: {source}", "", header, "|---|---|---|---|---|---|---|---|---|---|"]
    for f in summary["papers"]:
        e, m = f["expected_score"], f["mean_score"]
        lines.append(f"| {f['paper']} | {f['covered']} | {_f(e['authors'])} | {_f(e['agents_best'])} | "
                     f"{_f(e['agents_median'])} | {e['rank']}/{f['agents'] + 1} | {_f(m['authors'])} | "
                     f"{_f(m['agents_best'])} | {_f(m['agents_median'])} | {m['rank']}/{f['agents'] + 1} |")
    lines.append("")
    for group, per in summary["firsts"].items():
        said = "; ".join(f"by {k}: {v['first']}/{v['papers']}" for k, v in per.items())
        lines.append(f"Authors first ({group} papers): {said}")
    lines += ["", "| code | reports | " + " | ".join(LABELS) + " | failures / decided |",
              "|---|---|" + "---|" * len(LABELS) + "---|"]
    for who, c in summary["labels"].items():
        lines.append(f"| {who} | {c['reports']} | " + " | ".join(str(c["counts"][k]) for k in LABELS)
                     + f" | {_f(c['failure_share'])} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- reading the reports


def read_summary(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return {**data["summary"], "seconds": data.get("timing", {}).get("total")}


def collect(out: Path, entries: list[dict], setups: dict[str, list[str]], source: str) -> list[PaperRow]:
    rows = []
    for e in entries:
        p = e["paper"]
        agents = [read_summary(report_path(out, source, p, s)) for s in setups.get(p, [])]
        rows.append(PaperRow(p, covered(e), read_summary(report_path(out, source, p, AUTHORS)),
                             [a for a in agents if a is not None]))
    return rows


def timing(out: Path, entries: list[dict], setups: dict[str, list[str]]) -> str:
    lines = ["| paper | authors claims s | authors extracted s | agents claims s (sum of 12) | agents extracted s (sum) |",
             "|---|---|---|---|---|"]
    for e in entries:
        p, cells = e["paper"], []
        for who in (AUTHORS, None):
            for source in SOURCES:
                names = [AUTHORS] if who else setups.get(p, [])
                secs = [(read_summary(report_path(out, source, p, n)) or {}).get("seconds") for n in names]
                cells.append(f"{sum(s for s in secs if s):.0f}")
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="reports folder, outside the project")
    ap.add_argument("--papers", default=None, help="comma-separated paper ids (default: every release in the manifest)")
    ap.add_argument("--sabench", type=Path, default=SABENCH)
    ap.add_argument("--mirrors", type=Path, default=MIRRORS)
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--summary", type=Path, default=None, help="also write the figures as JSON here")
    ap.add_argument("--tables-only", action="store_true", help="read the reports under --out; evaluate nothing")
    ap.add_argument("--preview", action="store_true", help="let preview rules set failure labels (`sa-align rules`)")
    ap.add_argument("--ignore", default="", help="comma-separated rule codes or prefixes to switch off")
    ap.add_argument("--record-features", action="store_true", help="keep the calibrated judge's inputs in each report")
    args = ap.parse_args(argv)
    entries = releases(args.manifest, args.papers.split(",") if args.papers else None)
    _, runs = run_paths(args.sabench, [e["paper"] for e in entries])
    setups: dict[str, list[str]] = {}
    for r in runs:
        setups.setdefault(r.paper, []).append(r.setup)
    if not args.tables_only:
        started = time.perf_counter()
        rules = RulesConfig(preview=args.preview, ignore=[c for c in args.ignore.split(",") if c])
        done = execute(make_jobs(entries, setups), args.sabench, args.mirrors, args.out, args.workers, rules,
                       args.record_features)
        skipped = [d for d in done if d.skipped]
        print(f"\n{len(done)} repositories in {time.perf_counter() - started:.0f} s, {len(skipped)} skipped")
        for d in skipped:
            print(f"  skipped {d.job.paper} {d.job.subject}: {d.skipped}")
    figures = {s: summarize_source(collect(args.out, entries, setups, s)) for s in SOURCES}
    for s in SOURCES:
        print("\n" + render(s, figures[s]))
    print("\n" + timing(args.out, entries, setups))
    if args.summary:
        args.summary.write_text(json.dumps(figures) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
