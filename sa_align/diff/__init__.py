"""Compare two drift reports of one paper: regressions, fixes, added and removed units, moved evidence.

    from sa_align.diff import diff_reports, render_diff
    d = diff_reports("old/report.json", "new/report.json")
    print(render_diff(d, "md"))
"""

from __future__ import annotations

from sa_align.diff.compare import DiffError, diff_reports, read_report
from sa_align.diff.render import DIFF_FORMATS, render_diff, write_diff
from sa_align.models.diff import DIFF_SCHEMA_VERSION, ReportDiff, diff_schema

__all__ = [
    "DIFF_FORMATS", "DIFF_SCHEMA_VERSION", "DiffError", "ReportDiff", "diff_reports", "diff_schema",
    "read_report", "render_diff", "write_diff",
]
