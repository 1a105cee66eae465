"""Every rule's documented cases are its fixtures: on a `fire` case the rule decides (or, for a lean or a
veto, its code is on a verdict or the result), on a `quiet` case its code appears nowhere.

The cases live in `units/rules/examples/<CODE>.yaml`, so `sa-align rules CODE` shows what is tested here.
Rules decide as a `--preview` run lets them; the calibrated judge's steps (`CAL`) run calibrated.
"""

from __future__ import annotations

import asyncio

import pytest

from sa_align.config import EvalConfig, RulesConfig
from sa_align.models import Unit
from sa_align.rules.registry import rules
from tests.judges.conftest import Judged, write_repo

CASES = [
    pytest.param(code, side, example, id=f"{code}-{side}{i}")
    for code, rule in rules().items()
    for side in ("fire", "quiet")
    for i, example in enumerate(getattr(rule.examples, side))
]


def _judge(tmp_path, code: str, example, ignore: tuple[str, ...] = ()) -> tuple[str | None, set[str]]:
    root = tmp_path / "repo"
    root.mkdir()  # an example may have no files at all (an empty repository)
    repo = write_repo(root, example.files)
    config = EvalConfig(embeddings=False, rules=RulesConfig(preview=True, ignore=list(ignore)))
    judged = Judged(repo, config, calibrated=code.startswith("CAL"))
    unit = Unit.model_validate({"id": "u1", **example.unit})
    result = asyncio.run(judged.judge(unit))
    return result.rule, {result.rule} | {v.rule for v in result.verdicts}


@pytest.mark.parametrize("code,side,example", CASES)
def test_a_rule_fires_on_its_cases_and_stays_quiet_on_the_others(tmp_path, code, side, example):
    deciding, seen = _judge(tmp_path, code, example)
    rule = rules()[code]
    if side == "quiet":
        assert code not in seen, example.note
    elif rule.decides.startswith("lean:") or rule.decides == "veto":
        assert code in seen, example.note
    else:
        assert deciding == code, example.note


FIRES = [case for case in CASES if case.values[1] == "fire"]


@pytest.mark.parametrize("code,side,example", FIRES)
def test_a_rule_switched_off_never_decides_on_the_cases_it_fires_on(tmp_path, code, side, example):
    deciding, seen = _judge(tmp_path, code, example, ignore=(code,))
    assert deciding != code and code not in seen - {None}, example.note
