"""What the code index found: a dict for `sa-align index --json`, and a bounded text rendering of it."""

from __future__ import annotations

from collections import Counter
from typing import Any

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
