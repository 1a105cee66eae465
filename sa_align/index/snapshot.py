"""A repository as it is now: the walk, the bytes and hashes of its files, and its cache key.

Apart from `build.py` so that a warm `sa-align index`, which only needs the key
to find its cached summary, loads neither the extractors nor the fact models.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sa_align.errors import RepoError
from sa_align.index.walk import Skip, WalkResult, walk_repo

if TYPE_CHECKING:
    from sa_align.config import IndexConfig

SNIFF_BYTES = 8192


@dataclass(frozen=True)
class Snapshot:
    """A repository as it is now: what the walk found, the bytes and hashes of its files, its cache key."""

    root: Path
    config: IndexConfig
    walked: WalkResult
    data: dict[str, bytes]
    hashes: dict[str, str]
    content: str
    """SHA-256 over sorted (path, sha256) pairs."""
    key: str
    """The key of the whole-repository cache entry: the content and the skipped files, not the path."""


def snapshot(repo: str | Path, config: IndexConfig | None = None) -> Snapshot:
    """Walk, read and hash the repository as it is now (raises `RepoError` like `build_index`)."""
    root = check_root(repo)
    if config is None:
        from sa_align.config import IndexConfig

        config = IndexConfig.model_construct()  # the defaults, without building the validator
    walked = walk_repo(root, config)
    data = _read(walked.files, walked.skipped)
    hashes = {rel: hashlib.sha256(blob).hexdigest() for rel, blob in data.items()}
    content = content_hash(hashes)
    # Skipped files are part of the picture (and not of the content hash).
    pack_key = hashlib.sha256(
        "\n".join([content, *sorted(f"{s.path}\0{s.reason}" for s in walked.skipped)]).encode()
    ).hexdigest()
    return Snapshot(root, config, walked, data, hashes, content, pack_key)


def repo_cache_key(repo: str | Path, config: IndexConfig | None = None) -> str:
    """The key the whole-repository cache entry of `repo` is stored under: its content, not its path."""
    return snapshot(repo, config).key


def _read(files: dict[str, Path], skipped: list[Skip]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for rel, path in files.items():
        try:
            data = path.read_bytes()
        except OSError:
            skipped.append(Skip(path=rel, reason="unreadable"))
            continue
        if b"\0" in data[:SNIFF_BYTES]:
            skipped.append(Skip(path=rel, reason="binary"))
            continue
        out[rel] = data
    return out


def check_root(repo: str | Path) -> Path:
    root = Path(repo)
    if not root.exists():
        raise RepoError(f"repository {str(root)!r} does not exist; pass the path of a checked-out repository")
    if not root.is_dir():
        raise RepoError(f"repository {str(root)!r} is not a directory; pass the repository's root folder")
    return root.resolve()


def content_hash(hashes: dict[str, str]) -> str:
    """SHA-256 over sorted (path, sha256) pairs."""
    content = hashlib.sha256()
    for rel in sorted(hashes):
        content.update(f"{rel}\0{hashes[rel]}\n".encode())
    return content.hexdigest()
