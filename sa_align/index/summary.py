"""What the code index found: a dict for `sa-align index --json`, and a bounded text rendering of it.

The summary of a repository is cached beside the index cache's whole-repository
entry, under the same content key: a warm `sa-align index` hashes the files and
prints, without loading ~200k facts it would only count. The root and the git
commit are read anew each time (neither is part of the content).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

SUMMARY_FORMAT = 1
"""Bump when `index_summary` changes what it returns."""

SHOWN = 5
"""Items of each list the text output shows; `--json` has them all."""


def index_summary(index) -> dict[str, Any]:
    kinds = Counter(f.kind for f in index.files)
    symbols = Counter(s.kind for s in index.symbols)
    sources = Counter(v.source for v in index.values)
    functions = [s for s in index.symbols if s.kind in ("function", "method")]
    reachable = index.reachable_set
    return {
        "root": index.root,
        "git_commit": index.git_commit,
        "files": dict(sorted(kinds.items())),
        "skipped": dict(sorted(Counter(s.reason for s in index.skipped).items())),
        "symbols": dict(sorted(symbols.items())),
        "values": dict(sorted(sources.items())),
        "calls": len(index.calls),
        "calls_resolved": sum(1 for c in index.calls if c.resolved),
        "entry_points": [f"{e.path}:{e.line} ({e.kind})" for e in index.entry_points],
        "functions_reachable": f"{sum(1 for f in functions if f.id in reachable)}/{len(functions)}",
        "stubs": [f"{s.symbol} ({', '.join(s.forms)})" for s in index.stubs],
        "cache": "hit" if index.stats.get("repo_cache_hit") else f"{int(index.stats.get('parsed', 0))} files parsed",
    }


def cached_index_summary(repo: str | Path, config, cache_dir: Path | None) -> dict[str, Any]:
    """`index_summary` of `repo`, from the cache when its content was summarized before (`config`: `IndexConfig`,
    `None` for the defaults)."""
    # A hit needs only the walk, the hashes and this file: the indexer and its models load on a miss.
    from sa_align.index.gitinfo import git_commit
    from sa_align.index.snapshot import snapshot
    from sa_align.index.store import index_root, write_atomic

    path = None
    snap = snapshot(repo, config)
    if cache_dir is not None and snap.config.use_cache:
        key = snap.key
        path = index_root(cache_dir) / f"summaries-v{SUMMARY_FORMAT}" / key[:2] / f"{key}.json"
        try:
            summary = json.loads(path.read_text(encoding="utf-8"))
            return {**summary, "root": str(snap.root), "git_commit": git_commit(snap.root), "cache": "hit"}
        except (OSError, ValueError):
            pass  # not summarized yet (or unreadable): build it
    from sa_align.index.build import build_index

    # The files are read and hashed once, for the key above and for the build.
    summary = index_summary(build_index(snap, cache_dir=cache_dir))
    if path is not None:
        write_atomic(path, json.dumps(summary).encode())
    return summary


def render_index_summary(summary: dict[str, Any], shown: int = SHOWN) -> list[str]:
    """One line per entry: counts for tables, the total and the first `shown` items for lists."""
    lines = []
    for key, value in summary.items():
        if isinstance(value, dict):
            text = ", ".join(f"{k} {v}" for k, v in value.items()) or "none"
        elif isinstance(value, list):
            text = str(len(value))
            if value:
                more = f"; {len(value) - shown} more with --json" if len(value) > shown else ""
                text += ": " + "; ".join(value[:shown]) + more
        else:
            text = "none" if value is None else str(value)
        lines.append(f"{key}: {text}")
    return lines
