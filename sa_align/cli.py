"""The `sa-align` command.

Exit codes: 0 success; 1 the run score (the headline) is below `--fail-under`; 2 bad input or usage, or a
repository with no code or configuration file (unless `--allow-empty`); 3 `diff --fail-on regression`
found a unit whose score fell.
Only typer (and `cli_options`: the options, config and usage error the commands share, typer
only) is imported at module level so `sa-align --help` starts fast; each command imports what it needs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from sa_align.cli_options import (  # `formats` is also a parameter of the commands, hence the alias
    EXIT_INPUT, CalibOpt, EmbedOpt, FormatOpt, IgnoreOpt, JudgeOpt, PreviewOpt, SelectOpt, eval_config, fail,
    rules_selection,
)
from sa_align.cli_options import formats as _formats

EXIT_OK, EXIT_BELOW, EXIT_REGRESSION = 0, 1, 3

app = typer.Typer(
    name="sa-align",
    help="Audit whether a code repository faithfully implements a research paper.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _version(value: bool) -> None:
    if value:
        from sa_align._version import __version__

        typer.echo(f"sa-align {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit."),
) -> None:
    """Audit whether a code repository faithfully implements a research paper."""


@app.command()
def evaluate(
    paper: Path = typer.Argument(..., help="Paper file: .md, .txt, .tex or .pdf."),
    repo: Path = typer.Argument(..., help="Repository folder to audit (never executed)."),
    units: Optional[Path] = typer.Option(None, "--units", "-u", help="Units file to use instead of extracting (ours, SA-Bench sau.json, PaperBench rubric.json)."),
    out: Path = typer.Option(Path("sa_align_report"), "--out", "-o", help="Folder for the reports."),
    formats: str = FormatOpt,
    judge: Optional[List[str]] = JudgeOpt,
    samples: int = typer.Option(1, "--samples", min=1, help="Samples per judge model."),
    budget: Optional[float] = typer.Option(None, "--budget", help="Dollar budget for LLM calls."),
    top_k: Optional[int] = typer.Option(None, "--top-k", min=1, help="Candidates per unit."),
    fail_under: Optional[float] = typer.Option(None, "--fail-under", help="Exit 1 when the run score is below this (0-1): the calibrated expected score over all units, else the mean over decided units."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write caches."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", help="Cache folder (default ~/.cache/sa_align)."),
    embeddings: Optional[bool] = EmbedOpt,
    calibration: bool = CalibOpt,
    calibration_model: Optional[Path] = typer.Option(None, "--calibration-model", help="A calibration model file to use instead of the shipped one."),
    allow_uncalibrated: bool = typer.Option(False, "--allow-uncalibrated", help="With a missing, corrupt or stale calibration model, use the hand-set aggregate (flagged in the report) instead of failing."),
    allow_empty: bool = typer.Option(False, "--allow-empty", help="Exit 0 even when REPO holds no code or configuration file (otherwise a warning and exit 2)."),
    select: Optional[List[str]] = SelectOpt,
    ignore: Optional[List[str]] = IgnoreOpt,
    preview: bool = PreviewOpt,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Audit REPO against PAPER and write report files into --out."""
    from sa_align.errors import CalibrationError, InputError
    from sa_align.pipeline import evaluate as run_evaluate
    from sa_align.progress import StageProgress
    from sa_align.report import write_reports

    fmts = _formats(formats)
    config = eval_config(judge, samples=samples, budget=budget, top_k=top_k, no_cache=no_cache, cache_dir=cache_dir,
                         embeddings=embeddings, rules=rules_selection(select, ignore, preview),
                         calibration={"enabled": calibration, "model": calibration_model, "allow_uncalibrated": allow_uncalibrated})
    try:
        with StageProgress(enabled=not quiet) as progress:
            report = run_evaluate(paper, repo, units=units, config=config, progress=progress)
    except (InputError, CalibrationError) as exc:
        raise fail(str(exc))
    paths = write_reports(report, out, fmts)
    _print_summary(report, paths, quiet)
    if not report.summary.has_code and not allow_empty:
        # The reports are written (they say the same), but a pipeline must not take "all missing" for a result.
        raise typer.Exit(EXIT_INPUT)
    _gate(report, fail_under)


def _print_summary(report, paths: list[Path], quiet: bool) -> None:
    from sa_align.report.console import summary_lines, warnings

    for warning in warnings(report):
        typer.secho(f"warning: {warning}", err=True, fg=typer.colors.YELLOW)
    if quiet:
        return
    for line in summary_lines(report):
        typer.echo(line)
    for p in paths:
        typer.echo(f"wrote {p}")


def _gate(report, fail_under: float | None) -> None:
    if fail_under is None:
        return
    # The headline, not the mean over decided units: a finding held back for review (a preview rule's)
    # leaves its unit undecided, so the mean over decided units would rise as findings are held.
    s = report.summary
    score, what = (s.expected_score, "expected score") if s.expected_score is not None else (s.mean_score, "mean score")
    if score is None or score < fail_under:
        typer.secho(f"{what} {score} is below --fail-under {fail_under}", err=True, fg=typer.colors.RED)
        raise typer.Exit(EXIT_BELOW)


@app.command()
def extract(
    paper: Path = typer.Argument(..., help="Paper file."),
    output: Path = typer.Option(Path("units.yaml"), "--output", "-o", help="Units file to write (.yaml or .json)."),
    extractor: Optional[List[str]] = typer.Option(None, "--extractor", "-e", help="LLM extractor model; repeatable. None: offline rules."),
    max_units: int = typer.Option(80, "--max-units", min=0, help="Units kept, the most checkable and central first; 0 keeps all."),
) -> None:
    """Extract units from PAPER into an editable units file (pass it back with `evaluate --units`)."""
    import asyncio

    from sa_align.config import EvalConfig
    from sa_align.errors import InputError
    from sa_align.extract import extract_async
    from sa_align.paper import load_paper
    from sa_align.pipeline import make_client
    from sa_align.unitsfile import save_units

    try:
        loaded = load_paper(paper)
        config = EvalConfig(extractors=extractor or [], max_units=max_units or None)
        extraction = asyncio.run(extract_async(loaded, config, make_client(config)))
    except InputError as exc:
        raise fail(str(exc))
    save_units(extraction.units, output, paper=str(paper))
    for note in extraction.notes:
        typer.echo(note, err=True)
    typer.echo(f"wrote {len(extraction.units)} units to {output}")


@app.command()
def index(
    repo: Path = typer.Argument(..., help="Repository folder."),
    as_json: bool = typer.Option(False, "--json", help="Print everything found as JSON (the text output shows counts and the first few of each list)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the index cache."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", help="Cache folder (default ~/.cache/sa_align)."),
) -> None:
    """Summarize what the code index finds in REPO (cached by content, as `evaluate` caches it)."""
    from sa_align.config import default_cache_dir
    from sa_align.errors import InputError
    from sa_align.index.summary import cached_index_summary, render_index_summary

    # The default index settings, without validating a whole EvalConfig (a warm run takes a third of a second).
    cache = None if no_cache else cache_dir or default_cache_dir()
    try:
        summary = cached_index_summary(repo, None, cache)
    except InputError as exc:
        raise fail(str(exc))
    if as_json:
        import json

        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo("\n".join(render_index_summary(summary)))


@app.command()
def report(
    report_json: Path = typer.Argument(..., help="A report.json written by `evaluate`."),
    formats: str = typer.Option("md", "--format", "-f", help="Formats to render: json, md, html, sarif."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Folder for the rendered files (default: the folder of REPORT_JSON)."),
) -> None:
    """Re-render a saved report in other formats, next to it unless --out says otherwise."""
    from sa_align.errors import InputError
    from sa_align.report import load_report, write_reports

    try:
        loaded = load_report(report_json)
    except InputError as exc:
        raise fail(str(exc))
    for path in write_reports(loaded, out if out is not None else report_json.parent, _formats(formats)):
        typer.echo(f"wrote {path}")


@app.command()
def bench(
    dataset: Path = typer.Argument(..., help="A benchmark case folder or a folder of cases."),
    judge: Optional[List[str]] = JudgeOpt,
    variants: int = typer.Option(120, "--variants", help="Mutated variants to generate over all cases (0: clean cases only)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the mutation generator."),
    no_hints: bool = typer.Option(False, "--no-hints", help="Remove every unit's hints (the shape imported units have)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the metrics as JSON here."),
    judgeeval: bool = typer.Option(False, "--judgeeval", help="DATASET is a folder of PaperBench JudgeEval submissions."),
    sabench: bool = typer.Option(False, "--sabench", help="DATASET is SA-Bench (a checkout or a git directory): compare with its judge on its agent runs."),
    papers: Optional[List[str]] = typer.Option(None, "--papers", help="With --sabench: papers to run (default: the development split)."),
    setups: Optional[List[str]] = typer.Option(None, "--setups", help="With --sabench: setups to run (default: all)."),
    workers: int = typer.Option(1, "--workers", min=1, help="With --sabench: runs evaluated in parallel processes."),
    train: Optional[Path] = typer.Option(None, "--train", help="With --sabench: train the calibrated judge on the selected (development) papers into this folder, with folds grouped by paper."),
    folds: int = typer.Option(5, "--folds", min=2, help="With --train: cross-validation folds (papers per fold about equal)."),
    embeddings: Optional[bool] = EmbedOpt,
    calibration: bool = CalibOpt,
    select: Optional[List[str]] = SelectOpt,
    ignore: Optional[List[str]] = IgnoreOpt,
    preview: bool = PreviewOpt,
) -> None:
    """Measure sa_align on a labelled dataset and print the metrics table."""
    from sa_align.bench import render_table, run_bench, run_judgeeval
    from sa_align.errors import CalibrationError, InputError

    config = eval_config(judge, embeddings=embeddings, calibration={"enabled": calibration},
                         rules=rules_selection(select, ignore, preview))
    if train is not None:
        if not sabench:
            raise fail("--train needs --sabench: the calibrated judge is trained on SA-Bench's judged claims")
        return _train(dataset, config, train, papers, setups, workers, folds)
    try:
        if sabench:
            result = _sabench(dataset, config, out, papers, setups, workers)
        elif judgeeval:
            result = run_judgeeval(dataset, config, out=out)
        else:
            result = run_bench(dataset, config, variants=variants, seed=seed, out=out, hints=not no_hints)
    except (InputError, CalibrationError) as exc:
        raise fail(str(exc))
    render_table(result)


def _sabench(dataset: Path, config, out: Optional[Path], papers, setups, workers: int):
    """SA-Bench runs with a progress bar; `--out` is a folder here (results and resumable runs)."""
    from sa_align.bench.sabench import run_sabench
    from sa_align.progress import StageProgress

    with StageProgress() as bar:
        return run_sabench(dataset, config, out=out, papers=papers, setups=setups, workers=workers,
                           progress=lambda done, total: bar("runs", done, total))


def _train(dataset: Path, config, out: Path, papers, setups, workers: int, folds: int) -> None:
    from sa_align.bench.sabench.calibration import train_sabench
    from sa_align.errors import InputError
    from sa_align.progress import StageProgress

    try:
        with StageProgress() as bar:
            result = train_sabench(dataset, config, out, papers=papers, setups=setups, workers=workers, folds=folds,
                                   progress=bar)
    except (InputError, ValueError) as exc:
        raise fail(str(exc))
    typer.echo(result.markdown())
    typer.echo(f"wrote {result.model_path} (copy it to units/calibration/sabench.json to ship it)")


@app.command()
def batch(
    manifest: Path = typer.Argument(..., help="JSON Lines file: one {id, paper, repo, units} object per line."),
    out: Path = typer.Option(Path("sa_align_batch"), "--out", "-o", help="Folder for per-pair reports and the aggregate table."),
    formats: str = FormatOpt,
    judge: Optional[List[str]] = JudgeOpt,
    samples: int = typer.Option(1, "--samples", min=1, help="Samples per judge model."),
    budget: Optional[float] = typer.Option(None, "--budget", help="Dollar budget per pair for LLM calls."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Processes, or CPUs of a local Ray runtime (default: one per core)."),
    executor: str = typer.Option("process", "--executor", "-e", help="Where pairs run: process (a local pool) or ray (Ray tasks; the `ray` extra)."),
    address: Optional[str] = typer.Option(None, "--address", help="Ray cluster address (HOST:PORT, ray://HOST:PORT or auto); none starts a local Ray runtime."),
    shared_prefix: Optional[Path] = typer.Option(None, "--shared-prefix", help="A folder every Ray node mounts at the same path: inputs under it are read in place, not shipped."),
    embeddings: Optional[bool] = EmbedOpt,
    calibration: bool = CalibOpt,
    select: Optional[List[str]] = SelectOpt,
    ignore: Optional[List[str]] = IgnoreOpt,
    preview: bool = PreviewOpt,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No per-pair output."),
) -> None:
    """Evaluate many (paper, repo) pairs with shared caches; an interrupted batch resumes."""
    from sa_align.batch import run_batch
    from sa_align.errors import InputError

    def show(o) -> None:
        if not quiet:
            mean = "" if o.mean_score is None else f" mean {o.mean_score:.3f}"
            typer.echo(f"{o.id}: {o.status}{mean}{' ' + o.error if o.error else ''}")

    config = eval_config(judge, samples=samples, budget=budget, embeddings=embeddings, calibration={"enabled": calibration},
                         rules=rules_selection(select, ignore, preview))
    try:
        outcomes = run_batch(manifest, out, config, executor=executor, workers=workers, address=address,
                             shared_prefix=shared_prefix, formats=_formats(formats), on_pair=show)
    except InputError as exc:
        raise fail(str(exc))
    failed = sum(1 for o in outcomes if o.status == "failed")
    typer.echo(f"{len(outcomes)} pairs, {failed} failed; table in {out / 'summary.md'}")


@app.command()
def diff(
    old: Path = typer.Argument(..., help="The old report.json."),
    new: Path = typer.Argument(..., help="The new report.json (same paper)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write diff files here; without it the Markdown goes to stdout."),
    formats: str = typer.Option("md,json", "--format", "-f", help="With --out: comma-separated md, json, html."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", help="`regression`: exit 3 when a unit's score fell."),
    force: bool = typer.Option(False, "--force", help="Compare reports of different papers anyway."),
) -> None:
    """Compare two reports of one paper: regressions, fixes, added/removed units, moved evidence."""
    from sa_align.diff import DIFF_FORMATS, diff_reports, render_diff, write_diff
    from sa_align.errors import InputError

    if fail_on not in (None, "regression"):
        raise fail(f"--fail-on takes `regression`, not {fail_on!r}")
    fmts = [f.strip() for f in formats.split(",") if f.strip()]
    bad = [f for f in fmts if f not in DIFF_FORMATS]
    if bad:
        raise fail(f"unknown diff format(s) {', '.join(bad)}; choose from {', '.join(DIFF_FORMATS)}")
    try:
        result = diff_reports(old, new, force=force)
    except InputError as exc:
        raise fail(str(exc))
    if out is None:
        typer.echo(render_diff(result, "md"), nl=False)
    else:
        for path in write_diff(result, out, fmts):
            typer.echo(f"wrote {path}")
    if fail_on == "regression" and result.regressions:
        typer.secho(f"{len(result.regressions)} unit(s) regressed", err=True, fg=typer.colors.RED)
        raise typer.Exit(EXIT_REGRESSION)


@app.command()
def history(
    paper: Path = typer.Argument(..., help="Paper file: .md, .txt, .tex or .pdf."),
    repo: Path = typer.Argument(..., help="Git repository (its commits are read from git objects, never executed)."),
    revs: Optional[str] = typer.Option(None, "--revs", help="Commits to audit: A..B, or one revision and its history (default HEAD)."),
    every: int = typer.Option(1, "--every", min=1, help="Audit every Nth commit, counting back from the newest."),
    max_commits: Optional[int] = typer.Option(None, "--max-commits", min=1, help="Audit at most this many (newest) commits; default 30."),
    units: Optional[Path] = typer.Option(None, "--units", "-u", help="Units file for the whole history (default: extracted once)."),
    out: Path = typer.Option(Path("sa_align_history"), "--out", "-o", help="Folder for history.json, history.html and per-commit reports."),
    judge: Optional[List[str]] = JudgeOpt,
    no_cache: bool = typer.Option(False, "--no-cache", help="Use a private cache for this run only."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", help="Cache folder (default ~/.cache/sa_align)."),
    embeddings: Optional[bool] = EmbedOpt,
    calibration: bool = CalibOpt,
    select: Optional[List[str]] = SelectOpt,
    ignore: Optional[List[str]] = IgnoreOpt,
    preview: bool = PreviewOpt,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Audit the commits of REPO against PAPER, oldest first: a timeline and the commit that changed each label."""
    from sa_align.errors import InputError
    from sa_align.history import DEFAULT_MAX_COMMITS, audit_history, summary_lines, write_history
    from sa_align.progress import StageProgress

    config = eval_config(judge, no_cache=no_cache, cache_dir=cache_dir, embeddings=embeddings,
                         calibration={"enabled": calibration}, rules=rules_selection(select, ignore, preview))
    try:
        with StageProgress(enabled=not quiet) as progress:
            result = audit_history(paper, repo, revs=revs, every=every, max_commits=max_commits or DEFAULT_MAX_COMMITS,
                                   units=units, config=config, progress=progress, reports_dir=out / "commits")
    except InputError as exc:
        raise fail(str(exc))
    paths = write_history(result, out)
    for note in result.notes:
        typer.echo(f"note: {note}", err=True)
    if not quiet:
        typer.echo("\n".join([*summary_lines(result), *(f"wrote {p}" for p in paths)]))


@app.command("rules")
def rules_command(
    code: Optional[str] = typer.Argument(None, help="A rule code or prefix (NUM005, NUM): show its whole doc and examples."),
    as_json: bool = typer.Option(False, "--json", help="The same data as JSON, doc fields, examples and what precision was measured on included."),
) -> None:
    """List the rules that set or veto a label: code, name, judge, what it decides, status and measured precision."""
    from sa_align.errors import ConfigError
    from sa_align.rules.show import show

    try:
        text = show(code, as_json)
    except ConfigError as exc:
        raise fail(str(exc))
    if text is not None:
        typer.echo(text)


def main() -> None:
    """Console entry point; maps usage errors to exit code 2."""
    try:
        app()
    except SystemExit as exc:
        sys.exit(exc.code)


if __name__ == "__main__":
    main()
