"""Where SA-Bench's published runs are read from: a checkout, or a git directory without a work tree.

Both give the same four operations over paths relative to the dataset root:
list a folder, list every file under a folder, read a file, and export a folder
into a fresh directory (leaving out one sub-folder). The git form reads objects
with git's own commands and never checks anything out, so no filter, hook or
attribute of the dataset's repository runs.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from functools import cached_property
from pathlib import Path, PurePosixPath

from sa_align.errors import DatasetError

# git is run with the dataset repository's own configuration neutralised: nothing
# of the dataset decides what runs on this machine.
_SAFE_GIT = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never")


class Source:
    """Read access to a dataset root; `open_source` picks the implementation."""

    label: str

    def listdir(self, rel: str) -> list[str]:
        raise NotImplementedError

    def files_under(self, rel: str) -> list[str]:
        raise NotImplementedError

    def read(self, rel: str) -> bytes | None:
        raise NotImplementedError

    def export(self, rel: str, dest: Path, *, skip: str) -> int:
        """Copy the folder `rel` into `dest` without its top-level sub-folder `skip`; the file count."""
        raise NotImplementedError


class FolderSource(Source):
    """A checked-out dataset."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self.label = str(root)

    def _path(self, rel: str) -> Path:
        path = (self.root / rel).resolve()
        if path != self.root and self.root not in path.parents:
            raise DatasetError(f"{rel!r} leaves the dataset folder {self.root}")
        return path

    def listdir(self, rel: str) -> list[str]:
        path = self._path(rel)
        return sorted(p.name for p in path.iterdir()) if path.is_dir() else []

    def files_under(self, rel: str) -> list[str]:
        base = self._path(rel)
        if not base.is_dir():
            return []
        return sorted(str(PurePosixPath(rel) / p.relative_to(base).as_posix()) for p in base.rglob("*") if p.is_file())

    def read(self, rel: str) -> bytes | None:
        path = self._path(rel)
        return path.read_bytes() if path.is_file() else None

    def export(self, rel: str, dest: Path, *, skip: str) -> int:
        src = self._path(rel)
        if not src.is_dir():
            raise DatasetError(f"no folder {rel} in {self.label}")

        def ignore(folder: str, names: list[str]) -> list[str]:
            return [skip] if Path(folder).resolve() == src and skip in names else []

        # Links are copied as links: the indexer never follows one out of the repository.
        shutil.copytree(src, dest, symlinks=True, ignore=ignore, dirs_exist_ok=True)
        return sum(1 for p in dest.rglob("*") if p.is_file())


class GitSource(Source):
    """A git directory (bare, or a fetched copy without a work tree), read at one commit."""

    def __init__(self, git_dir: Path, rev: str = "HEAD"):
        self.git_dir = git_dir.resolve()
        self.rev = rev
        self.label = f"{git_dir}@{rev}"
        self.commit = self._git("rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()

    def _git(self, *args: str) -> bytes:
        proc = subprocess.run(
            ["git", *_SAFE_GIT, f"--git-dir={self.git_dir}", *args],
            capture_output=True, stdin=subprocess.DEVNULL, timeout=300,
        )
        if proc.returncode != 0:
            raise DatasetError(f"git {' '.join(args[:2])} failed in {self.git_dir}: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout

    @cached_property
    def _tree(self) -> list[str]:
        return self._git("ls-tree", "-r", "--name-only", "-z", self.commit).decode("utf-8", "replace").split("\0")

    def listdir(self, rel: str) -> list[str]:
        prefix = rel.rstrip("/") + "/"
        return sorted({p[len(prefix):].split("/", 1)[0] for p in self._tree if p.startswith(prefix)})

    def files_under(self, rel: str) -> list[str]:
        prefix = rel.rstrip("/") + "/"
        return [p for p in self._tree if p.startswith(prefix)]

    def read(self, rel: str) -> bytes | None:
        if rel not in self._tree_set:
            return None
        return self._git("cat-file", "blob", f"{self.commit}:{rel}")

    @cached_property
    def _tree_set(self) -> frozenset[str]:
        return frozenset(self._tree)

    def export(self, rel: str, dest: Path, *, skip: str) -> int:
        data = self._git("archive", "--format=tar", f"{self.commit}:{rel}")
        dest.mkdir(parents=True, exist_ok=True)
        count = 0
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            members = [m for m in tar.getmembers() if m.name.split("/", 1)[0] != skip]
            # The "data" filter refuses absolute paths, links out of `dest` and device files.
            tar.extractall(dest, members=members, filter="data")
            count = sum(1 for m in members if m.isfile())
        return count


def open_source(path: str | Path, rev: str = "HEAD") -> Source:
    """A checkout (a folder holding `experiments/`) or a git directory (bare or `.git`)."""
    root = Path(path)
    if not root.is_dir():
        raise DatasetError(f"SA-Bench dataset {root} is not a folder; pass a checkout or a git directory of SA-Bench")
    if (root / "experiments").is_dir():
        return FolderSource(root)
    for git_dir in (root, root / ".git", root / "repo"):
        if (git_dir / "HEAD").is_file() and (git_dir / "objects").is_dir():
            return GitSource(git_dir, rev)
    raise DatasetError(f"{root} is neither an SA-Bench checkout (no experiments/ folder) nor a git directory")
