"""Selection switches rules off; a preview rule's failure is held back for review unless --preview."""

from __future__ import annotations

import asyncio

import pytest

from sa_align.config import EvalConfig, RulesConfig
from sa_align.errors import ConfigError
from sa_align.models import CodeSpan, Label, Unit, UnitResult, Verdict
from sa_align.rules import policy
from sa_align.rules.registry import Measured, rule
from tests.judges.conftest import Judged, write_repo

UNIT = Unit(id="u1", kind="numerical", claim="We train with a learning rate of 3e-4.",
            params=[{"name": "learning_rate", "value": 3e-4}])
SPAN = CodeSpan(path="train.py", start_line=3, end_line=3)


def _result(label: Label, code: str) -> UnitResult:
    return UnitResult(unit=UNIT, label=label, score=0.25, confidence=0.9, decided_by="static", rule=code,
                      evidence=[SPAN], reason="`learning_rate` (paper: 3e-4): code sets train.py:3 (1e-3)")


@pytest.fixture
def measured(monkeypatch):
    """Give NUM005 a measured record (`stable` or not) for one test."""
    def set_(judged: int, right: int) -> None:
        r = rule("NUM005").model_copy(update={"measured": Measured(judged=judged, right=right, precision=right / judged)})
        monkeypatch.setattr(policy, "rules", lambda: {"NUM005": r})
    return set_


def test_a_preview_rules_failure_is_held_back_with_its_evidence(measured):
    measured(30, 12)
    held = policy.hold_preview(_result(Label.MISMATCHED, "NUM005"), RulesConfig())
    assert held.label == Label.UNDECIDED and held.held_label == Label.MISMATCHED and held.score is None
    assert held.needs_review and held.rule == "NUM005" and held.evidence == [SPAN]
    assert "preview rule NUM005" in held.reason and "12 of 30 hand-judged decisions right" in held.reason


def test_preview_lets_the_rule_decide_and_a_stable_rule_always_does(measured):
    measured(30, 12)
    result = _result(Label.MISMATCHED, "NUM005")
    assert policy.hold_preview(result, RulesConfig(preview=True)) == result
    measured(30, 29)
    assert policy.hold_preview(result, RulesConfig()) == result


def test_a_preview_rules_aligned_label_stands_but_asks_for_review(measured):
    measured(5, 5)
    out = policy.hold_preview(_result(Label.ALIGNED, "NUM005").model_copy(update={"needs_review": False}), RulesConfig())
    assert out.label == Label.ALIGNED and out.needs_review and out.held_label is None


def test_a_switched_off_rule_abstains_and_says_what_it_found():
    v = Verdict(judge="numeric", label=Label.MISMATCHED, confidence=0.95, rule="NUM005", reason="lr differs")
    assert policy.switched_off(v, RulesConfig()) is v
    for config in (RulesConfig(ignore=["NUM"]), RulesConfig(select=["STB", "MIS"]), RulesConfig(select=["ALL"], ignore=["NUM005"])):
        off = policy.switched_off(v, config)
        assert off.abstained and off.label == Label.UNDECIDED and "NUM005 is switched off" in off.reason
    assert policy.enabled(None, RulesConfig(select=["STB"]))  # an abstention has no code to switch off
    with pytest.raises(ConfigError):
        policy.enabled("NUM005", RulesConfig(ignore=["NOPE"]))


FILES = {"train.py": """
    import torch

    LEARNING_RATE = 1e-3


    def train(model, data):
        opt = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
        for batch in data:
            opt.step()


    if __name__ == "__main__":
        train(None, [])
    """}


def _judge(tmp_path, rules: RulesConfig):
    judged = Judged(write_repo(tmp_path / "repo", FILES), EvalConfig(embeddings=False, rules=rules))
    return asyncio.run(judged.judge(UNIT))


def test_label_unit_applies_selection_and_the_preview_policy(tmp_path, measured):
    measured(30, 12)
    found = _judge(tmp_path / "a", RulesConfig(preview=True))
    assert found.label == Label.MISMATCHED and found.rule == "NUM005"
    held = _judge(tmp_path / "b", RulesConfig())
    assert held.label == Label.UNDECIDED and held.held_label == Label.MISMATCHED and held.rule == "NUM005"
    off = _judge(tmp_path / "c", RulesConfig(preview=True, ignore=["NUM005"]))
    assert off.rule != "NUM005" and off.label != Label.MISMATCHED
    assert any("NUM005 is switched off" in v.reason for v in off.verdicts)


def test_an_unknown_selector_stops_the_run_before_any_work(tmp_path):
    import sa_align

    with pytest.raises(ConfigError, match="NOPE"):
        sa_align.evaluate("We train with a learning rate of 3e-4.", write_repo(tmp_path / "repo", FILES),
                          config=EvalConfig(embeddings=False, rules=RulesConfig(ignore=["NOPE"])))
