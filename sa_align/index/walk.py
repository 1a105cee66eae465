"""Walk a repository: which files to index, and why the others were skipped.

The walk never follows a symlink out of the repository root, visits every real
directory at most once (so symlink loops end), prunes vendored directories and
gitignored paths, and reports a pruned directory once (as `dir/`) instead of
listing every file inside it. A name with a control character (a line break, an
escape sequence) is skipped as `control-character-in-name`, so no such path
reaches a prompt or a report; the skip record shows it escaped.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pathspec

from sa_align.resources import load_yaml

if TYPE_CHECKING:
    from sa_align.config import IndexConfig
    from sa_align.index.model import FileKind


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Characters a file name may carry that would break a line or a terminal when the path is shown."""


def escape_controls(name: str) -> str:
    """`name` with every control character written as a `\\xNN`/`\\uNNNN` escape."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", name)


@dataclass(frozen=True)
class WalkRules:
    """Walk knowledge loaded from `units/entrypoints.yaml`."""

    vendored: pathspec.PathSpec
    binary_exts: frozenset[str]
    kinds: dict[str, FileKind]
    makefiles: tuple[str, ...]


@lru_cache(maxsize=1)
def walk_rules() -> WalkRules:
    data = load_yaml("entrypoints.yaml")
    walk = data["walk"]
    kinds = {ext: kind for kind, exts in walk["kinds"].items() for ext in exts}
    return WalkRules(
        vendored=pathspec.GitIgnoreSpec.from_lines(walk["vendored"]),
        binary_exts=frozenset(walk["binary_extensions"]),
        kinds=kinds,
        makefiles=tuple(data["makefiles"]),
    )


def file_kind(rel: str) -> FileKind:
    """Kind a file is indexed as, from its name."""
    name = rel.rsplit("/", 1)[-1]
    ext = os.path.splitext(name)[1].lower()
    return walk_rules().kinds.get(ext, "text")


_TEST_PATH = re.compile(r"(^|/)(tests?|testing)(/|$)|(^|/)test_[^/]*$|_test\.py$|(^|/)conftest\.py$")


def is_test_path(path: str) -> bool:
    """Test files set values for their own purposes; they never say what a run uses."""
    return bool(_TEST_PATH.search(path))


def is_makefile(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(name, pat) for pat in walk_rules().makefiles)


class Skip(NamedTuple):
    """A file or folder the walk left out: what `SkippedFile` records in the index.

    A plain tuple rather than the model: a warm `sa-align index` walks without loading the fact models.
    """

    path: str
    reason: str


@dataclass
class WalkResult:
    """Files to index (relative path -> absolute path) and files skipped."""

    files: dict[str, Path] = field(default_factory=dict)
    skipped: list[Skip] = field(default_factory=list)


class _Ignore:
    """Gitignore specs of the directories on the current path, deepest last."""

    def __init__(self, config: IndexConfig):
        self.specs: dict[str, pathspec.PathSpec] = {}
        if config.exclude:
            self.extra = pathspec.GitIgnoreSpec.from_lines(config.exclude)
        else:
            self.extra = None
        self.respect = config.respect_gitignore

    def load(self, dir_rel: str, dir_abs: Path) -> None:
        gi = dir_abs / ".gitignore"
        if not self.respect or not gi.is_file() or gi.is_symlink():
            return
        try:
            lines = gi.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return
        self.specs[dir_rel] = pathspec.GitIgnoreSpec.from_lines(lines)

    def reason(self, rel: str, is_dir: bool) -> str | None:
        probe = rel + "/" if is_dir else rel
        if walk_rules().vendored.match_file(probe):
            return "vendored"
        if self.extra is not None and self.extra.match_file(probe):
            return "excluded"
        ignored: bool | None = None
        # Deeper .gitignore files override shallower ones, as in git.
        parts = rel.split("/")
        for depth in range(len(parts)):
            base = "/".join(parts[:depth])
            spec = self.specs.get(base)
            if spec is None:
                continue
            sub = "/".join(parts[depth:]) + ("/" if is_dir else "")
            result = spec.check_file(sub)
            if result.include is not None:
                ignored = result.include
        return "gitignored" if ignored else None


def walk_repo(root: Path, config: IndexConfig) -> WalkResult:
    """Files under `root` to index, in a deterministic order, and the skipped ones."""
    root_real = Path(os.path.realpath(root))
    out = WalkResult()
    ignore = _Ignore(config)
    seen_dirs: set[tuple[int, int]] = set()
    st = os.stat(root_real)
    seen_dirs.add((st.st_dev, st.st_ino))
    stack: list[tuple[str, Path]] = [("", root_real)]
    while stack:
        dir_rel, dir_abs = stack.pop()
        ignore.load(dir_rel, dir_abs)
        if (dir_abs / "pyvenv.cfg").is_file() and dir_rel:
            out.skipped.append(Skip(path=dir_rel + "/", reason="virtualenv"))
            continue
        try:
            entries = sorted(os.scandir(dir_abs), key=lambda e: e.name)
        except OSError:
            out.skipped.append(Skip(path=dir_rel + "/", reason="unreadable"))
            continue
        subdirs: list[tuple[str, Path]] = []
        for entry in entries:
            rel = f"{dir_rel}/{entry.name}" if dir_rel else entry.name
            sub = _visit(entry, rel, root_real, ignore, seen_dirs, out, config)
            if sub is not None:
                subdirs.append(sub)
        stack.extend(reversed(subdirs))
    return out


def _visit(
    entry: os.DirEntry,
    rel: str,
    root_real: Path,
    ignore: _Ignore,
    seen_dirs: set[tuple[int, int]],
    out: WalkResult,
    config: IndexConfig,
) -> tuple[str, Path] | None:
    """Classify one directory entry; return it when it is a directory to descend into."""
    skip = out.skipped.append
    if _CONTROL.search(entry.name):
        shown = rel + "/" if entry.is_dir(follow_symlinks=False) else rel
        skip(Skip(path=escape_controls(shown), reason="control-character-in-name"))
        return None
    target = Path(entry.path)
    if entry.is_symlink():
        real = Path(os.path.realpath(entry.path))
        if not real.is_relative_to(root_real):
            skip(Skip(path=rel, reason="symlink-outside-root"))
            return None
        target = real
    try:
        st = os.stat(target)
    except OSError as exc:
        reason = "symlink-loop" if entry.is_symlink() and exc.errno == errno.ELOOP else "unreadable"
        if entry.is_symlink() and not os.path.lexists(os.path.realpath(entry.path)):
            reason = "broken-symlink"
        skip(Skip(path=rel, reason=reason))
        return None
    is_dir = stat.S_ISDIR(st.st_mode)
    reason = ignore.reason(rel, is_dir)
    if reason:
        skip(Skip(path=rel + "/" if is_dir else rel, reason=reason))
        return None
    if is_dir:
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            skip(Skip(path=rel + "/", reason="symlink-loop"))
            return None
        seen_dirs.add(key)
        return rel, target
    reason = _file_skip(rel, target, st, len(out.files), config)
    if reason:
        skip(Skip(path=rel, reason=reason))
    else:
        out.files[rel] = target
    return None


def _file_skip(rel: str, target: Path, st: os.stat_result, kept: int, config: IndexConfig) -> str | None:
    """Why a file that is not ignored is still not read, if it is not: its kind, its size, or the file cap."""
    if not stat.S_ISREG(st.st_mode):
        return "not-a-regular-file"
    if os.path.splitext(rel)[1].lower() in walk_rules().binary_exts and not is_lfs_pointer_file(target, st.st_size):
        return "binary"
    if st.st_size > config.max_file_bytes:
        return "too-large"
    if kept >= config.max_files:
        return "max-files"
    return None


LFS_POINTER_MAGIC = b"version https://git-lfs.github.com/spec/v1"
LFS_POINTER_MAX_BYTES = 1024
"""A Git LFS pointer is a few lines of text standing in for a large file that was never fetched."""


def is_lfs_pointer(data: bytes) -> bool:
    return len(data) <= LFS_POINTER_MAX_BYTES and data.startswith(LFS_POINTER_MAGIC)


def is_lfs_pointer_file(path: Path, size: int) -> bool:
    """True for a Git LFS pointer: indexed as the text it is, whatever its extension (`model.pt`)."""
    if size > LFS_POINTER_MAX_BYTES:
        return False
    try:
        with open(path, "rb") as fh:
            return is_lfs_pointer(fh.read(LFS_POINTER_MAX_BYTES + 1))
    except OSError:
        return False
