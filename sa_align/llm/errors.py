"""Classify provider errors for `sa_align.llm.client`: what to retry, how long to wait, and what to
tell the user to fix. Works on litellm's exceptions by duck typing, so it never imports litellm."""

from __future__ import annotations

import email.utils
import time

from sa_align.config import ModelSpec
from sa_align.errors import LLMConfigError, LLMError

RETRYABLE = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
"""Statuses worth retrying: timeouts, conflicts, rate limits and server-side failures."""


def status_of(exc: BaseException) -> int | None:
    """HTTP-like status of a provider error; litellm sets `status_code` on everything it maps."""
    text = str(exc)
    # The OpenAI SDK refuses to send without a key; litellm reports that as a server error.
    if "Missing credentials" in text or "api_key client option must be set" in text:
        return 401
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status
    name = type(exc).__name__
    if "Timeout" in name:
        return 408
    if "Connection" in name or "ServiceUnavailable" in name:
        return 503
    return None


def retry_after(exc: BaseException | None) -> float | None:
    """Seconds from a Retry-After (or retry-after-ms) header on the error, if any."""
    headers = getattr(exc, "litellm_response_headers", None) or getattr(getattr(exc, "response", None), "headers", None)
    if not headers:
        return None
    try:
        if (ms := headers.get("retry-after-ms")) is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, AttributeError):
        return None


def fatal_error(spec: ModelSpec, exc: BaseException, status: int | None, key_envs: list[str]) -> LLMError:
    """Turn a non-retryable provider error into an error that says what to fix.

    `key_envs` names the environment variables the provider reads its key from.
    """
    detail = short(exc)
    if status in (401, 403):
        key_hint = spec.api_key_env or " or ".join(key_envs) or "the provider's API key variable"
        return LLMConfigError(
            f"{spec.model}: the provider rejected the credentials ({status}); set {key_hint} "
            f"or point ModelSpec.api_key_env at the variable holding the key{where(spec)}. {detail}"
        )
    if status == 404:
        return LLMConfigError(
            f"{spec.model}: model or endpoint not found (404); check the model name and "
            f"ModelSpec.api_base{where(spec)}. {detail}"
        )
    if status in (400, 422) or "BadRequest" in type(exc).__name__:
        return LLMConfigError(
            f"{spec.model}: the request was rejected ({status or 'bad request'}); check the model string, "
            f"ModelSpec.api_base and ModelSpec.extra{where(spec)}. {detail}"
        )
    return LLMError(f"{spec.model}: {type(exc).__name__}: {detail}{where(spec)}")


def exhausted_error(spec: ModelSpec, attempts: int, last: BaseException | None) -> LLMError:
    """The error once retries run out, with a hint when the server was never reached."""
    hint = ""
    text = f"{type(last).__name__} {last}".lower()
    if any(s in text for s in ("connection error", "cannot connect", "connection refused", "connecterror")):
        hint = "; could not connect: check that the server is running and ModelSpec.api_base is right"
    return LLMError(
        f"{spec.model}: gave up after {attempts} requests; last error: "
        f"{type(last).__name__}: {short(last)}{where(spec)}{hint}"
    )


def where(spec: ModelSpec) -> str:
    """` (api_base=...)` when the spec has one, for error messages."""
    return f" (api_base={spec.api_base})" if spec.api_base else ""


def short(exc: BaseException | None, limit: int = 300) -> str:
    """The error text on one line, truncated."""
    text = " ".join(str(exc).split()) if exc is not None else ""
    return text if len(text) <= limit else text[:limit] + " ..."
