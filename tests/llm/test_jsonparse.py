"""Pulling JSON out of replies, and the stand-in replies of `mock/` models."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from sa_align.llm.jsonparse import extract_json, mock_instance


@pytest.mark.parametrize(
    "text",
    ['{"a": 1}', '```json\n{"a": 1}\n```', "```\n{\"a\": 1}\n```", 'Sure! {"a": 1} hope it helps', '  {"a": 1}\n'],
)
def test_extract_json_variants(text: str) -> None:
    assert extract_json(text) == {"a": 1}


@pytest.mark.parametrize("text", ["", "   ", "no json here", '{"a": '])
def test_extract_json_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        extract_json(text)


def test_mock_instance_is_schema_valid() -> None:
    class Inner(BaseModel):
        """Nested."""

        kind: Literal["x", "y"]
        """A kind."""
        n: int = Field(ge=3)
        """At least three."""

    class Outer(BaseModel):
        """Top."""

        inner: Inner
        """Nested model."""
        items: list[Inner] = Field(min_length=1)
        """At least one."""
        note: str | None = None
        """Optional."""

    value = Outer.model_validate(mock_instance(Outer.model_json_schema()))
    assert value.inner.kind == "x" and value.inner.n == 3 and len(value.items) == 1
