"""Where the index cache lives on disk, and how a file gets there (atomically).

Kept apart from `cache.py` (which builds the fact models): a warm `sa-align index`
reads and writes its summary beside the cache without loading any model.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

INDEX_FORMAT = 9
"""Bump whenever extraction or the stored shape changes."""


def index_root(cache_dir: Path) -> Path:
    """The folder of this format's index cache under `cache_dir` (a format change never reads stale entries)."""
    return Path(cache_dir) / "index" / f"v{INDEX_FORMAT}"


def write_atomic(path: Path, blob: bytes) -> None:
    """Write `blob` to `path` through a temp file in the same folder; errors only cost speed."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
    except OSError:
        # A read-only or full cache only costs speed; the index is still built.
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
