"""A pair's inputs by content: the digest that keys resume stamps, and archives for remote workers.

The repository is read the way the indexer reads it (`walk_repo` with the
run's `IndexConfig`: gitignore, vendored folders, size caps, symlinks kept
inside the root), so the digest changes exactly when what gets indexed
changes, and an archive carries exactly the files a worker will index. A
LaTeX paper brings the `.tex`/`.bbl` files beside it, which its `\\input`s
may name.
"""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from sa_align.config import IndexConfig
from sa_align.index.gitinfo import git_commit
from sa_align.index.walk import walk_repo

LATEX_SIBLINGS = (".tex", ".bbl")
MAX_PAPER_FILES = 200
"""Most files a LaTeX paper brings along (the paper itself first)."""


@dataclass
class Bundle:
    """Files under one folder, by relative path, with a digest of their content."""

    files: dict[str, Path] = field(default_factory=dict)
    """Relative POSIX path -> file on this machine."""
    digest: str = ""
    """SHA-256 over the sorted (path, content hash) pairs and `extra`."""
    skipped: int = 0
    """Files the walk left out (counted in the report, never shipped)."""
    git_commit: str | None = None
    """The repository's HEAD, read on this machine (`.git` is never shipped)."""


@dataclass
class Job:
    """One pair to evaluate, with its inputs read on this machine and the stamp it will be written with."""

    pair: Any
    """The manifest line (`manifest.Pair`)."""
    paper: Bundle
    """The paper's files."""
    repo: Bundle
    """The repository's indexable files."""
    stamp: str
    """The `.done` stamp its reports get."""


def file_digest(path: Path | None) -> str:
    return "" if path is None else hashlib.sha256(path.read_bytes()).hexdigest()


def repo_bundle(repo: Path, config: IndexConfig) -> Bundle:
    """The files the indexer would read in `repo`, and what it would skip."""
    walked = walk_repo(repo, config)
    extra = sorted(f"{s.path}\0{s.reason}" for s in walked.skipped)
    return Bundle(files=dict(walked.files), digest=_digest(walked.files, extra), skipped=len(walked.skipped),
                  git_commit=git_commit(repo))


def paper_bundle(paper: Path) -> Bundle:
    """The paper file, plus the LaTeX sources beside it for a `.tex` paper."""
    files = {paper.name: paper}
    if paper.suffix.lower() == ".tex":
        for path in sorted(paper.parent.rglob("*")):
            if len(files) >= MAX_PAPER_FILES:
                break
            if path.suffix.lower() in LATEX_SIBLINGS and path.is_file() and not path.is_symlink():
                files.setdefault(path.relative_to(paper.parent).as_posix(), path)
    return Bundle(files=files, digest=_digest(files, []))


def pair_digest(paper: Bundle, repo: Bundle, units: Path | None) -> str:
    """What a pair's report depends on besides the configuration, by content only."""
    return hashlib.sha256(json.dumps([paper.digest, repo.digest, file_digest(units)]).encode()).hexdigest()


def _digest(files: dict[str, Path], extra: list[str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        try:
            data = files[rel].read_bytes()
        except OSError:
            data = b"\0unreadable"
        h.update(f"{rel}\0{hashlib.sha256(data).hexdigest()}\n".encode())
    h.update("\n".join(extra).encode())
    return h.hexdigest()


def pack(bundle: Bundle) -> bytes:
    """A gzip'd tar of the bundle's files: sorted, zero mtimes, so equal content gives equal bytes."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=1) as tar:
        for rel in sorted(bundle.files):
            try:
                data = bundle.files[rel].read_bytes()
            except OSError:
                continue  # unreadable here: the indexer records it as skipped on the worker too
            info = tarfile.TarInfo(rel)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def unpack(blob: bytes, dest: Path) -> Path:
    """Write an archive made by `pack` under `dest`; only regular files with relative, inward names."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(blob), mode="r:gz") as tar:
        for member in tar:
            name = PurePosixPath(member.name)
            if not member.isfile() or name.is_absolute() or ".." in name.parts:
                continue
            target = dest.joinpath(*name.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            target.write_bytes(source.read() if source is not None else b"")
    return dest
