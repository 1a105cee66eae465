"""LLM001 (the LLM ensemble's vote decides) needs a model, which `test_examples.py` runs without: there its
cases are quiet. Here a scripted OpenAI-compatible server on 127.0.0.1 (`tests/support/llm_server.py`)
votes on the same cases, uncalibrated and through the calibrated judge.

- The first quiet case of `units/rules/examples/LLM001.yaml` (every static judge abstains) becomes a fire
  case: the model's votes decide, and the result names LLM001.
- The second (a certain static finding) stays quiet: the model is never asked.
"""

from __future__ import annotations

import json
import re

import pytest

from sa_align.config import EvalConfig, RulesConfig
from sa_align.llm import LLMClient
from sa_align.models import Label, Unit
from sa_align.rules.registry import rules
from tests.judges.conftest import Judged, write_repo
from tests.support.llm_server import json_reply, llm_server  # noqa: F401

_BLOCK = re.compile(r'^### \[\d+\] ("(?:[^"\\]|\\.)*"):(\d+)-(\d+)', re.MULTILINE)


def _vote(label: str, score: float):
    """A reply that votes `label`, citing the first line of the first code block the prompt shows."""

    def respond(req: dict) -> dict:
        prompt = next(str(m["content"]) for m in req["messages"] if m["role"] == "user")
        path, start, _ = _BLOCK.findall(prompt)[0]
        line = int(start)
        return json_reply({"label": label, "score": score, "confidence": 0.9, "reason": f"the code is {label}",
                           "evidence": [{"path": json.loads(path), "start_line": line, "end_line": line}]})

    return respond


def _judged(tmp_path, server, example, calibrated: bool) -> tuple[Judged, EvalConfig, Unit]:
    config = EvalConfig(judges=[server.spec("model-a", samples=2)], embeddings=False, max_retries=0,
                        rules=RulesConfig(preview=True))
    root = tmp_path / "repo"
    root.mkdir()
    judged = Judged(write_repo(root, example.files), config, calibrated=calibrated)
    return judged, config, Unit.model_validate({"id": "u1", **example.unit})


@pytest.mark.parametrize("calibrated", [False, True], ids=["hand", "calibrated"])
@pytest.mark.parametrize("label, score", [("aligned", 1.0), ("mismatched", 0.25)])
async def test_the_llm_judges_votes_decide_and_name_llm001(tmp_path, llm_server, calibrated, label, score):
    example = rules()["LLM001"].examples.quiet[0]
    llm_server.always(_vote(label, score))
    judged, config, unit = _judged(tmp_path, llm_server, example, calibrated)
    result = await judged.judge(unit, LLMClient(config))
    assert len(llm_server.requests) == 2  # both samples of the one model voted
    assert result.rule == "LLM001", example.note
    assert result.label == Label(label) and result.decided_by == "llm"
    assert {v.rule for v in result.verdicts if v.judge == "llm"} == {"LLM001"}


@pytest.mark.parametrize("calibrated", [False, True], ids=["hand", "calibrated"])
async def test_a_certain_static_finding_keeps_the_model_out(tmp_path, llm_server, calibrated):
    example = rules()["LLM001"].examples.quiet[1]
    llm_server.always(_vote("aligned", 1.0))
    judged, config, unit = _judged(tmp_path, llm_server, example, calibrated)
    result = await judged.judge(unit, LLMClient(config))
    assert llm_server.requests == []
    assert "LLM001" not in {result.rule} | {v.rule for v in result.verdicts}, example.note
