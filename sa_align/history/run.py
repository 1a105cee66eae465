"""`audit_history`: one unit set, many commits, in first-parent order, reusing what did not change.

Each selected commit is written from git objects into one private temporary
tree, indexed (per-file facts come from the content-keyed cache, moved files
included), retrieved, and judged; a unit whose candidate code is byte-identical
to the previous commit's keeps its verdicts (`history.reuse`).
"""

from __future__ import annotations

import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sa_align._version import __version__
from sa_align.config import EvalConfig
from sa_align.history.gitread import CommitMeta, GitRepo
from sa_align.history.materialize import Checkout, TempTree
from sa_align.history.reuse import VerdictMemo, candidates_fingerprint
from sa_align.history.timeline import ChangeTracker, commit_info
from sa_align.models import CodeSpan, DriftReport, Flag, Unit
from sa_align.models.history import CommitPoint, HistoryReport, ReuseStats, Selection
from sa_align.models.report import PaperIdentity
from sa_align.pipeline import (
    PaperLike, ProgressCallback, UnitsLike, _Run, build_report, calibrator_for, complete, index_flags,
    index_repo,
    judge_all, load, make_client, retrieve_all, run_blocking, unit_flags, units_for,
)
from sa_align.report import write_reports

DEFAULT_MAX_COMMITS = 30
"""Commits audited when no `max_commits` is given; `every` thins a longer history."""
CODE_KINDS = frozenset({"python", "notebook", "c", "shell"})


def select_commits(commits: list[str], every: int = 1, max_commits: int = DEFAULT_MAX_COMMITS) -> tuple[list[str], bool]:
    """Every `every`th commit counting back from the newest (which is always kept), then the newest
    `max_commits` of those; returns them oldest first and whether the cap dropped any."""
    thinned = commits[::-1][:: max(every, 1)][::-1]
    return thinned[-max_commits:], len(thinned) > max_commits


def audit_history(
    paper: PaperLike, repo: str | Path, *, revs: str | None = None, every: int = 1,
    max_commits: int = DEFAULT_MAX_COMMITS, units: UnitsLike = None, config: EvalConfig | None = None,
    progress: ProgressCallback | None = None, reports_dir: str | Path | None = None,
) -> HistoryReport:
    """Audit `paper` against the commits of git repository `repo` (blocking; see `audit_history_async`)."""
    return run_blocking(audit_history_async(paper, repo, revs=revs, every=every, max_commits=max_commits,
                                            units=units, config=config, progress=progress, reports_dir=reports_dir))


async def audit_history_async(
    paper: PaperLike, repo: str | Path, *, revs: str | None = None, every: int = 1,
    max_commits: int = DEFAULT_MAX_COMMITS, units: UnitsLike = None, config: EvalConfig | None = None,
    progress: ProgressCallback | None = None, reports_dir: str | Path | None = None,
) -> HistoryReport:
    """Audit the selected commits of `repo` (`revs`: `A..B`, one revision, or all of `HEAD`), oldest first.

    `reports_dir`, when given, receives each commit's `report.json` under `<short sha>/`.
    Raises `GitError` (an `InputError`) for a folder that is not a git repository, an unknown
    revision, or a shallow clone that lacks the range.
    """
    started = time.perf_counter()
    git = GitRepo(repo)
    in_range = git.first_parent(revs)
    selected, capped = select_commits(in_range, every, max_commits)
    selection = Selection(revs=revs, in_range=len(in_range), every=every, max_commits=max_commits, capped=capped,
                          after_every=len(select_commits(in_range, every, len(in_range))[0]), audited=len(selected),
                          shallow=git.is_shallow())
    with ExitStack() as stack:
        config = _with_cache(config or EvalConfig(), stack)
        run = _Run(progress)
        client = make_client(config)
        with run.stage("extract"):
            loaded = load(paper)
            unit_list = complete(await units_for(loaded, units, config, client, run))
        tree = stack.enter_context(TempTree(config.index.max_file_bytes))
        audit = _Audit(git, tree, loaded, unit_list, config, client, str(repo), reports_dir)
        metas = git.commits(selected)
        with run.stage("commits"):
            for i, sha in enumerate(selected, 1):
                await audit.commit(metas[sha])
                run.tick("history", i, len(selected))
    out = HistoryReport(
        sa_align_version=__version__, created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        paper=PaperIdentity(title=loaded.title, path=loaded.source, format=loaded.format, sha256=loaded.sha256),
        repo_path=str(repo), selection=selection, points=audit.points, changes=audit.tracker.changes,
        reuse=audit.reuse_stats(), notes=_notes(selection, in_range, audit.points) + run.errors,
        timing={**run.timing, "total": round(time.perf_counter() - started, 4)},
    )
    return out


def _with_cache(config: EvalConfig, stack: ExitStack) -> EvalConfig:
    """Reuse needs the facts cache: a run without caches gets a private one, deleted afterwards."""
    if config.use_cache and config.index.use_cache:
        return config
    tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="sa_align_history_cache_"))
    return config.model_copy(update={"cache_dir": Path(tmp), "use_cache": True,
                                     "index": config.index.model_copy(update={"use_cache": True})})


def _notes(selection: Selection, in_range: list[str], points: list[CommitPoint]) -> list[str]:
    notes = []
    if selection.capped:  # the cap is always reported
        notes.append(f"capped: audited the newest {selection.audited} of {selection.after_every} selected commits "
                     f"(max_commits={selection.max_commits}); raise --max-commits, thin with --every, or narrow --revs")
    if selection.shallow:
        notes.append(f"shallow clone: the history read starts at {in_range[0][:12]}; older commits are not in this clone")
    empty = [p.commit.sha[:12] for p in points if p.status == "no-code"]
    if empty:
        notes.append(f"{len(empty)} commit(s) hold no code and have no results: {', '.join(empty)}")
    return notes


@dataclass
class _Audit:
    """State carried from one commit to the next."""

    git: GitRepo
    tree: TempTree
    paper: object
    units: list[Unit]
    config: EvalConfig
    client: object
    repo_path: str
    reports_dir: str | Path | None

    def __post_init__(self) -> None:
        self.points: list[CommitPoint] = []
        self.memo = VerdictMemo()
        self.tracker = ChangeTracker()
        self._unit_flags = unit_flags(self.units)
        self._judged_after_first = 0
        self._reused = 0

    async def commit(self, meta: CommitMeta) -> None:
        t0 = time.perf_counter()
        checkout = self.tree.checkout(self.git, meta.sha)
        index = index_repo(self.tree.root, self.config)
        point = CommitPoint(commit=commit_info(meta), files=len(index.files), notes=checkout.notes(),
                            files_reused=int(index.stats.get("cache_hits", 0)))
        if not any(f.kind in CODE_KINDS for f in index.files):
            point.status = "no-code"
            point.notes.append("no code in this commit: nothing to audit")
            self.memo.clear()
        else:
            report, reused = await self._evaluate(meta, index, checkout)
            point.n_units, point.units_reused = len(report.results), reused
            point.mean_score, point.counts = report.summary.mean_score, dict(report.summary.counts)
            point.notes += report.errors[:5]
        point.seconds = round(time.perf_counter() - t0, 4)
        self.points.append(point)

    async def _evaluate(self, meta: CommitMeta, index, checkout: Checkout) -> tuple[DriftReport, int]:
        run = _Run(None, calibrator=calibrator_for(self.config))
        run.flags.extend(self._unit_flags + index_flags(index) + _lfs_flags(checkout))
        candidates = retrieve_all(self.units, index, self.config, run)
        prints = {u.id: candidates_fingerprint(candidates.get(u.id, []), index) for u in self.units}
        kept = {u.id: r for u in self.units if (r := self.memo.reusable(u.id, prints[u.id], index)) is not None}
        todo = [u for u in self.units if u.id not in kept]
        fresh = {r.unit.id: r for r in await judge_all(todo, candidates, index, self.paper, self.config, self.client, run)}
        results = [kept.get(u.id) or fresh[u.id] for u in self.units]
        report = build_report(self.paper, self.repo_path, index, results, self.config, self.client, run)
        report.repo.git_commit = meta.sha
        if self.points:
            self._judged_after_first += len(self.units)
            self._reused += len(kept)
        self.memo.remember(results, prints, index)
        self.tracker.add(meta, results, index)
        if self.reports_dir is not None:
            write_reports(report, Path(self.reports_dir) / meta.sha[:12], ["json"])
        return report, len(kept)

    def reuse_stats(self) -> ReuseStats:
        files = sum(p.files for p in self.points)
        reused = sum(p.files_reused for p in self.points)
        return ReuseStats(
            files=files, files_reused=reused, files_share=round(reused / files, 4) if files else None,
            units=self._judged_after_first, units_reused=self._reused,
            units_share=round(self._reused / self._judged_after_first, 4) if self._judged_after_first else None,
        )


def _lfs_flags(checkout: Checkout) -> list[Flag]:
    return [Flag(kind="lfs-pointer", message="Git LFS pointer file: indexed as text, its content was never fetched",
                 location=CodeSpan(path=p, start_line=1, end_line=1)) for p in checkout.lfs_pointers]
