"""Real git repositories built in the test's tmp dir with the `git` command."""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

from sa_align.config import EvalConfig

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "focal_loss"
PAPER = EXAMPLE / "paper.md"
UNITS = EXAMPLE / "units.yaml"


def git(repo: Path, *args: str, when: str = "2026-02-01T10:00:00+00:00") -> str:
    """Run git in `repo` as a fixed author, ignoring the user's and the system's configuration."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
           "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "Test Author",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when,
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout.strip()


def init(repo: Path) -> Path:
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    return repo


def commit(repo: Path, message: str, files: dict[str, str | bytes | None], day: int = 1) -> str:
    """Write (or delete, for `None`) `files`, commit them, return the new commit id."""
    for rel, content in files.items():
        path = repo / rel
        if content is None:
            git(repo, "rm", "-q", "--", rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", message, when=f"2026-02-{day:02d}T10:00:00+00:00")
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def offline_config(tmp_path) -> EvalConfig:
    """Static judges only, no embeddings: fast and deterministic."""
    # Every rule decides (`--preview`), so drift shows as labels; held findings are tested in tests/rules.
    return EvalConfig(embeddings=False, cache_dir=tmp_path / "cache", rules={"preview": True})


@pytest.fixture
def example_history(tmp_path) -> Path:
    """The bundled example's four-commit history, built by its own script."""
    spec = importlib.util.spec_from_file_location("make_history", EXAMPLE / "make_history.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build(tmp_path / "focal_repo")
