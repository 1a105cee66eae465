"""Shared fixtures. Tests never reach a real provider: LLM tests use the local server in tests/support."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CASES = ROOT / "benchmarks" / "cases"


_SAVED_CACHE_ENV: list[str | None] = []


def pytest_configure(config):
    """A cache dir for the whole session, set before collection and before any fixture runs.

    Module-scoped fixtures (an evaluated example report, a built index) are set up
    before the function-scoped `_isolated_cache`, and a module-level `EvalConfig()`
    picks its cache dir at import; without this they would write into the user's
    `~/.cache/sa_align`.
    """
    _SAVED_CACHE_ENV.append(os.environ.get("SA_ALIGN_CACHE_DIR"))
    os.environ["SA_ALIGN_CACHE_DIR"] = tempfile.mkdtemp(prefix="sa_align-test-cache-")


def pytest_unconfigure(config):
    if not _SAVED_CACHE_ENV:
        return
    shutil.rmtree(os.environ.get("SA_ALIGN_CACHE_DIR", ""), ignore_errors=True)
    saved = _SAVED_CACHE_ENV.pop()
    if saved is None:
        os.environ.pop("SA_ALIGN_CACHE_DIR", None)
    else:
        os.environ["SA_ALIGN_CACHE_DIR"] = saved


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Every test gets its own cache dir so no test reads another's cached replies."""
    monkeypatch.setenv("SA_ALIGN_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        if os.environ.get("CI"):
            monkeypatch.delenv(key, raising=False)
