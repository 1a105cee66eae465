"""Which judges there are and which run on which kind of unit, from `units/kinds.yaml`."""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any, Callable

from sa_align.errors import ConfigError
from sa_align.models import UnitKind
from sa_align.resources import load_yaml


@lru_cache(maxsize=1)
def judge_names() -> tuple[str, ...]:
    """Every static judge, by name, as `units/kinds.yaml` lists them (`judges`): the one list of them."""
    return tuple(str(n) for n in load_yaml("kinds.yaml")["judges"])


@lru_cache(maxsize=1)
def _kinds() -> dict[str, Any]:
    kinds = load_yaml("kinds.yaml")["kinds"]
    for kind, spec in kinds.items():
        unknown = [n for n in spec.get("static", []) if n not in judge_names()]
        if unknown:
            raise ConfigError(f"units/kinds.yaml routes {kind} units to unknown static judges {unknown}; "
                              f"the judges are {list(judge_names())}")
    return kinds


def static_judge_names(kind: UnitKind, allowed: list[str] | None = None) -> list[str]:
    """Static judges routed to `kind`, in order, restricted to `allowed` when given."""
    names = list(_kinds().get(kind.value, {}).get("static", []))
    return [n for n in names if allowed is None or n in allowed]


def llm_policy(kind: UnitKind) -> str:
    """`unless-certain` or `never`."""
    return str(_kinds().get(kind.value, {}).get("llm", "unless-certain"))


@lru_cache(maxsize=1)
def label_levels() -> dict[str, tuple[float, ...]]:
    """Label -> the SA-Bench levels it may be graded with (`levels` in `units/kinds.yaml`)."""
    levels = load_yaml("kinds.yaml")["levels"]
    return {str(label): tuple(float(x) for x in values) for label, values in levels.items()}


def rubric(kind: UnitKind) -> str:
    """The judging rubric for `kind`."""
    return str(_kinds().get(kind.value, {}).get("rubric", ""))


def registry() -> dict[str, Callable[[], Any]]:
    """Static judge name -> factory: `<name>_judge` in the judge's room, `sa_align.judges.<name>`.

    The rooms are imported here, on first use, so that reading the routing table stays cheap."""
    return {name: getattr(importlib.import_module(f"sa_align.judges.{name}"), f"{name}_judge") for name in judge_names()}
