"""What a batch keeps per pair: its reports with a `.done` stamp, its outcome, and the aggregate table.

A pair counts as finished once its `report.json` exists beside a `.done` stamp
equal to the hash of its inputs' content and the configuration: a moved or
renamed input resumes, a changed one (or a changed configuration) re-runs.
Both executors write through `write_pair`, so their folders look the same.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from sa_align.config import EvalConfig
from sa_align.models import Label
from sa_align.report import load_report, write_reports


class PairOutcome(BaseModel):
    """What happened to one pair in this run."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    id: str
    """The pair."""
    status: str
    """`done` (evaluated now), `skipped` (finished in an earlier run) or `failed`."""
    mean_score: float | None = None
    """Mean SA-Bench score of the report."""
    counts: dict[str, int] = {}
    """Units per label."""
    error: str | None = None
    """Why it failed."""


def stamp(digest: str, config: EvalConfig) -> str:
    """The `.done` stamp of a pair whose inputs have content digest `digest`, evaluated by this code."""
    from sa_align.resources import code_fingerprint

    blob = json.dumps([digest, config.public_dict(), code_fingerprint()], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def stamp_matches(folder: Path, expected: str) -> bool:
    done, report = folder / ".done", folder / "report.json"
    return done.is_file() and report.is_file() and done.read_text(encoding="utf-8") == expected


def write_pair(report, folder: Path, formats: tuple[str, ...], done_stamp: str) -> PairOutcome:
    """Write a pair's reports (JSON always), then its stamp; the outcome says what was written."""
    write_reports(report, folder, formats if "json" in formats else ("json", *formats))
    (folder / ".done").write_text(done_stamp, encoding="utf-8")
    s = report.summary
    return PairOutcome(id=folder.name, status="done", mean_score=s.mean_score, counts=s.counts)


def failed(pair_id: str, exc: BaseException | str) -> PairOutcome:
    error = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    return PairOutcome(id=pair_id, status="failed", error=error)


def finished(folder: Path, pair_id: str) -> PairOutcome:
    s = load_report(folder / "report.json").summary
    return PairOutcome(id=pair_id, status="skipped", mean_score=s.mean_score, counts=s.counts)


def write_aggregate(outcomes: list[PairOutcome], out: Path) -> None:
    """`summary.csv` for machines and `summary.md` for people, one row per pair."""
    labels = [label.value for label in Label]
    header = ["id", "status", "mean_score", *labels, "error"]
    rows = [
        [o.id, o.status, "" if o.mean_score is None else f"{o.mean_score:.4f}",
         *[str(o.counts.get(lb, "")) for lb in labels], o.error or ""]
        for o in outcomes
    ]
    buf = io.StringIO()
    csv.writer(buf).writerows([header, *rows])
    (out / "summary.csv").write_text(buf.getvalue(), encoding="utf-8")
    md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    md += ["| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in row) + " |" for row in rows]
    (out / "summary.md").write_text("\n".join(md) + "\n", encoding="utf-8")
