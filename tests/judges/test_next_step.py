"""What would decide an undecided unit: on the example's real run, and on each case the run can end in."""

from __future__ import annotations

import pytest

import sa_align
from sa_align.config import EvalConfig, ModelSpec
from sa_align.judges import aggregate, routing
from sa_align.judges.base import abstain
from sa_align.judges.next_step import OVER_BUDGET, model_calls, next_step
from sa_align.models import Label, Unit
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"
UNIT = Unit(id="m", kind="method", claim="The head applies four convolutions.")


@pytest.fixture(scope="module")
def offline_report():
    return sa_align.evaluate(EX / "paper.md", EX / "repo", config=EvalConfig(embeddings=False))


def test_offline_every_undecided_unit_says_a_judge_would_decide_it_and_what_that_costs(offline_report):
    undecided = [r for r in offline_report.results if r.label == Label.UNDECIDED and r.held_label is None]
    assert undecided
    for r in undecided:
        assert r.next_step.startswith("`--judge MODEL` would decide it: 1 call per model sample."), r.next_step
        assert r.next_step_calls == 1
    assert all(r.next_step == "" and r.next_step_calls is None for r in offline_report.results if r.label != Label.UNDECIDED)


def test_a_held_finding_says_where_to_check_it_and_how_to_let_its_rule_decide(offline_report):
    held = [r for r in offline_report.results if r.held_label is not None]
    assert held
    for r in held:
        assert r.next_step.startswith(f"Check the held {r.held_label.value} finding")
        assert f"`--preview` lets {r.rule} set the label" in r.next_step and r.next_step_calls is None
        if r.evidence:
            assert f"`{r.evidence[0].path}:{r.evidence[0].start_line}`" in r.next_step


def test_a_setting_the_static_judges_found_nowhere_is_named(offline_report):
    by_id = {r.unit.id: r for r in offline_report.results}
    r = by_id["num-002"]  # "256 filters": the numeric judge finds no `num_filters`
    assert r.label == Label.UNDECIDED and "is set nowhere" in " ".join(v.reason for v in r.verdicts)
    assert "no code or config file sets `num_filters`" in r.next_step and "`hints`" in r.next_step
    assert r.next_step.endswith(".")


def test_the_ensemble_size_is_one_call_per_sample_of_each_model():
    assert model_calls(EvalConfig()) == 1
    assert model_calls(EvalConfig(judges=[ModelSpec(model="a/x", samples=3), ModelSpec(model="b/y")])) == 4


def _undecided(verdicts, config):
    return aggregate(UNIT, verdicts, [], config)


def test_with_judges_configured_a_prompt_over_budget_says_what_to_raise():
    config = EvalConfig(judges=[ModelSpec(model="a/x", samples=2)])
    r = _undecided([abstain("llm", "not judged", error=OVER_BUDGET, model="a/x#1")], config)
    step, calls = next_step(r, config)
    assert "`judge_prompt_tokens` (3000): raise it and rerun (2 model calls)" in step and calls == 2


def test_failed_llm_judges_are_retried_and_a_failed_static_judge_is_named():
    config = EvalConfig(judges=[ModelSpec(model="a/x")])
    r = _undecided([abstain("llm", "the model gave no usable verdict", error="Timeout: after 120 s\ntrace", model="a/x#1"),
                    abstain("stub", "the judge failed", error="UnicodeDecodeError: bad byte")], config)
    step, calls = next_step(r, config)
    assert "The LLM judges failed (Timeout: after 120 s): a rerun retries them (1 model call;" in step and calls == 1
    assert "the stub judge failed (UnicodeDecodeError: bad byte)" in step


def test_llm_judges_that_could_not_decide_and_kinds_they_never_judge_leave_it_to_a_person(monkeypatch):
    config = EvalConfig(judges=[ModelSpec(model="a/x")])
    r = _undecided([abstain("llm", "the code shown does not say", model="a/x#1")], config)
    assert next_step(r, config) == ("The LLM judges could not decide either: a person has to read the candidates.", None)
    monkeypatch.setattr(routing, "llm_policy", lambda kind: "never")
    step, calls = next_step(_undecided([abstain("stub", "x")], EvalConfig()), EvalConfig())
    assert step.startswith("LLM judges do not judge method units") and calls is None


def test_a_repository_without_code_is_the_next_step():
    r = _undecided([abstain("stub", "x")], EvalConfig())
    step, calls = next_step(r, EvalConfig(), has_code=False)
    assert "holds no code or configuration" in step and calls is None
