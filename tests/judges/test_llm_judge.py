"""LLM judge ensemble over the scripted local server: votes, aggregation, grounding re-asks, budgets."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from sa_align.config import EvalConfig
from sa_align.judges.base import JudgeContext
from sa_align.judges.llm_judge import OVER_BUDGET, JudgeReply, fit_prompt
from sa_align.judges.routing import label_levels
from sa_align.llm import LLMClient
from sa_align.models import LABEL_SCORES, Candidate, CodeSpan, Label, Unit
from tests.support.llm_server import json_reply, llm_server  # noqa: F401

UNIT = Unit(id="ls", kind="method", claim="The loss smooths the one-hot targets with label smoothing.",
            quote="we smooth the targets (label smoothing)", hints=["smoothed_cross_entropy"])
_BLOCK = re.compile(r'^### \[\d+\] ("(?:[^"\\]|\\.)*"):(\d+)-(\d+)', re.MULTILINE)


def user_text(req: dict) -> str:
    """The first user message: the prompt as rendered (re-asks come later)."""
    return next(str(m["content"]) for m in req["messages"] if m["role"] == "user")


def shown_blocks(req: dict) -> list[tuple[str, int, int]]:
    return [(json.loads(p), int(a), int(b)) for p, a, b in _BLOCK.findall(user_text(req))]


def reply(req: dict, label: str, *, conf: float = 0.9, score: float = 1.0, valid: bool = True) -> dict:
    path, start, _ = shown_blocks(req)[0]
    line = start if valid else start + 5000
    return json_reply({"label": label, "score": score, "confidence": conf, "reason": f"judged {label}",
                       "evidence": [{"path": path, "start_line": line, "end_line": line}]})


def last_user(req: dict) -> str:
    return str(req["messages"][-1]["content"])


def config(server, **kw) -> EvalConfig:
    specs = [server.spec("model-a", samples=3), server.spec("model-b", samples=3)]
    return EvalConfig(judges=specs, embeddings=False, max_retries=0, rules={"preview": True}, **kw)


def scripted(server, labels: dict[str, list[str]]) -> Counter:
    calls: Counter = Counter()

    def respond(req: dict) -> dict:
        model = req["model"].split("/")[-1]
        label = labels[model][calls[model] % len(labels[model])]
        calls[model] += 1
        return reply(req, label, score=1.0 if label == "aligned" else 0.25)

    server.always(respond)
    return calls


def llm_verdicts(result):
    return [v for v in result.verdicts if v.judge == "llm"]


# -- the ensemble ------------------------------------------------------------------------------


async def test_two_models_three_samples_aggregate(judged, llm_server):
    cfg = config(llm_server)
    scripted(llm_server, {"model-a": ["aligned"], "model-b": ["aligned", "aligned", "mismatched"]})
    j = judged("trainer", config=cfg)
    result = await j.judge(UNIT, LLMClient(cfg))
    llm = llm_verdicts(result)
    assert sorted(v.model for v in llm) == sorted(f"openai/model-{m}#{i}" for m in "ab" for i in (1, 2, 3))
    assert len(llm_server.requests) == 6
    assert result.label == Label.ALIGNED and result.decided_by == "llm"
    assert result.agreement == round(5 / 6, 4) and not result.needs_review
    assert all(e.path in ("train.py", "trainer/loss.py", "trainer/optim.py", "trainer/model.py") for e in result.evidence)


async def test_split_ensemble_needs_review(judged, llm_server):
    cfg = config(llm_server)
    scripted(llm_server, {"model-a": ["aligned"], "model-b": ["mismatched"]})
    result = await judged("trainer", config=cfg).judge(UNIT, LLMClient(cfg))
    assert result.agreement == 0.5 and result.needs_review
    # Equal weight on both labels: the documented tie order puts the finding before `aligned`.
    assert result.label == Label.MISMATCHED and result.score == 0.25


async def test_certain_static_verdict_skips_the_llm(judged, llm_server):
    cfg = config(llm_server)
    unit = Unit(id="mix", kind="method", claim="Training pairs are combined with mixup.", hints=["mixup"])
    result = await judged("trainer", config=cfg).judge(unit, LLMClient(cfg))
    assert result.label == Label.STUBBED and llm_server.requests == []


# -- grounding ---------------------------------------------------------------------------------


async def test_evidence_outside_the_shown_code_is_reasked(judged, llm_server):
    cfg = EvalConfig(judges=[llm_server.spec("model-a")], embeddings=False, max_retries=0, rules={"preview": True})

    def respond(req: dict) -> dict:
        return reply(req, "aligned", valid="not within the code shown" in last_user(req))

    llm_server.always(respond)
    result = await judged("trainer", config=cfg).judge(UNIT, LLMClient(cfg))
    assert len(llm_server.requests) == 2
    verdict = llm_verdicts(result)[0]
    assert not verdict.abstained and verdict.label == Label.ALIGNED
    path, start, _ = shown_blocks(llm_server.requests[0])[0]
    assert str(verdict.evidence[0]) == f"{path}:{start}"


async def test_a_model_that_never_grounds_abstains_with_the_error(judged, llm_server):
    cfg = EvalConfig(judges=[llm_server.spec("model-a")], embeddings=False, max_retries=0, rules={"preview": True}, max_reasks=1)
    llm_server.always(lambda req: reply(req, "aligned", valid=False))
    result = await judged("trainer", config=cfg).judge(UNIT, LLMClient(cfg))
    verdict = llm_verdicts(result)[0]
    assert verdict.abstained and "LLMGiveUp" in (verdict.error or "")
    assert result.label == Label.UNDECIDED and "LLMGiveUp" in (result.error or "")


async def test_with_no_code_shown_only_missing_is_accepted(small, llm_server):
    cfg = EvalConfig(judges=[llm_server.spec("model-a")], embeddings=False, max_retries=0, rules={"preview": True})
    j = small({"main.py": "print('hello')\n"}, cfg)
    ctx = JudgeContext(unit=UNIT, candidates=[], index=j.index, paper=None, config=cfg, client=LLMClient(cfg))
    llm_server.enqueue(json_reply({"label": "aligned", "score": 1.0, "confidence": 0.9, "reason": "looks fine"}))
    llm_server.enqueue(json_reply({"label": "missing", "score": 0.0, "confidence": 0.8, "reason": "no code"}))
    from sa_align.judges.llm_judge import judge_llm

    (verdict,) = await judge_llm(ctx)
    first, second = llm_server.requests
    assert "(no candidate code was found)" in user_text(first)
    assert "no repository code was shown" in last_user(second)
    assert verdict.label == Label.MISSING and verdict.score == 0.0 and not verdict.abstained


async def test_a_score_outside_the_labels_levels_is_reasked(judged, llm_server):
    cfg = EvalConfig(judges=[llm_server.spec("model-a")], embeddings=False, max_retries=0, rules={"preview": True})
    llm_server.enqueue(lambda req: reply(req, "aligned", score=0.0))
    llm_server.enqueue(lambda req: reply(req, "aligned", score=1.0))
    result = await judged("trainer", config=cfg).judge(UNIT, LLMClient(cfg))
    assert len(llm_server.requests) == 2
    assert "score 0.0 is not a level of `aligned`" in last_user(llm_server.requests[1])
    assert result.label == Label.ALIGNED and result.score == 1.0


def test_levels_per_label_are_documented_and_hold_the_defaults():
    levels = label_levels()
    assert set(levels) == {lb.value for lb in Label if lb != Label.UNDECIDED}
    assert all(LABEL_SCORES[Label(lb)] in allowed for lb, allowed in levels.items())
    assert levels["aligned"] == (1.0, 0.75) and levels["missing"] == (0.0,)
    with pytest.raises(ValueError, match="not a level of `missing`"):
        JudgeReply(label="missing", score=0.5, confidence=1, reason="x")
    assert JudgeReply(label="mismatched", score=0.3, confidence=1, reason="x").score == 0.25  # snapped to a level


# -- the prompt budget -----------------------------------------------------------------------


async def test_the_request_sent_fits_the_token_budget(judged, llm_server):
    budget = 1800
    cfg = EvalConfig(judges=[llm_server.spec("model-a")], embeddings=False, judge_prompt_tokens=budget, max_retries=0, rules={"preview": True})
    llm_server.always(lambda req: reply(req, "aligned"))
    j = judged("trainer", config=cfg)
    client = LLMClient(cfg)
    ctx = j.context(UNIT, client)
    messages, shown = fit_prompt(ctx, cfg.judges[0])
    await j.judge(UNIT, client)
    sent = llm_server.requests[0]
    # Counted with the library's counter, on what the server received: the schema instruction included.
    assert client.count_tokens(sent["messages"], cfg.judges[0]) == client.prompt_tokens(cfg.judges[0], messages, JudgeReply)
    assert client.count_tokens(sent["messages"], cfg.judges[0]) <= budget
    assert "JSON schema" in sent["messages"][0]["content"]
    assert len(shown) < len(ctx.candidates) or any(s.end < s.cand.span.end_line for s in shown)
    user = user_text(sent)
    assert f"```claim\n{UNIT.claim}\n```" in user and f"```quote\n{UNIT.quote}\n```" in user and "untrusted" in user


async def test_each_model_gets_a_prompt_fit_to_its_own_request(judged, llm_server):
    budget = 1800
    specs = [llm_server.spec("model-a"), llm_server.spec("gpt-4o-mini")]  # schema in the prompt / native schema
    cfg = EvalConfig(judges=specs, embeddings=False, judge_prompt_tokens=budget, max_retries=0, rules={"preview": True})
    llm_server.always(lambda req: reply(req, "aligned"))
    client = LLMClient(cfg)
    result = await judged("trainer", config=cfg).judge(UNIT, client)
    assert len(llm_verdicts(result)) == 2 and not any(v.abstained for v in llm_verdicts(result))
    by_model = {req["model"]: req for req in llm_server.requests}
    for spec, name in zip(specs, ["model-a", "gpt-4o-mini"]):
        sent = by_model[name]
        tokens = client.count_tokens(sent["messages"], spec)
        if sent.get("response_format", {}).get("type") == "json_schema":
            tokens += client.count_tokens(json.dumps(sent["response_format"]["json_schema"]), spec)
        assert tokens <= budget, name
    assert "JSON schema" not in by_model["gpt-4o-mini"]["messages"][0]["content"]
    lines = {name: sum(b - a + 1 for _, a, b in shown_blocks(req)) for name, req in by_model.items()}
    assert lines["gpt-4o-mini"] > lines["model-a"]  # no schema in the prompt leaves room for more code


async def test_a_unit_over_budget_abstains_without_a_call(judged, llm_server):
    cfg = EvalConfig(judges=[llm_server.spec("model-a", samples=2)], embeddings=False, judge_prompt_tokens=1500)
    unit = UNIT.model_copy(update={"quote": "we smooth the one-hot targets toward uniform " * 120})
    result = await judged("trainer", config=cfg).judge(unit, LLMClient(cfg))
    assert llm_server.requests == []
    verdicts = llm_verdicts(result)
    assert len(verdicts) == 2 and all(v.abstained and v.error == OVER_BUDGET for v in verdicts)
    assert "judge_prompt_tokens is 1500" in verdicts[0].reason
    assert result.label == Label.UNDECIDED and OVER_BUDGET in (result.error or "")


def test_the_budget_has_a_floor_the_fixed_prompt_can_meet():
    with pytest.raises(ValueError):
        EvalConfig(judge_prompt_tokens=900)


async def test_shortening_keeps_the_lines_around_the_focus_line(small, llm_server):
    body = "".join(f"    step_{i} = {i}\n" for i in range(1, 200))
    j = small({"long.py": "def run():\n" + body.replace("step_150 = 150", "FOCUS_MARKER = 150")})
    cfg = EvalConfig(judges=[llm_server.spec("model-a")], embeddings=False, judge_prompt_tokens=1800, max_retries=0, rules={"preview": True})
    cand = Candidate(span=CodeSpan(path="long.py", start_line=1, end_line=200, symbol="run"), score=1.0,
                     focus_line=151)
    ctx = JudgeContext(unit=UNIT, candidates=[cand], index=j.index, paper=None, config=cfg, client=LLMClient(cfg))
    llm_server.always(lambda req: reply(req, "aligned"))
    from sa_align.judges.llm_judge import judge_llm

    (verdict,) = await judge_llm(ctx)
    ((path, start, end),) = shown_blocks(llm_server.requests[0])
    assert (path, verdict.label) == ("long.py", Label.ALIGNED)
    assert start < 151 < end and end - start + 1 < 200
    assert "151 |     FOCUS_MARKER = 150" in user_text(llm_server.requests[0])
