"""Structured LLM calls through litellm: the only module of sa_align that imports it.

`LLMClient.structured` sends chat messages to any litellm model (hosted providers, Ollama,
vLLM, any OpenAI-compatible server via `api_base`), parses the reply into a pydantic model,
re-asks with the validation error when the reply is malformed or fails a grounding check,
caches every reply on disk by its semantic inputs, bounds requests in flight per model,
retries rate limits and server errors itself, and keeps the run's token and dollar totals
against the configured budgets.

Request shaping (output mode, schema instruction, litellm arguments) lives in
`request.py`; `LLMClient.prepare_messages` and `LLMClient.prompt_tokens` expose the
first request exactly as it is sent, so callers can hold it to a token budget.

Model strings `mock/<name>` never leave the process: they answer with
`ModelSpec.extra["mock_response"]` (a string or JSON value) or else with a minimal reply
that satisfies the response schema, so whole pipelines run offline.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import threading
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from sa_align.config import EvalConfig, ModelSpec
from sa_align.errors import BudgetExceeded, LLMGiveUp
from sa_align.llm.cache import ResponseCache, cache_key
from sa_align.llm.errors import RETRYABLE, exhausted_error, fatal_error, retry_after, status_of
from sa_align.llm.jsonparse import describe_error, extract_json, mock_instance, reask_message, schema_of
from sa_align.llm.request import MOCK_PREFIX, Prepared, prepare, request_kwargs, route_model
from sa_align.llm.request import temperature as pick_temperature
from sa_align.models import Cost

T = TypeVar("T", bound=BaseModel)

FREE_PROVIDERS = frozenset({"ollama", "ollama_chat", "lm_studio", "llamafile"})
"""Providers that only run on the user's machine: priced at 0 dollars when litellm has no price."""
MAX_WAIT_S = 60.0
"""Longest single wait before a retry, whatever Retry-After asks for."""
_MAX_RAW_ECHO = 8000
_LITELLM_LOCK = threading.Lock()

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LLMResult(Generic[T]):
    """A validated structured reply and what it cost."""

    value: T
    """The reply parsed into the response model."""
    cost: Cost
    """Tokens and dollars of this call, all attempts included (cache hits cost nothing)."""
    model: str
    """The litellm model string that answered."""
    cached: bool
    """True when every attempt was answered from the disk cache (no provider call)."""
    raw: str
    """The raw text of the accepted reply."""
    attempts: int
    """Replies it took: 1 plus the number of re-asks."""


@dataclass
class _Reply:
    raw: str
    cost: Cost
    cached: bool


def _litellm() -> Any:
    """Import litellm offline and quiet (no price-table or tokenizer download, no banner)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    with _LITELLM_LOCK:
        import litellm

        litellm.suppress_debug_info = True
        # Llama/Cohere token counts would otherwise fetch tokenizers from the Hugging Face hub.
        litellm.disable_hf_tokenizer_download = True
        for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
            logging.getLogger(name).setLevel(logging.ERROR)
    return litellm


class LLMClient:
    """One client per run: holds the cache, per-model concurrency limits and the run's totals."""

    def __init__(self, config: EvalConfig) -> None:
        self.config = config
        self._cache = ResponseCache(config.cache_dir / "llm") if config.use_cache else None
        self._totals = Cost()
        self._usd_known = 0.0
        self._lock = threading.Lock()
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple, asyncio.Semaphore]]
        self._semaphores = weakref.WeakKeyDictionary()

    # -- public API -------------------------------------------------------
    @property
    def cost(self) -> Cost:
        """Running totals for the run; `usd` is None once any call had an unknown price."""
        with self._lock:
            return self._totals.model_copy()

    @property
    def budget_exhausted(self) -> bool:
        """True once the dollar or token budget is reached (unknown prices count as 0 dollars)."""
        cfg = self.config
        with self._lock:
            tokens = self._totals.prompt_tokens + self._totals.completion_tokens
            usd = self._usd_known
        return bool(
            (cfg.budget_tokens is not None and tokens >= cfg.budget_tokens)
            or (cfg.budget_usd is not None and usd >= cfg.budget_usd)
        )

    async def structured(
        self,
        messages: list[dict[str, Any]],
        response_model: type[T],
        spec: ModelSpec,
        *,
        sample: int = 0,
        temperature: float | None = None,
        validate: Callable[[T], None] | None = None,
    ) -> LLMResult[T]:
        """Ask `spec.model` for a reply matching `response_model`; re-ask on invalid replies.

        `validate` may raise ValueError/ValidationError to reject a parsed reply (a grounding
        check); that is re-asked exactly like a schema violation. Raises `LLMGiveUp` after
        `config.max_reasks` re-asks, `BudgetExceeded` when the budget is spent,
        `LLMConfigError` for credentials/model/request problems, `LLMError` when retries run out.
        """
        schema = schema_of(response_model)
        temp = pick_temperature(spec, sample, temperature)
        first = self.prepare_request(spec, messages, schema)
        response_format, convo = first.response_format, first.messages
        total, all_cached, raw = Cost(), True, ""
        attempts = self.config.max_reasks + 1
        for attempt in range(1, attempts + 1):
            reply = await self._call(spec, convo, schema, response_format, temp, sample)
            total, raw = total + reply.cost, reply.raw
            all_cached = all_cached and reply.cached
            try:
                value = response_model.model_validate(extract_json(raw))
                if validate is not None:
                    validate(value)
            except (ValueError, ValidationError) as exc:
                error = describe_error(exc)
                log.debug("%s attempt %d rejected: %s", spec.model, attempt, error)
                convo = [*convo, {"role": "assistant", "content": raw[:_MAX_RAW_ECHO]}, {"role": "user", "content": reask_message(error)}]
                continue
            return LLMResult(value=value, cost=total, model=spec.model, cached=all_cached, raw=raw, attempts=attempt)
        raise LLMGiveUp(
            f"{spec.model} gave no valid {response_model.__name__} in {attempts} attempts; last error: {error}",
            attempts=attempts,
            usage=total,
            last_raw=raw,
        )

    def structured_sync(self, *args: Any, **kwargs: Any) -> LLMResult[Any]:
        """Blocking form of `structured`, same arguments."""
        return _run_sync(lambda: self.structured(*args, **kwargs))

    async def ensemble(
        self,
        messages: list[dict[str, Any]],
        response_model: type[T],
        specs: list[ModelSpec],
        *,
        validate: Callable[[T], None] | None = None,
    ) -> list[LLMResult[T] | Exception]:
        """Every sample of every model, concurrently; one entry per (model, sample) in order.

        Failures come back as exception objects in their slot, never raised.
        """
        calls = [
            self.structured(messages, response_model, spec, sample=i, validate=validate)
            for spec in specs
            for i in range(spec.samples)
        ]
        results = await asyncio.gather(*calls, return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, Exception):
                raise r
        return list(results)

    def count_tokens(self, messages_or_text: str | list[dict[str, Any]], spec: ModelSpec) -> int:
        """Tokens `spec.model` would see; about chars/4 when litellm has no tokenizer for it."""
        text = messages_or_text if isinstance(messages_or_text, str) else None
        try:
            litellm = _litellm()
            model = route_model(spec.model)
            if text is not None:
                return int(litellm.token_counter(model=model, text=text))
            return int(litellm.token_counter(model=model, messages=messages_or_text))
        except Exception:  # a missing tokenizer must never stop a run
            if text is None:
                text = "".join(str(m.get("content") or "") for m in messages_or_text)
            return max(1, len(text) // 4) if text else 0

    # -- request shaping (request.py) ----------------------------------------------
    def prepare_request(self, spec: ModelSpec, messages: list[dict[str, Any]], schema: dict[str, Any]) -> Prepared:
        """The first request `structured` sends for these messages: the conversation and `response_format`."""
        mode = "custom" if "response_format" in spec.extra else _json_mode(spec)
        return prepare(spec, messages, schema, mode)

    def prepare_messages(
        self, spec: ModelSpec, messages: list[dict[str, Any]], response_model: type[BaseModel]
    ) -> list[dict[str, Any]]:
        """The conversation exactly as `structured` first sends it (schema instruction included)."""
        return self.prepare_request(spec, messages, schema_of(response_model)).messages

    def prompt_tokens(self, spec: ModelSpec, messages: list[dict[str, Any]], response_model: type[BaseModel]) -> int:
        """Prompt tokens of the first request for these messages: the prepared conversation,
        plus the schema when it travels natively in `response_format` (providers count it too)."""
        first = self.prepare_request(spec, messages, schema_of(response_model))
        tokens = self.count_tokens(first.messages, spec)
        if isinstance(first.response_format, dict) and first.response_format.get("type") == "json_schema":
            tokens += self.count_tokens(json.dumps(first.response_format["json_schema"]), spec)
        return tokens

    # -- one provider call (cache, budget, concurrency, retries) ----------------
    async def _call(
        self,
        spec: ModelSpec,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        response_format: Any,
        temperature: float,
        sample: int,
    ) -> _Reply:
        mock = spec.model.startswith(MOCK_PREFIX)
        key = None
        if self._cache is not None and not mock:  # mock replies are free and not worth a file
            key = cache_key(
                model=spec.model,
                api_base=spec.api_base,
                messages=messages,
                schema=schema,
                response_format=response_format,
                temperature=temperature,
                sample=sample,
                extra=spec.extra,
            )
            if (hit := self._cache.get(key)) is not None:
                self._account(Cost(cache_hits=1))
                return _Reply(raw=str(hit.get("raw") or ""), cost=Cost(usd=0.0, cache_hits=1), cached=True)
        kwargs = request_kwargs(spec, messages, response_format, temperature, sample, self.config.timeout_s)
        if mock:
            scripted = spec.extra.get("mock_response", mock_instance(schema))
            kwargs["mock_response"] = scripted if isinstance(scripted, str) else json.dumps(scripted)
        response = await self._with_retries(spec, lambda: _litellm().acompletion(**kwargs))
        raw, cost = _read_response(response, kwargs["model"])
        if mock:
            cost = cost.model_copy(update={"usd": 0.0})
        self._account(cost)
        if key is not None and self._cache is not None:
            self._cache.put(key, {"model": spec.model, "raw": raw, "created": time.time(), **cost.model_dump()})
        return _Reply(raw=raw, cost=cost, cached=False)

    async def _with_retries(self, spec: ModelSpec, request: Callable[[], Awaitable[Any]]) -> Any:
        """Run one request under the model's semaphore; retry what a retry can fix."""
        last: BaseException | None = None
        for attempt in range(self.config.max_retries + 1):
            if self.budget_exhausted:
                raise BudgetExceeded(self._budget_message(spec))
            try:
                async with self._semaphore(spec):
                    # Guard against providers that ignore the request timeout.
                    return await asyncio.wait_for(request(), self.config.timeout_s + 5.0)
            except asyncio.TimeoutError as exc:
                last, status = exc, 408
            except Exception as exc:  # litellm maps every provider error onto status codes
                last, status = exc, status_of(exc)
                if status not in RETRYABLE:
                    raise fatal_error(spec, exc, status, _key_envs(spec)) from exc
            if attempt < self.config.max_retries:
                delay = self._retry_delay(last, attempt)
                log.info("%s: %s; retrying in %.1fs", spec.model, type(last).__name__, delay)
                await asyncio.sleep(delay)
        raise exhausted_error(spec, self.config.max_retries + 1, last) from last

    def _retry_delay(self, exc: BaseException | None, attempt: int) -> float:
        after = retry_after(exc)
        if after is not None:
            return min(after, MAX_WAIT_S)
        base = self.config.retry_backoff_s * (2**attempt)
        return min(base * (0.5 + random.random()), MAX_WAIT_S)

    def _semaphore(self, spec: ModelSpec) -> asyncio.Semaphore:
        # Semaphores belong to one event loop; `structured_sync` may run several loops in turn.
        per_loop = self._semaphores.setdefault(asyncio.get_running_loop(), {})
        key = (spec.model, spec.api_base)
        if key not in per_loop:
            per_loop[key] = asyncio.Semaphore(spec.max_concurrency or self.config.concurrency)
        return per_loop[key]

    # -- accounting -------------------------------------------------------------
    def _account(self, cost: Cost) -> None:
        with self._lock:
            self._totals = self._totals + cost
            self._usd_known += cost.usd or 0.0

    def _budget_message(self, spec: ModelSpec) -> str:
        c = self.cost
        spent = f"{c.prompt_tokens + c.completion_tokens} tokens" + (f", ${c.usd:.4f}" if c.usd is not None else "")
        limits = f"budget_tokens={self.config.budget_tokens}, budget_usd={self.config.budget_usd}"
        return f"{spec.model}: LLM budget spent ({spent}; {limits}); no new calls start"


# -- helpers that touch litellm ---------------------------------------------------
def _json_mode(spec: ModelSpec) -> str:
    """`schema` (native JSON schema), `json` (JSON mode) or `prompt` (schema only in the prompt)."""
    litellm = _litellm()
    model = route_model(spec.model)
    try:
        if litellm.supports_response_schema(model=model):
            return "schema"
    except Exception:
        pass
    try:
        if "response_format" in (litellm.get_supported_openai_params(model=model) or []):
            return "json"
    except Exception:
        pass
    return "prompt"


def _key_envs(spec: ModelSpec) -> list[str]:
    """Environment variables litellm reads the provider's key from (for error messages)."""
    try:
        missing = _litellm().validate_environment(model=route_model(spec.model)).get("missing_keys") or []
    except Exception:
        return []
    return [k for k in missing if k.endswith("_KEY")]


def _read_response(response: Any, model: str) -> tuple[str, Cost]:
    """Reply text and its cost; usd None when litellm has no price for the model."""
    try:
        raw = response.choices[0].message.content or ""
    except (AttributeError, IndexError):
        raw = ""
    usage = getattr(response, "usage", None)
    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion = int(getattr(usage, "completion_tokens", 0) or 0)
    usd: float | None
    try:
        in_usd, out_usd = _litellm().cost_per_token(model=model, prompt_tokens=prompt, completion_tokens=completion)
        usd = float(in_usd) + float(out_usd)
    except Exception:  # litellm raises when the model is not in its price table
        usd = 0.0 if model.split("/", 1)[0] in FREE_PROVIDERS else None
    return raw, Cost(prompt_tokens=prompt, completion_tokens=completion, usd=usd, calls=1)


def _run_sync(make: Callable[[], Awaitable[Any]]) -> Any:
    """Run a coroutine to completion from sync code, even inside a running event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())  # type: ignore[arg-type]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()  # type: ignore[arg-type]
