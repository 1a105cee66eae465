"""Audit a repository's history commit by commit against one unit set: a timeline and the commits
that changed each unit's label.

    from sa_align.history import audit_history
    h = audit_history("paper.md", "path/to/repo", revs="v1.0..HEAD")
    for change in h.changes:
        print(change.unit_id, change.label_before, "->", change.label_after, "in", change.commit.sha[:8])
"""

from __future__ import annotations

from sa_align.history.gitread import GitError
from sa_align.history.render import HISTORY_FORMATS, render_history, summary_lines, write_history
from sa_align.history.run import DEFAULT_MAX_COMMITS, audit_history, audit_history_async, select_commits
from sa_align.models.history import HISTORY_SCHEMA_VERSION, HistoryReport

__all__ = [
    "DEFAULT_MAX_COMMITS", "GitError", "HISTORY_FORMATS", "HISTORY_SCHEMA_VERSION", "HistoryReport",
    "audit_history", "audit_history_async", "render_history", "select_commits", "summary_lines", "write_history",
]
