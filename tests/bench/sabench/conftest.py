"""A git directory of the SA-Bench-layout fixture, built by the test (no work tree, like a fetched copy)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "sabench"


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.fixture(scope="session")
def sabench_git(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("sabench-work")
    shutil.copytree(FIXTURE, work, dirs_exist_ok=True)
    _git("init", "-q", cwd=work)
    _git("add", "-A", cwd=work)
    _git("commit", "-qm", "fixture", cwd=work)
    bare = tmp_path_factory.mktemp("sabench-bare") / "repo"
    _git("clone", "-q", "--bare", str(work), str(bare), cwd=work)
    return bare
