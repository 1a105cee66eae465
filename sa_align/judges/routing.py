"""Which judges run on which kind of unit, from `units/kinds.yaml`."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from sa_align.models import UnitKind
from sa_align.resources import load_yaml


@lru_cache(maxsize=1)
def _kinds() -> dict[str, Any]:
    return load_yaml("kinds.yaml")["kinds"]


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
    """Static judge name -> factory."""
    from sa_align.judges.attribution import attribution_judge
    from sa_align.judges.missing import missing_judge
    from sa_align.judges.numeric import numeric_judge
    from sa_align.judges.ordering import ordering_judge
    from sa_align.judges.protocol import protocol_judge
    from sa_align.judges.stub import stub_judge
    from sa_align.judges.values import values_judge

    return {
        "numeric": numeric_judge,
        "stub": stub_judge,
        "missing": missing_judge,
        "protocol": protocol_judge,
        "ordering": ordering_judge,
        "attribution": attribution_judge,
        "values": values_judge,
    }
