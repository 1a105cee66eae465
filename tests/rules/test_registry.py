"""The rule registry: one doc for every code the judges emit, no code without a rule, and the status rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sa_align.errors import ConfigError
from sa_align.rules.registry import STABLE_MIN_JUDGED, Measured, Rule, matching, rule, rules

SOURCE = Path(__file__).resolve().parents[2] / "sa_align"
CODE = re.compile(r'"([A-Z]{3}\d{3})"')


def _emitted() -> set[str]:
    return {m for path in SOURCE.rglob("*.py") for m in CODE.findall(path.read_text(encoding="utf-8"))}


def test_every_code_the_source_emits_has_a_rule_and_every_rule_is_emitted():
    emitted = _emitted()
    assert emitted - set(rules()) == set()
    assert set(rules()) - emitted == set()
    assert len(rules()) >= 40


def test_every_rule_has_a_doc_and_examples_on_both_sides():
    for code, r in rules().items():
        assert re.fullmatch(r"[A-Z]{3}\d{3}", code) and r.code == code
        assert r.summary.endswith(".") and r.why and re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name)
        assert r.examples.quiet, f"{code} has no quiet example"
        if code != "LLM001":  # needs a model: tests/rules/test_llm_rule.py
            assert r.examples.fire, f"{code} has no fire example"


def _rule(judged: int, right: int) -> Rule:
    base = rule("NUM005").model_dump()
    return Rule.model_validate({**base, "measured": Measured(judged=judged, right=right,
                                                             precision=right / judged if judged else None).model_dump()})


@pytest.mark.parametrize("judged,right,status", [
    (STABLE_MIN_JUDGED, STABLE_MIN_JUDGED, "stable"),
    (40, 36, "stable"),
    (40, 35, "preview"),  # 0.875: below the bar
    (STABLE_MIN_JUDGED - 1, STABLE_MIN_JUDGED - 1, "preview"),  # every one right, but too few to tell
    (0, 0, "preview"),
])
def test_a_rule_is_stable_only_with_enough_judged_decisions_right_often_enough(judged, right, status):
    assert _rule(judged, right).status == status


def test_selectors_read_as_ruff_reads_them():
    assert matching("NUM005") == ["NUM005"]
    assert set(matching("num")) == {c for c in rules() if c.startswith("NUM")}
    assert matching("ALL") == list(rules())
    with pytest.raises(ConfigError, match="XYZ"):
        matching("XYZ")
    with pytest.raises(ConfigError, match="no rule has the code"):
        rule("NUM999")
