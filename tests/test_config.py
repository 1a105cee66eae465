"""Configuration models: validated on use although their validators are built lazily."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from sa_align.config import EvalConfig, IndexConfig


def test_validators_still_apply_when_first_used():
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        IndexConfig(workers=0)
    with pytest.raises(ValidationError, match="extra"):
        EvalConfig(index={"max_files": 10, "colour": "red"})
    assert EvalConfig(index={"max_files": 10}).index.max_files == 10


def test_the_unvalidated_defaults_equal_the_validated_ones():
    assert IndexConfig.model_construct() == IndexConfig()
