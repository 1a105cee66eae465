"""Commits are written from git objects: the repository's hooks, filters, fsmonitor, textconv and
export-ignore never apply. The fixture repository's configuration tries each, and a control test
shows that each really fires under ordinary git commands."""

import stat
import tarfile

import pytest

from sa_align.history.gitread import GitRepo
from sa_align.history.materialize import TempTree, is_lfs_pointer, safe_path
from sa_align.history.run import audit_history

from tests.history.conftest import PAPER, UNITS, commit, git, init

LFS = b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"ab" * 32 + b"\nsize 1234\n"


def _script(path, body):
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.fixture
def hostile(tmp_path):
    """A repository whose own configuration would run a command at every chance."""
    marks = tmp_path / "marks.log"
    repo = init(tmp_path / "hostile")
    tools = tmp_path / "tools"
    hooks = tools / "hooks"
    hooks.mkdir(parents=True)
    first = commit(repo, "code", {
        "train.py": "LR = 0.01\n\ndef train():\n    return LR\n\nif __name__ == '__main__':\n    train()\n",
        "secret.py": "GAMMA = 2.0\n", ".gitattributes": "*.py filter=evil diff=evil\nsecret.py export-ignore\n",
    })
    second = commit(repo, "change", {"train.py": "LR = 0.02\n\ndef train():\n    return LR\n"}, day=2)
    for name in ("post-checkout", "pre-commit", "post-commit", "reference-transaction", "post-index-change"):
        _script(hooks / name, f"echo hook-{name} >> {marks}")
        _script(repo / ".git" / "hooks" / name, f"echo githook-{name} >> {marks}")
    filt = _script(tools / "filter", f"echo filter >> {marks}; sed 's/LR/SMUDGED/'")
    conv = _script(tools / "textconv", f"echo textconv >> {marks}; cat \"$1\"")
    fsmon = _script(tools / "fsmonitor", f"echo fsmonitor >> {marks}; exit 1")
    pager = _script(tools / "pager", f"echo pager >> {marks}; cat")
    gpg = _script(tools / "gpg", f"echo gpg >> {marks}; exit 1")
    with open(repo / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write(f"[core]\n\thooksPath = {hooks}\n\tfsmonitor = {fsmon}\n\tpager = {pager}\n"
                 f"[filter \"evil\"]\n\tsmudge = {filt}\n\tclean = {filt}\n\trequired = true\n"
                 f"[diff \"evil\"]\n\ttextconv = {conv}\n[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {gpg}\n"
                 f"[pager]\n\trev-list = {pager}\n\tcat-file = {pager}\n\tls-tree = {pager}\n")
    return repo, marks, first, second


def test_control_the_hostile_configuration_is_live_for_ordinary_git(hostile, tmp_path):
    repo, marks, first, _ = hostile
    (repo / "train.py").unlink()
    git(repo, "checkout", "--", "train.py")  # smudge
    assert "SMUDGED" in (repo / "train.py").read_text()
    git(repo, "checkout", "-q", "-b", "other")  # post-checkout hook
    git(repo, "status")  # fsmonitor
    git(repo, "log", "-p", "-1")  # textconv
    git(repo, "archive", "--format=tar", "-o", str(tmp_path / "a.tar"), "HEAD")
    log = marks.read_text()
    for name in ("filter", "hook-post-checkout", "fsmonitor", "textconv"):
        assert name in log
    with tarfile.open(tmp_path / "a.tar") as tar:
        assert "secret.py" not in tar.getnames() and "train.py" in tar.getnames()  # export-ignore


def test_materialising_a_commit_runs_nothing_and_writes_raw_blobs(hostile):
    repo, marks, first, second = hostile
    g = GitRepo(repo)
    with TempTree(max_file_bytes=1_000_000) as tree:
        tree.checkout(g, first)
        assert (tree.root / "secret.py").read_text() == "GAMMA = 2.0\n"  # export-ignore not honoured
        info = tree.checkout(g, second)
        assert (tree.root / "train.py").read_text().startswith("LR = 0.02")  # no smudge
        assert (info.written, info.kept) == (1, 2)
        root = tree.root
    assert not root.exists()
    assert not marks.exists()


def test_a_whole_history_run_on_the_hostile_repository_runs_nothing(hostile, offline_config):
    repo, marks, _, _ = hostile
    history = audit_history(PAPER, repo, units=UNITS, config=offline_config)
    assert len(history.points) == 2 and all(p.status == "evaluated" for p in history.points)
    assert not marks.exists()
    assert "LR = 0.02" in (repo / "train.py").read_text()  # the user's work tree is untouched


def test_lfs_pointers_are_indexed_as_text_and_flagged_submodules_skipped(tmp_path, offline_config):
    repo = init(tmp_path / "r")
    commit(repo, "code", {"train.py": "LR = 0.01\n", "weights/model.pt": LFS, "data/train.csv": LFS})
    sub = commit(init(tmp_path / "sub"), "lib", {"lib.py": "x = 1\n"})
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sub},vendor/lib")
    git(repo, "commit", "-q", "-m", "add submodule")
    reports = tmp_path / "reports"
    history = audit_history(PAPER, repo, units=UNITS, config=offline_config, reports_dir=reports)
    last = history.points[-1]
    assert any("2 Git LFS pointer file(s)" in n and "weights/model.pt" in n for n in last.notes)
    assert any("1 submodule(s) skipped" in n and "vendor/lib" in n for n in last.notes)
    import json

    report = json.loads((reports / history.points[-1].commit.sha[:12] / "report.json").read_text())
    flagged = {f["location"]["path"] for f in report["flags"] if f["kind"] == "lfs-pointer"}
    assert flagged == {"weights/model.pt", "data/train.csv"}
    assert report["repo"]["git_commit"] == history.points[-1].commit.sha
    assert report["repo"]["files_indexed"] == 3  # train.py and both pointers, as text


def test_helpers():
    assert is_lfs_pointer(LFS) and not is_lfs_pointer(b"x = 1\n") and not is_lfs_pointer(LFS + b"x" * 2000)
    assert safe_path("a/b.py") and not safe_path("../x") and not safe_path("a/.GIT/config") and not safe_path("/etc/x")
