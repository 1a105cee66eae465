"""Shaping one provider request: output mode, the conversation as sent, and litellm's arguments.

Pure functions over a `ModelSpec`: nothing here imports litellm or talks to a provider.
`sa_align.llm.client` asks litellm which output mode a model supports and passes it in, so the
conversation a judge counts against its token budget is built by the same code that
builds the request (`LLMClient.prepare_messages`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from sa_align.config import ModelSpec
from sa_align.errors import LLMConfigError
from sa_align.llm.jsonparse import schema_instruction, with_instruction

MOCK_PREFIX = "mock/"
_PRIVATE_EXTRA = ("max_concurrency", "mock_response", "response_format")
"""`ModelSpec.extra` keys read by sa_align itself, never passed on to litellm."""


@dataclass(frozen=True)
class Prepared:
    """The first request of a structured call, as it will be sent."""

    messages: list[dict[str, Any]]
    """The conversation, with the schema instruction added when the schema travels in the prompt."""
    response_format: Any
    """litellm's `response_format` argument, or None."""


def route_model(model: str) -> str:
    """The model string litellm sees: `mock/x` is served by litellm's mock path as `openai/x`."""
    return "openai/" + model[len(MOCK_PREFIX) :] if model.startswith(MOCK_PREFIX) else model


def temperature(spec: ModelSpec, sample: int, override: float | None) -> float:
    """The override, else the spec's temperature, else 0 for a single sample and 0.7 for several."""
    if override is not None:
        return override
    if spec.temperature is not None:
        return spec.temperature
    return 0.0 if spec.samples == 1 and sample == 0 else 0.7


def prepare(spec: ModelSpec, messages: list[dict[str, Any]], schema: dict[str, Any], mode: str) -> Prepared:
    """Shape the messages for output `mode`: `schema` (native JSON schema), `json` (JSON mode) or `prompt`.

    A `response_format` in `spec.extra` wins over `mode`. Except in `schema` mode the JSON
    schema is appended to the system message, so it counts as prompt tokens.
    """
    convo = [dict(m) for m in messages]
    if "response_format" in spec.extra:
        mode, response_format = "custom", spec.extra["response_format"]
    else:
        response_format = None
        if mode == "schema":
            name = str(schema.get("title") or "reply")[:64]
            response_format = {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}
        elif mode == "json":
            response_format = {"type": "json_object"}
    if mode != "schema":
        convo = with_instruction(convo, schema_instruction(schema))
    return Prepared(messages=convo, response_format=response_format)


def request_kwargs(
    spec: ModelSpec,
    messages: list[dict[str, Any]],
    response_format: Any,
    temp: float,
    sample: int,
    timeout_s: float,
) -> dict[str, Any]:
    """Keyword arguments of `litellm.acompletion` for one attempt; raises `LLMConfigError` for a missing key."""
    kwargs: dict[str, Any] = {
        "model": route_model(spec.model),
        "messages": messages,
        "temperature": temp,
        "seed": sample,
        "timeout": timeout_s,
        "num_retries": 0,
        "max_retries": 0,  # the OpenAI SDK's own retries; ours are in LLMClient._with_retries
        "drop_params": True,
    }
    if response_format is not None:
        kwargs["response_format"] = response_format
    if spec.api_base:
        kwargs["api_base"] = spec.api_base
    if spec.api_key_env:
        key = os.environ.get(spec.api_key_env)
        if not key:
            raise LLMConfigError(
                f"{spec.model}: environment variable {spec.api_key_env} (ModelSpec.api_key_env) is not set; "
                "export it with the API key"
            )
        kwargs["api_key"] = key
    kwargs.update({k: v for k, v in spec.extra.items() if k not in _PRIVATE_EXTRA})
    return kwargs
