"""Read a git repository's commits, trees and blobs through git's plumbing, with its configuration neutralised.

Only `rev-parse`, `rev-list`, `ls-tree` and `cat-file --batch` run: none of them
checks files out, runs hooks, applies filters (smudge/clean, LFS), text
conversions or attributes (export-ignore only matters to `git archive`, which is
never used), or consults an fsmonitor. On top of that every call overrides the
settings that could run a command or redirect what is read (hooks path,
fsmonitor, pager, signature display, attributes file, replace refs, automatic
maintenance), ignores the system and global configuration, and drops inherited
`GIT_*` variables that would point git at another repository.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sa_align.errors import RepoError

_OVERRIDES = {
    "core.hooksPath": os.devnull, "core.fsmonitor": "false", "core.attributesFile": os.devnull,
    "core.pager": "cat", "core.untrackedCache": "false", "log.showSignature": "false",
    "gc.auto": "0", "maintenance.auto": "false", "diff.external": "", "core.sshCommand": "false",
}
TIMEOUT = 120


class GitError(RepoError):
    """A git repository that cannot be read as asked: not a repository, unknown revision, history missing."""


@dataclass(frozen=True)
class TreeEntry:
    """One path of a commit's tree."""

    mode: str
    kind: str  # blob, tree, commit (a submodule)
    oid: str
    size: int | None
    path: str


@dataclass(frozen=True)
class CommitMeta:
    sha: str
    author: str
    author_date: str  # ISO 8601 with the author's offset
    subject: str


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0", GIT_PAGER="cat",
               GIT_OPTIONAL_LOCKS="0", GIT_NO_REPLACE_OBJECTS="1", GIT_ATTR_NOSYSTEM="1", LC_ALL="C")
    return env


class GitRepo:
    """A repository opened by path: its work tree root (`.git` inside) or a bare repository."""

    def __init__(self, path: str | Path):
        root = Path(path)
        if not root.is_dir():
            raise GitError(f"{str(root)!r} is not a directory; pass the root of a git repository")
        dot = root / ".git"
        if dot.exists():
            self.git_dir = dot.resolve()
        elif (root / "HEAD").is_file() and (root / "objects").is_dir():
            self.git_dir = root.resolve()  # bare
        else:
            raise GitError(f"{str(root)!r} is not a git repository (no .git); `history` reads a repository's commits")
        self.root = root
        self._env = _env()
        try:
            self.run("rev-parse", "--git-dir")
        except GitError as exc:
            raise GitError(f"{str(root)!r} is not a readable git repository: {exc}") from None

    def run(self, *args: str, stdin: bytes | None = None) -> bytes:
        """Run one git plumbing command on this repository; its stdout as bytes."""
        cmd = ["git", "--no-pager", f"--git-dir={self.git_dir}"]
        for key, value in _OVERRIDES.items():
            cmd += ["-c", f"{key}={value}"]
        try:
            proc = subprocess.run([*cmd, *args], input=stdin, capture_output=True, env=self._env,
                                  timeout=TIMEOUT, cwd=self.root.resolve(), check=False)
        except FileNotFoundError:
            raise GitError("the `git` command is not installed; `history` needs it to read commits") from None
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} took longer than {TIMEOUT} s") from None
        if proc.returncode != 0:
            raise GitError(proc.stderr.decode("utf-8", "replace").strip() or f"git {args[0]} failed")
        return proc.stdout

    def is_shallow(self) -> bool:
        return self.run("rev-parse", "--is-shallow-repository").strip() == b"true"

    def resolve(self, rev: str) -> str:
        """The commit `rev` names (a sha, a prefix, a branch, `HEAD~3`); `GitError` when it names none."""
        try:
            return self.run("rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").decode().strip()
        except GitError:
            pass
        hint = ("; this is a shallow clone, so older commits may be absent: fetch them with "
                "`git fetch --unshallow` (or `--deepen N`)") if self.is_shallow() else ""
        raise GitError(f"unknown revision {rev!r} in {str(self.root)!r}{hint}")

    def first_parent(self, revs: str | None) -> list[str]:
        """Commits of `revs` (`A..B`, one revision, or `HEAD` when `None`), oldest first, along first parents."""
        if revs is None:
            try:
                self.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
            except GitError:
                raise GitError(f"{str(self.root)!r} has no commits yet") from None
            args = ["HEAD"]
        elif ".." in revs:
            if "..." in revs:
                raise GitError(f"symmetric ranges ({revs!r}) have no first-parent order; use A..B")
            lo, hi = revs.split("..", 1)
            args = [self.resolve(hi or "HEAD"), f"^{self.resolve(lo)}"]
        else:
            args = [self.resolve(revs)]
        out = self.run("rev-list", "--first-parent", "--reverse", *args).decode().split()
        if not out:
            raise GitError(f"the range {revs!r} selects no commits")
        return out

    def tree(self, sha: str) -> list[TreeEntry]:
        """Every path of the commit's tree (recursively), with sizes."""
        out = []
        for record in self.run("ls-tree", "-r", "-l", "-z", "--full-tree", sha).split(b"\0"):
            if not record:
                continue
            meta, _, path = record.partition(b"\t")
            mode, kind, oid, size = meta.decode().split()
            out.append(TreeEntry(mode, kind, oid, None if size == "-" else int(size), path.decode("utf-8", "surrogateescape")))
        return out

    def objects(self, oids: list[str]) -> dict[str, bytes]:
        """Raw contents of `oids` (no filter, no conversion), read in one `cat-file --batch`."""
        if not oids:
            return {}
        data = self.run("cat-file", "--batch", stdin="".join(f"{o}\n" for o in oids).encode())
        out, pos = {}, 0
        for oid in oids:
            end = data.index(b"\n", pos)
            header = data[pos:end].split()
            if len(header) < 3:  # `<oid> missing`
                raise GitError(f"object {oid} is missing from the repository")
            size = int(header[2])
            out[oid] = data[end + 1 : end + 1 + size]
            pos = end + 1 + size + 1
        return out

    def commits(self, shas: list[str]) -> dict[str, CommitMeta]:
        """Author, author date and subject of each commit, parsed from the commit objects."""
        return {sha: parse_commit(sha, raw) for sha, raw in self.objects(shas).items()}


def parse_commit(sha: str, raw: bytes) -> CommitMeta:
    head, _, message = raw.partition(b"\n\n")
    author, date = "", ""
    for line in head.split(b"\n"):
        if line.startswith(b"author "):
            author, date = _person(line[len(b"author "):].decode("utf-8", "replace"))
            break
    subject = message.decode("utf-8", "replace").strip().split("\n", 1)[0].strip()
    return CommitMeta(sha=sha, author=author, author_date=date, subject=subject)


def _person(text: str) -> tuple[str, str]:
    """`Name <mail> 1700000000 +0100` -> (`Name`, ISO date in that offset)."""
    name, _, rest = text.rpartition(">")
    name = name.split("<", 1)[0].strip()
    try:
        stamp, offset = rest.split()
        sign = -1 if offset.startswith("-") else 1
        tz = timezone(sign * timedelta(hours=int(offset[1:3]), minutes=int(offset[3:5])))
        return name, datetime.fromtimestamp(int(stamp), tz).isoformat()
    except (ValueError, IndexError):
        return name, ""
