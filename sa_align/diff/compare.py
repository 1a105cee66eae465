"""Two reports -> `ReportDiff`: pair the units, then sort each pair into regression, fix, change or move."""

from __future__ import annotations

from pathlib import Path

from sa_align._version import __version__
from sa_align.diff.match import match_units, norm
from sa_align.diff.view import ReportView, ResultView
from sa_align.errors import InputError
from sa_align.models import DriftReport, Label, UnitResult
from sa_align.models.base import SCHEMA_VERSION
from sa_align.models.diff import EvidenceMove, ReportDiff, ReportSide, UnitChange, UnitRef


class DiffError(InputError):
    """Two reports that cannot be compared: different papers, or incompatible format versions."""


def _major(version: str) -> str:
    return str(version).split(".", 1)[0]


def read_report(path: str | Path) -> ReportView:
    """The fields of a `report.json` that a diff compares, if its format version is compatible.

    Reports of the same major version as this `sa_align` are read (a newer minor version only
    adds fields, which are ignored); any other is refused with both versions named.
    """
    from pydantic import ValidationError

    p = Path(path)
    try:
        text = p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"report {str(p)!r} does not exist") from None
    except OSError as exc:
        raise InputError(f"{p}: unreadable report: {exc}") from None
    try:
        report = ReportView.model_validate_json(text)
    except ValidationError as exc:
        version = _version_of(text, p)
        _check_version(version, p)
        raise InputError(f"{p}: not a valid sa_align report (format {version}): {exc}") from None
    _check_version(report.schema_version, p)
    return report


def _version_of(text: bytes, p: Path) -> str:
    import json

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError(f"{p}: not a JSON report: {exc}") from None
    return str(data.get("schema_version", "")) if isinstance(data, dict) else ""


def _check_version(version: str, p: Path) -> None:
    if _major(version) != _major(SCHEMA_VERSION):
        raise DiffError(
            f"{p}: report format version {version or '(none)'} is not compatible with version "
            f"{SCHEMA_VERSION} that this sa_align reads; re-run `sa-align evaluate` to produce a current report"
        )


Report = DriftReport | ReportView
"""A full report, or the fields of one that a diff reads."""


def _as_report(report: Report | str | Path) -> Report:
    return report if isinstance(report, (DriftReport, ReportView)) else read_report(report)


def diff_reports(old: Report | str | Path, new: Report | str | Path, *, force: bool = False) -> ReportDiff:
    """Compare two reports of one paper (objects or `report.json` paths).

    Raises `DiffError` when the papers differ (unless `force`) or the format versions are incompatible.
    """
    a, b = _as_report(old), _as_report(new)
    notes = _check(a, b, force)
    matching = match_units(a.results, b.results)
    out = ReportDiff(
        sa_align_version=__version__, old=_side(a), new=_side(b), notes=notes,
        forced=force and norm(a.paper.title) != norm(b.paper.title),
        matched=len(matching.pairs),
        added=[_ref(r) for r in matching.new_only], removed=[_ref(r) for r in matching.old_only],
    )
    if a.summary.mean_score is not None and b.summary.mean_score is not None:
        out.mean_delta = round(b.summary.mean_score - a.summary.mean_score, 4)
    for before, after, rule in matching.pairs:
        out.matched_by[rule] = out.matched_by.get(rule, 0) + 1
        _sort_pair(out, before, after, rule)
    return out


def _check(a: Report, b: Report, force: bool) -> list[str]:
    if _major(a.schema_version) != _major(b.schema_version):
        raise DiffError(f"report format versions {a.schema_version} and {b.schema_version} are not compatible")
    notes = []
    if norm(a.paper.title) != norm(b.paper.title):
        message = f"the reports are about different papers: {a.paper.title!r} and {b.paper.title!r}"
        if not force:
            raise DiffError(message + "; pass --force (force=True) to compare them anyway")
        notes.append(message + " (compared because forced)")
    elif a.paper.sha256 and b.paper.sha256 and a.paper.sha256 != b.paper.sha256:
        notes.append("the paper file changed between the two runs (same title, different SHA-256)")
    if a.schema_version != b.schema_version:
        notes.append(f"report format versions differ: {a.schema_version} and {b.schema_version} (compatible)")
    return notes


def _side(r: Report) -> ReportSide:
    return ReportSide(
        paper_title=r.paper.title, paper_sha256=r.paper.sha256, repo_path=r.repo.path, git_commit=r.repo.git_commit,
        created_at=r.created_at, schema_version=r.schema_version, n_units=len(r.results),
        mean_score=r.summary.mean_score, counts=dict(r.summary.counts),
    )


def _ref(r: UnitResult | ResultView) -> UnitRef:
    return UnitRef(id=r.unit.id, kind=r.unit.kind.value, claim=r.unit.claim, label=r.label, score=r.score)


def _spans(r: UnitResult | ResultView) -> list[tuple[str, int, int]]:
    return sorted((s.path, s.start_line, s.end_line) for s in r.evidence)


def _sort_pair(out: ReportDiff, a: UnitResult | ResultView, b: UnitResult | ResultView, rule: str) -> None:
    if a.label == b.label and a.score == b.score:
        if _spans(a) != _spans(b):
            out.moved.append(EvidenceMove(old_id=a.unit.id, new_id=b.unit.id, claim=b.unit.claim, label=b.label,
                                          before=a.evidence, after=b.evidence))
        return
    change = UnitChange(
        old_id=a.unit.id, new_id=b.unit.id, kind=b.unit.kind.value, claim=b.unit.claim, matched_by=rule,
        label_before=a.label, label_after=b.label, score_before=a.score, score_after=b.score,
        evidence_before=a.evidence, evidence_after=b.evidence, reason_after=b.reason,
    )
    {"regression": out.regressions, "fix": out.fixes, "changed": out.changed}[direction(a, b)].append(change)


def direction(a: UnitResult | ResultView, b: UnitResult | ResultView) -> str:
    """`regression` when the score fell, `fix` when it rose; anything else involving `undecided`,
    or between labels of one score, is `changed`. A preview rule's held finding counts as a finding:
    `aligned` becoming a held failure is a regression, a held failure becoming `aligned` a fix."""
    if a.label == Label.ALIGNED and b.held_label is not None:
        return "regression"
    if a.held_label is not None and b.label == Label.ALIGNED:
        return "fix"
    if a.score is None or b.score is None or a.label == Label.UNDECIDED or b.label == Label.UNDECIDED:
        return "changed"
    if b.score < a.score:
        return "regression"
    if b.score > a.score:
        return "fix"
    return "changed"
