"""Helpers for judge tests: copy a fixture repository, edit it, index it, judge a unit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sa_align.calibrate import Calibrator
from sa_align.config import EvalConfig, RulesConfig
from sa_align.index import build_index
from sa_align.judges import JudgeContext, label_unit
from sa_align.models import Unit, UnitResult
from sa_align.retrieve import build_retriever

REPOS = Path(__file__).resolve().parent.parent / "fixtures" / "judge_repos"


def make_repo(tmp_path: Path, name: str, edits: dict[str, tuple[str, str]] | None = None) -> Path:
    """A copy of fixture repo `name` with `{path: (old, new)}` replacements applied (each must match)."""
    dest = tmp_path / name
    n = 1
    while dest.exists():
        n += 1
        dest = tmp_path / f"{name}{n}"
    shutil.copytree(REPOS / name, dest)
    for rel, (old, new) in (edits or {}).items():
        path = dest / rel
        text = path.read_text()
        assert old in text, f"{old!r} not in {rel}"
        path.write_text(text.replace(old, new, 1))
    return dest


class Judged:
    """An indexed repository plus a retriever; `judge(unit)` labels a unit with `label_unit`,
    uncalibrated (the hand-set aggregate) or, with `calibrated=True`, through the shipped calibrated judge.
    Rules decide as a `--preview` run lets them: these tests are about what each rule finds; what the
    preview policy holds back is tested in `tests/rules/`."""

    def __init__(self, repo: Path, config: EvalConfig | None = None, *, calibrated: bool = False) -> None:
        self.config = config or EvalConfig(embeddings=False, rules=RulesConfig(preview=True))
        self.index = build_index(repo)
        self.retriever = build_retriever(self.index, self.config)
        self.calibrator = Calibrator.for_config(self.config) if calibrated else None

    def context(self, unit: Unit, client=None) -> JudgeContext:
        return JudgeContext(unit=unit, candidates=self.retriever.retrieve(unit), index=self.index,
                            paper=None, config=self.config, client=client)

    async def judge(self, unit: Unit, client=None) -> UnitResult:
        return await label_unit(self.context(unit, client), self.calibrator)


def write_repo(root: Path, files: dict[str, str]) -> Path:
    """A small repository written for one test: `{relative path: text}`."""
    import textwrap

    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return root


@pytest.fixture(params=[False, True], ids=["hand", "calibrated"])
def calibrated(request) -> bool:
    """Every judge test runs in both settings of `label_unit`: the hand-set aggregate and the calibrated judge."""
    return request.param


@pytest.fixture
def small(tmp_path, calibrated):
    """`small(files, config=None) -> Judged` over a repository written from `files`."""
    count = [0]

    def make(files: dict[str, str], config: EvalConfig | None = None) -> Judged:
        count[0] += 1
        return Judged(write_repo(tmp_path / f"small{count[0]}", files), config, calibrated=calibrated)

    return make


@pytest.fixture
def judged(tmp_path, calibrated):
    """`judged(name, edits=None, config=None) -> Judged` over a fresh copy of a fixture repo."""

    def make(name: str, edits: dict[str, tuple[str, str]] | None = None, config: EvalConfig | None = None) -> Judged:
        return Judged(make_repo(tmp_path, name, edits), config, calibrated=calibrated)

    return make
