"""JSON handling for structured LLM replies: pull JSON out of a reply, explain why a reply
was rejected, and build a schema-valid stand-in reply for `mock/` models.

Nothing here talks to a provider; `sa_align.llm.client` drives it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from sa_align.resources import prompt_text

_FENCE = re.compile(r"```[ \t]*(?:json|JSON|json5)?[ \t]*\n(.*?)```", re.DOTALL)
_MAX_ERROR_CHARS = 2000


def schema_of(response_model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema the reply must satisfy (field docstrings become descriptions)."""
    return response_model.model_json_schema()


def schema_instruction(schema: dict[str, Any]) -> str:
    """The message that puts the schema into the prompt, for providers without native schema support."""
    return prompt_text("llm_json_schema.md").replace("{schema}", json.dumps(schema, indent=1))


def reask_message(error: str) -> str:
    """The user message that asks the model to fix its previous reply."""
    return prompt_text("llm_reask.md").replace("{error}", error)


def with_instruction(messages: list[dict[str, Any]], instruction: str) -> list[dict[str, Any]]:
    """Append the schema instruction to the system message (or add one)."""
    if messages and messages[0].get("role") == "system" and isinstance(messages[0].get("content"), str):
        first = {**messages[0], "content": messages[0]["content"].rstrip() + "\n\n" + instruction}
        return [first, *messages[1:]]
    return [{"role": "system", "content": instruction}, *messages]


def extract_json(text: str | None) -> Any:
    """Parse the JSON value in a reply: bare, fenced in ```json, or embedded in prose.

    Raises ValueError with a message fit to quote back to the model.
    """
    if not text or not text.strip():
        raise ValueError("the reply was empty; expected a JSON object")
    stripped = text.strip()
    candidates = [stripped]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(text)]
    for cand in candidates:
        try:
            return json.loads(cand)
        except json.JSONDecodeError:
            continue
    # Prose around the object: decode from the first brace that yields a full value.
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[{\[]", stripped):
        try:
            value, _ = decoder.raw_decode(stripped, match.start())
            return value
        except json.JSONDecodeError:
            continue
    try:
        json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the reply is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    raise ValueError("the reply is not valid JSON")  # pragma: no cover - loads above always fails here


def describe_error(exc: BaseException) -> str:
    """A short, model-readable account of why a reply was rejected."""
    if isinstance(exc, ValidationError):
        lines = []
        for err in exc.errors(include_url=False):
            loc = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
            lines.append(f"- {loc}: {err.get('msg', 'invalid')}")
        text = "the reply does not match the schema:\n" + "\n".join(lines)
    else:
        text = str(exc) or type(exc).__name__
    return text if len(text) <= _MAX_ERROR_CHARS else text[:_MAX_ERROR_CHARS] + " ..."


def mock_instance(schema: dict[str, Any]) -> Any:
    """A minimal value valid under `schema`: defaults first, then the first enum member, empty
    collections, zeros and empty strings. Used as the reply of `mock/` models."""
    defs = schema.get("$defs", {})
    return _mock(schema, defs, depth=0)


def _mock(node: dict[str, Any], defs: dict[str, Any], depth: int) -> Any:
    if depth > 20:
        return None
    if "$ref" in node:
        return _mock(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
    if "default" in node:
        return node["default"]
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if node.get(key):
            options = [o for o in node[key] if o.get("type") != "null"] or node[key]
            return _mock(options[0], defs, depth + 1)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in node:
        required = node.get("required", [])
        return {k: _mock(v, defs, depth + 1) for k, v in node.get("properties", {}).items() if k in required}
    if kind == "array":
        count = node.get("minItems", 0)
        return [_mock(node.get("items", {}), defs, depth + 1) for _ in range(count)]
    if kind in ("integer", "number"):
        low = node.get("minimum", node.get("exclusiveMinimum", 0))
        return int(low) + (1 if "exclusiveMinimum" in node else 0) if kind == "integer" else low
    if kind == "boolean":
        return False
    if kind == "string":
        return "x" * node.get("minLength", 0)
    return None
