"""Config files flattened to key paths with values and lines."""

from __future__ import annotations

import re

import pytest

from sa_align.index.configs import extract_config, scalar

from .conftest import value


@pytest.mark.parametrize(
    ("path", "key_path", "expected", "line"),
    [
        ("configs/base.yaml", "optimizer.lr", 1e-3, 5),  # `1e-3` is a number, as in OmegaConf
        ("configs/base.yaml", "optimizer.betas", [0.9, 0.95], 6),
        ("configs/base.yaml", "schedule.milestones", [30, 60], 10),
        ("configs/base.yaml", "data.name", "cifar100", 13),
        ("configs/base.yaml", "data.augment[0].size", 32, 15),
        ("configs/base.yaml", "defaults[0].model", "vit", 2),
        ("configs/extra.json", "model.heads", 6, 4),
        ("configs/extra.json", "seed", 7, 6),
        ("configs/opt.ini", "optimizer.momentum", 0.9, 2),
        ("configs/opt.ini", "optimizer.nesterov", True, 3),
        ("pyproject.toml", "tool.mlrepo.warmup_steps", 500, 9),
    ],
)
def test_config_values(mlrepo_index, path, key_path, expected, line):
    fact = value(mlrepo_index, path, key_path, "config")
    assert fact.value == expected
    assert fact.line == line
    assert fact.name == re.sub(r"\[\d+\]", "", key_path).rsplit(".", 1)[-1]


def test_quoted_yaml_numbers_stay_strings():
    facts = extract_config("c.yaml", 'a: "1e-3"\nb: 2.5\nc: null\nd: yes\n', 30, 4)
    assert {v.key_path: v.value for v in facts.values} == {"a": "1e-3", "b": 2.5, "c": None, "d": True}


def test_broken_config_is_kept_with_a_parse_error():
    facts = extract_config("bad.json", '{"a": [1, 2', 11, 1)
    assert facts.info.parse_errors == 1 and facts.values == []
    facts = extract_config("bad.yaml", "a: [1, 2\nb: {", 13, 2)
    assert facts.info.parse_errors >= 1 and facts.values == []


# A list item followed by a key of the enclosing mapping at the list's indent, and an unquoted
# formula holding `: `: the two ways agent-written configs broke on SA-Bench's development runs.
BROKEN_YAML = """\
training:
  learning_rate: 2.0e-5
  tasks:
    - "hellaswag"
    - "piqa"
    eval_every: 5000
  weighting: lambda(sigma): 1 / sigma
  epochs: 3
"""


def test_a_yaml_file_broken_in_places_keeps_its_other_values_at_their_lines():
    facts = extract_config("config.yaml", BROKEN_YAML, len(BROKEN_YAML), 8)
    found = {v.key_path: (v.value, v.line) for v in facts.values}
    assert found["training.learning_rate"] == (2e-5, 2) and found["training.epochs"] == (3, 8)
    assert found["training.tasks"] == (["hellaswag", "piqa"], 4)
    assert "training.eval_every" not in found and "training.weighting" not in found
    assert facts.info.parse_errors == 2  # the two lines it dropped


def test_yaml_beyond_repair_is_kept_with_a_parse_error():
    text = "\n".join(f"k{i}: [" for i in range(40))
    facts = extract_config("bad.yaml", text, len(text), 40)
    assert facts.info.parse_errors == 1 and facts.values == []


def test_yaml_alias_bomb_is_bounded():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    facts = extract_config("bomb.yaml", "\n".join(lines), 1000, len(lines))
    assert len(facts.values) <= 5000


def test_scalar():
    assert scalar("3e-4") == 3e-4 and scalar("1_000") == 1000 and scalar("-2") == -2
    assert scalar("off") is False and scalar("adamw") == "adamw"
