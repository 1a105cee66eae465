"""Write a commit's files into a private temporary tree, from git objects, never from the user's work tree.

One tree serves the whole history: each commit rewrites only the paths whose
blob changed and deletes the paths that went away. Nothing is checked out with
git, so no hook, filter, attribute or fsmonitor of the repository is involved.
Unsafe paths (absolute, `..`, `.git`), symlinks and submodules are never
written; Git LFS pointer files are written as the small text files they are
(never fetched) and reported.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from sa_align.history.gitread import GitRepo, TreeEntry
from sa_align.index.walk import is_lfs_pointer


@dataclass
class Checkout:
    """What one commit's materialisation did and found."""

    written: int = 0
    kept: int = 0
    removed: int = 0
    lfs_pointers: list[str] = field(default_factory=list)
    submodules: list[str] = field(default_factory=list)
    symlinks: list[str] = field(default_factory=list)
    too_large: list[str] = field(default_factory=list)
    unsafe: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        """One sentence per kind of path that was not indexed as code."""
        out = []
        for items, what in (
            (self.lfs_pointers, "Git LFS pointer file(s) indexed as text, never fetched"),
            (self.submodules, "submodule(s) skipped (their code is another repository)"),
            (self.symlinks, "symlink(s) not followed"), (self.too_large, "file(s) over the size cap skipped"),
            (self.unsafe, "path(s) with unsafe names skipped"),
        ):
            if items:
                shown = ", ".join(items[:5]) + (" …" if len(items) > 5 else "")
                out.append(f"{len(items)} {what}: {shown}")
        return out


def safe_path(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return bool(parts) and not path.startswith("/") and all(
        p not in ("", ".", "..") and p.lower() != ".git" and "\\" not in p for p in parts)


class TempTree:
    """A temporary folder that holds one commit's files at a time; delete it with `close()` (or `with`)."""

    def __init__(self, max_file_bytes: int):
        self.root = Path(tempfile.mkdtemp(prefix="sa_align_history_"))
        self.max_file_bytes = max_file_bytes
        self._current: dict[str, str] = {}  # path -> blob oid now on disk
        self._lfs: set[str] = set()

    def __enter__(self) -> "TempTree":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def checkout(self, repo: GitRepo, sha: str) -> Checkout:
        """Make the folder hold exactly the regular files of commit `sha`."""
        info = Checkout()
        wanted = self._select(repo.tree(sha), info)
        for path in [p for p, oid in self._current.items() if wanted.get(p) != oid]:
            (self.root / path).unlink(missing_ok=True)
            del self._current[path]
            info.removed += 1
        todo = {p: oid for p, oid in wanted.items() if p not in self._current}
        info.kept = len(wanted) - len(todo)
        blobs = repo.objects(sorted(set(todo.values())))
        lfs = {p for p in self._lfs if p in wanted and p not in todo}
        for path, oid in todo.items():
            if is_lfs_pointer(blobs[oid]):
                lfs.add(path)
            self._write(path, blobs[oid])
            self._current[path] = oid
            info.written += 1
        self._lfs = lfs
        info.lfs_pointers = sorted(lfs)
        return info

    def _write(self, path: str, data: bytes) -> None:
        target = self.root / path
        if target.is_dir():  # a folder became a file between commits (its files are gone already)
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    def _select(self, entries: list[TreeEntry], info: Checkout) -> dict[str, str]:
        wanted: dict[str, str] = {}
        for e in entries:
            if not safe_path(e.path):
                info.unsafe.append(e.path)
            elif e.kind == "commit":
                info.submodules.append(e.path)
            elif e.mode == "120000":
                info.symlinks.append(e.path)
            elif e.kind == "blob" and e.size is not None and e.size > self.max_file_bytes:
                info.too_large.append(e.path)
            elif e.kind == "blob":
                wanted[e.path] = e.oid
        return wanted
