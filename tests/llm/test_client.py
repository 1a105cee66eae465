"""LLMClient against a real OpenAI-compatible HTTP server on 127.0.0.1, driven through litellm."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from sa_align.config import EvalConfig, ModelSpec
from sa_align.errors import BudgetExceeded, LLMConfigError, LLMError, LLMGiveUp
from sa_align.llm import LLMClient, LLMResult
from tests.support.llm_server import ChatServer, chat_body, error_body, json_reply, llm_server  # noqa: F401

GOOD = {"label": "aligned", "score": 1.0, "lines": [3]}
MESSAGES = [{"role": "system", "content": "You judge code."}, {"role": "user", "content": "Is lr=0.1 set?"}]


class Ruling(BaseModel):
    """A judge's answer."""

    label: Literal["aligned", "mismatched", "missing"]
    """The decision."""
    score: float = Field(ge=0, le=1)
    """Graded score."""
    lines: list[int] = Field(default_factory=list)
    """Evidence line numbers."""


def make_client(tmp_path: Path, **overrides) -> LLMClient:
    settings = dict(cache_dir=tmp_path / "cache", timeout_s=2.0, max_retries=2, retry_backoff_s=0.01)
    settings.update(overrides)
    return LLMClient(EvalConfig(**settings))


def system_text(request: dict) -> str:
    return request["messages"][0]["content"]


# -- the happy path and what was sent -----------------------------------------------
async def test_valid_reply_is_parsed_and_costed(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(json_reply(GOOD, prompt_tokens=40, completion_tokens=9))
    client = make_client(tmp_path)
    result = await client.structured(MESSAGES, Ruling, llm_server.spec())
    assert isinstance(result, LLMResult)
    assert result.value == Ruling(**GOOD)
    assert (result.attempts, result.cached, result.model) == (1, False, "openai/test-model")
    assert (result.cost.prompt_tokens, result.cost.completion_tokens, result.cost.calls) == (40, 9, 1)
    assert result.cost.usd is None  # the test model has no price in litellm's table
    assert client.cost.usd is None and client.cost.calls == 1
    (sent,) = llm_server.requests
    assert sent["model"] == "test-model"
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["temperature"] == 0 and sent["seed"] == 0
    # No native schema support for this model: the schema travels in the system prompt.
    assert system_text(sent).startswith("You judge code.")
    assert '"mismatched"' in system_text(sent) and "JSON schema" in system_text(sent)
    assert llm_server.seen[0].headers["authorization"] == "Bearer sk-test-not-a-real-key"


async def test_fenced_and_wrapped_json_is_accepted(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(chat_body("Here you go:\n```json\n" + json.dumps(GOOD) + "\n```\nDone."))
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec())
    assert result.value.label == "aligned" and result.attempts == 1


async def test_native_schema_mode_for_models_that_support_it(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(json_reply(GOOD, prompt_tokens=1000, completion_tokens=100))
    spec = llm_server.spec("gpt-4o-mini")
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, spec)
    sent = llm_server.requests[0]
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"]["properties"]["label"]["enum"] == [
        "aligned",
        "mismatched",
        "missing",
    ]
    assert system_text(sent) == "You judge code."  # schema not duplicated into the prompt
    assert result.cost.usd is not None and result.cost.usd > 0  # priced from litellm's local table


# -- re-asks ----------------------------------------------------------------------------
async def test_malformed_json_is_reasked(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(chat_body('{"label": "aligned", "score": '))
    llm_server.enqueue(json_reply(GOOD))
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec())
    assert result.value.label == "aligned" and result.attempts == 2
    assert result.cost.prompt_tokens == 22 and result.cost.calls == 2
    second = llm_server.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": '{"label": "aligned", "score": '}
    assert second[-1]["role"] == "user" and "not valid JSON" in second[-1]["content"]


async def test_schema_violation_reasked_then_given_up(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(json_reply({"label": "great", "score": 1.0}))
    llm_server.enqueue(json_reply({"label": "aligned", "score": 7}))
    client = make_client(tmp_path, max_reasks=1)
    with pytest.raises(LLMGiveUp) as info:
        await client.structured(MESSAGES, Ruling, llm_server.spec())
    err = info.value
    assert err.attempts == 2 and len(llm_server.requests) == 2
    assert json.loads(err.last_raw) == {"label": "aligned", "score": 7}
    assert err.usage.calls == 2 and err.usage.prompt_tokens == 22
    assert "score" in str(err)
    reask = llm_server.requests[1]["messages"][-1]["content"]
    assert "label" in reask and "aligned" in reask  # the literal error names the allowed values


async def test_validate_failure_becomes_a_reask(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(json_reply({**GOOD, "lines": [999]}))
    llm_server.enqueue(json_reply(GOOD))

    def lines_exist(r: Ruling) -> None:
        if any(n > 10 for n in r.lines):
            raise ValueError("evidence line 999 does not exist; the file has 10 lines")

    result = await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec(), validate=lines_exist)
    assert result.value.lines == [3] and result.attempts == 2
    assert "line 999 does not exist" in llm_server.requests[1]["messages"][-1]["content"]


# -- transport errors and retries -----------------------------------------------------
async def test_rate_limit_honours_retry_after(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(error_body("slow down", type_="rate_limit_error"), status=429, headers={"Retry-After": "1"})
    llm_server.enqueue(json_reply(GOOD))
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec())
    assert result.value.label == "aligned"
    first, second = llm_server.seen
    assert second.started - first.started >= 0.95  # waited as told, not the 0.01 s backoff


async def test_server_error_is_retried(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(error_body("overloaded", type_="server_error"), status=500)
    llm_server.enqueue(error_body("bad gateway", type_="server_error"), status=502)
    llm_server.enqueue(json_reply(GOOD))
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec())
    assert result.value.label == "aligned" and len(llm_server.requests) == 3


async def test_slow_reply_times_out_then_retry_succeeds(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(json_reply(GOOD), delay=1.5)
    llm_server.enqueue(json_reply({**GOOD, "label": "missing"}))
    result = await make_client(tmp_path, timeout_s=0.3).structured(MESSAGES, Ruling, llm_server.spec())
    assert result.value.label == "missing"  # the slow reply was abandoned, not awaited
    assert len(llm_server.requests) == 2


async def test_timeouts_exhaust_retries(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD), delay=1.0)
    client = make_client(tmp_path, timeout_s=0.2, max_retries=1)
    with pytest.raises(LLMError) as info:
        await client.structured(MESSAGES, Ruling, llm_server.spec())
    assert not isinstance(info.value, LLMConfigError)
    assert "gave up after 2 requests" in str(info.value) and "openai/test-model" in str(info.value)
    assert len(llm_server.requests) == 2


@pytest.mark.parametrize(
    ("status", "needle"),
    [(401, "SA_ALIGN_TEST_SERVER_KEY"), (403, "api_key_env"), (404, "api_base"), (400, "rejected")],
)
async def test_config_errors_fail_fast(llm_server: ChatServer, tmp_path: Path, status: int, needle: str) -> None:
    llm_server.enqueue(error_body("nope", code="invalid_api_key"), status=status)
    with pytest.raises(LLMConfigError) as info:
        await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec())
    assert len(llm_server.requests) == 1
    assert "openai/test-model" in str(info.value) and needle in str(info.value)


async def test_missing_key_variable_fails_before_any_request(llm_server: ChatServer, tmp_path: Path) -> None:
    spec = llm_server.spec(api_key_env="SA_ALIGN_NO_SUCH_KEY")
    with pytest.raises(LLMConfigError, match="SA_ALIGN_NO_SUCH_KEY"):
        await make_client(tmp_path).structured(MESSAGES, Ruling, spec)
    assert llm_server.requests == []


# -- concurrency ----------------------------------------------------------------------
async def test_concurrency_cap_per_model(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD), delay=0.25)  # long enough that capped calls overlap
    client = make_client(tmp_path, use_cache=False)
    spec = llm_server.spec(max_concurrency=2)
    results = await asyncio.gather(*(client.structured(MESSAGES, Ruling, spec, sample=i) for i in range(8)))
    assert len(results) == 8 and len(llm_server.requests) == 8
    assert llm_server.max_in_flight == 2
    assert client.cost.calls == 8


async def test_config_concurrency_is_the_default_cap(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD), delay=0.25)
    client = make_client(tmp_path, use_cache=False, concurrency=3)
    await asyncio.gather(*(client.structured(MESSAGES, Ruling, llm_server.spec(), sample=i) for i in range(9)))
    assert llm_server.max_in_flight == 3


# -- cache ------------------------------------------------------------------------------
async def test_cache_hit_makes_no_request_and_survives_a_new_client(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD))
    first = make_client(tmp_path)
    await first.structured(MESSAGES, Ruling, llm_server.spec())
    again = await first.structured(MESSAGES, Ruling, llm_server.spec())
    rerun = make_client(tmp_path, timeout_s=9.0, concurrency=1)  # transport settings are not in the key
    third = await rerun.structured(MESSAGES, Ruling, llm_server.spec(max_concurrency=1))
    assert len(llm_server.requests) == 1
    for r in (again, third):
        assert r.cached and r.value == Ruling(**GOOD)
        assert (r.cost.cache_hits, r.cost.calls, r.cost.usd, r.cost.prompt_tokens) == (1, 0, 0.0, 0)
    assert rerun.cost.calls == 0 and rerun.cost.cache_hits == 1
    assert list((tmp_path / "cache" / "llm").rglob("*.json"))


async def test_reask_chain_replays_from_cache(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(chat_body("not json"))
    llm_server.enqueue(json_reply(GOOD))
    await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec())
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, llm_server.spec())
    assert len(llm_server.requests) == 2 and result.cached and result.attempts == 2


async def test_semantic_changes_miss_the_cache(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD))
    client = make_client(tmp_path)
    spec = llm_server.spec()
    await client.structured(MESSAGES, Ruling, spec)
    await client.structured(MESSAGES, Ruling, spec, sample=1)
    await client.structured(MESSAGES, Ruling, spec, temperature=0.3)
    await client.structured(MESSAGES[:1] + [{"role": "user", "content": "Is lr=0.2 set?"}], Ruling, spec)
    await client.structured(MESSAGES, Ruling, llm_server.spec(extra={"max_tokens": 50}))
    assert len(llm_server.requests) == 5
    assert llm_server.requests[1]["seed"] == 1 and llm_server.requests[1]["temperature"] == 0.7
    assert llm_server.requests[2]["temperature"] == 0.3
    assert llm_server.requests[4]["max_tokens"] == 50


async def test_use_cache_false_always_calls(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD))
    client = make_client(tmp_path, use_cache=False)
    for _ in range(2):
        assert not (await client.structured(MESSAGES, Ruling, llm_server.spec())).cached
    assert len(llm_server.requests) == 2 and not (tmp_path / "cache" / "llm").exists()


# -- budgets and prices -------------------------------------------------------------------
async def test_token_budget_stops_new_calls(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD, prompt_tokens=30, completion_tokens=10))
    client = make_client(tmp_path, budget_tokens=50)
    await client.structured(MESSAGES, Ruling, llm_server.spec())
    assert not client.budget_exhausted
    await client.structured(MESSAGES, Ruling, llm_server.spec(), sample=1)
    assert client.budget_exhausted
    with pytest.raises(BudgetExceeded, match="budget_tokens=50"):
        await client.structured(MESSAGES, Ruling, llm_server.spec(), sample=2)
    assert len(llm_server.requests) == 2
    cached = await client.structured(MESSAGES, Ruling, llm_server.spec())  # cache hits cost nothing
    assert cached.cached and client.cost.prompt_tokens == 60


async def test_dollar_budget_uses_known_prices(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD, prompt_tokens=100_000, completion_tokens=0))
    client = make_client(tmp_path, budget_usd=0.01)
    spec = llm_server.spec("gpt-4o-mini")
    await client.structured(MESSAGES, Ruling, spec)  # $0.015 at gpt-4o-mini's listed price
    assert client.budget_exhausted and client.cost.usd == pytest.approx(0.015)
    with pytest.raises(BudgetExceeded):
        await client.structured(MESSAGES, Ruling, spec, sample=1)


async def test_unknown_price_makes_run_total_unknown(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD))
    client = make_client(tmp_path)
    await client.structured(MESSAGES, Ruling, llm_server.spec("gpt-4o-mini"))
    assert client.cost.usd is not None and client.cost.usd > 0
    await client.structured(MESSAGES, Ruling, llm_server.spec("my-local-model"))
    assert client.cost.usd is None and client.cost.calls == 2


# -- ensembles ------------------------------------------------------------------------------
async def test_ensemble_runs_every_model_and_sample(llm_server: ChatServer, tmp_path: Path) -> None:
    def by_model(request: dict) -> dict:
        label = "aligned" if request["model"] == "judge-a" else "mismatched"
        return json_reply({"label": label, "score": 0.5}) if request["model"] != "judge-bad" else chat_body("no")

    llm_server.always(by_model)
    specs = [llm_server.spec("judge-a"), llm_server.spec("judge-b", samples=2), llm_server.spec("judge-bad")]
    results = await make_client(tmp_path, max_reasks=0).ensemble(MESSAGES, Ruling, specs)
    assert [r.value.label for r in results[:3]] == ["aligned", "mismatched", "mismatched"]
    assert isinstance(results[3], LLMGiveUp)
    b_requests = sorted((r["seed"], r["temperature"]) for r in llm_server.requests if r["model"] == "judge-b")
    assert b_requests == [(0, 0.7), (1, 0.7)]


# -- sync wrapper, mock models, token counts --------------------------------------------
def test_structured_sync_runs_in_fresh_loops(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD))
    client = make_client(tmp_path, use_cache=False)
    for _ in range(2):
        assert client.structured_sync(MESSAGES, Ruling, llm_server.spec()).value.label == "aligned"
    assert len(llm_server.requests) == 2


async def test_structured_sync_inside_a_running_loop(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.always(json_reply(GOOD))
    result = make_client(tmp_path).structured_sync(MESSAGES, Ruling, llm_server.spec())
    assert result.value.label == "aligned"


async def test_mock_models_answer_offline(tmp_path: Path) -> None:
    client = make_client(tmp_path)
    default = await client.structured(MESSAGES, Ruling, ModelSpec(model="mock/judge"))
    assert default.value == Ruling(label="aligned", score=0.0)
    scripted = await client.structured(
        MESSAGES, Ruling, ModelSpec(model="mock/judge", extra={"mock_response": {"label": "missing", "score": 0}})
    )
    assert scripted.value.label == "missing" and scripted.cost.usd == 0.0
    assert client.cost.calls == 2 and client.cost.usd == 0.0


def test_count_tokens(tmp_path: Path) -> None:
    client = make_client(tmp_path)
    spec = ModelSpec(model="openai/gpt-4o-mini")
    assert client.count_tokens("hello world", spec) == 2
    assert client.count_tokens(MESSAGES, spec) > client.count_tokens("Is lr=0.1 set?", spec)


@pytest.mark.parametrize("model, native", [("test-model", False), ("gpt-4o-mini", True)])
async def test_prepared_messages_are_what_the_server_receives(
    llm_server: ChatServer, tmp_path: Path, model: str, native: bool
) -> None:
    llm_server.enqueue(json_reply(GOOD))
    client, spec = make_client(tmp_path), llm_server.spec(model)
    prepared = client.prepare_messages(spec, MESSAGES, Ruling)
    await client.structured(MESSAGES, Ruling, spec)
    (sent,) = llm_server.requests
    assert sent["messages"] == prepared
    assert ("JSON schema" in system_text(sent)) is not native
    tokens = client.count_tokens(sent["messages"], spec)
    if native:  # the schema travels in response_format, and the provider counts it as prompt
        tokens += client.count_tokens(json.dumps(sent["response_format"]["json_schema"]), spec)
    assert client.prompt_tokens(spec, MESSAGES, Ruling) == tokens > client.count_tokens(MESSAGES, spec)


# -- other OpenAI-compatible and local providers --------------------------------------------
async def test_hosted_vllm_route(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(json_reply(GOOD))
    spec = ModelSpec(model="hosted_vllm/qwen-7b", api_base=llm_server.api_base)
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, spec)
    assert result.value.label == "aligned"
    assert llm_server.seen[0].path == "/v1/chat/completions"
    assert llm_server.requests[0]["model"] == "qwen-7b"
    assert llm_server.requests[0]["response_format"] == {"type": "json_object"}


async def test_ollama_native_route(llm_server: ChatServer, tmp_path: Path) -> None:
    llm_server.enqueue(json_reply(GOOD, prompt_tokens=12, completion_tokens=5))
    spec = ModelSpec(model="ollama_chat/llama3.1", api_base=llm_server.root)
    result = await make_client(tmp_path).structured(MESSAGES, Ruling, spec, sample=3)
    assert result.value.label == "aligned" and result.cost.prompt_tokens == 12
    assert result.cost.usd == 0.0  # a local model costs nothing in litellm's table
    sent = llm_server.requests[0]
    assert llm_server.seen[0].path == "/api/chat"
    assert sent["format"] == "json" and sent["options"]["seed"] == 3
    assert "JSON schema" in sent["messages"][0]["content"]


async def test_missing_provider_key_is_a_config_error(
    llm_server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    spec = ModelSpec(model="openai/test-model", api_base=llm_server.api_base)
    with pytest.raises(LLMConfigError, match="OPENAI_API_KEY"):
        await make_client(tmp_path).structured(MESSAGES, Ruling, spec)
    assert llm_server.requests == []


async def test_unreachable_server_says_so(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    spec = ModelSpec(model="hosted_vllm/m", api_base=f"http://127.0.0.1:{port}/v1")
    with pytest.raises(LLMError, match="could not connect") as info:
        await make_client(tmp_path, max_retries=1).structured(MESSAGES, Ruling, spec)
    assert not isinstance(info.value, LLMConfigError)


def test_count_tokens_never_fetches_a_tokenizer(tmp_path: Path) -> None:
    client = make_client(tmp_path)
    client.count_tokens("warm up", ModelSpec(model="openai/gpt-4o"))
    started = time.monotonic()
    n = client.count_tokens("hello world " * 50, ModelSpec(model="hosted_vllm/meta-llama/Meta-Llama-3-8B-Instruct"))
    assert n > 50 and time.monotonic() - started < 2.0  # a hub download attempt would take far longer
