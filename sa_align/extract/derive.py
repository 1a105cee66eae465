"""Checkable fields for units that arrive as free text: parameters, entities, steps, hints.

A unit from SA-Bench, PaperBench, a user's units file or an LLM extractor often
has only a claim ("Adam optimizer: lr=2e-5, beta1=0.95, eps=1e-8"). The paper
extractor's rules run on its claim and quote as if they were a tiny paper, and
`units/extract/derive.yaml` adds the notations free-text claims use: `key=value`
settings, lists of values (`lr ∈ {1e-4, 3e-5}` a set, `num_blocks=[3,5,7]` a sequence,
`mu ∈ [0.3, 0.7]` a range), arrow chains and numbered steps, identifier-shaped words as hints.
Only empty fields are filled, and each filled field is named in `Unit.derived`
so a report can say where it came from.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from sa_align.extract.notation import assignment_params, heading_params, identifier_hints, text_steps
from sa_align.extract.rules import rule_units
from sa_align.models import Param, Unit, UnitKind
from sa_align.paper.loader import paper_from_text
from sa_align.resources import load_yaml


def complete_units(units: Iterable[Unit]) -> list[Unit]:
    """Every unit with its empty checkable fields filled from its own text, when the text states them."""
    return [complete_unit(u) for u in units]


_KIND_FIELD = {UnitKind.NUMERICAL: "params", UnitKind.PROTOCOL: "entities", UnitKind.ORDERING: "order"}
"""The checkable field of each kind that derivation may fill (hints for every kind)."""


def complete_unit(unit: Unit) -> Unit:
    text = _text(unit)
    field = _KIND_FIELD.get(unit.kind)
    if not text or unit.derived or (unit.hints and (field is None or getattr(unit, field))):
        return unit  # nothing to fill: the rules are not run on units that arrive complete
    found = _rule_fields(text)
    updates: dict[str, Any] = {}
    if unit.kind == UnitKind.NUMERICAL and not unit.params:
        written = assignment_params(text, found["params"]) + heading_params(text)
        # A setting written as `name=value` is explicit; the prose rules' reading of the same name yields.
        named = {p.name for p in written}
        params = _merge_params([p for p in found["params"] if p.name not in named and not _restated(p, written)], written)
        if params:
            updates["params"] = params
    if unit.kind == UnitKind.PROTOCOL and not unit.entities and found["entities"]:
        updates["entities"] = found["entities"]
    if unit.kind == UnitKind.ORDERING and not unit.order:
        steps = found["order"] or text_steps(text)
        if len(steps) >= 2:
            updates["order"] = steps
    if not unit.hints:
        hints = list(dict.fromkeys(found["hints"] + identifier_hints(text)))[: load_yaml("extract/derive.yaml")["hints"]["max"]]
        if hints:
            updates["hints"] = hints
    if not updates:
        return unit
    return unit.model_copy(update={**updates, "derived": sorted(updates)})


def _text(unit: Unit) -> str:
    parts = [unit.claim.strip()]
    if unit.quote and unit.quote.strip() not in unit.claim:
        parts.append(unit.quote.strip())
    return "\n\n".join(p for p in parts if p)


def _rule_fields(text: str) -> dict[str, list]:
    """What the paper extractor's rules read from `text` as a one-paragraph paper."""
    try:
        # Numbers of a claim that no known name binds stay unchecked (the judges' scope gate), so
        # settings named only by the claim's own words ("30000 evaluation prompts") are not read here.
        units = rule_units(paper_from_text(text, format="text"), word_named=False)
    except Exception:  # free text is untrusted: a rule that trips on it contributes nothing
        units = []
    return {
        "params": [p for u in units for p in u.params],
        "entities": list(dict.fromkeys(e for u in units for e in u.entities)),
        "order": next((u.order for u in units if len(u.order) >= 2), []),
        "hints": list(dict.fromkeys(h for u in units for h in u.hints)),
    }


def _restated(p: Param, written: list[Param]) -> bool:
    """The prose rules' reading of a value that a written setting states under a key holding the same
    words (`layers: diff_head1_layers=6` read as `num_layers = 6` too): one setting, named by its key."""
    words = _squash(p.surface or "")
    return bool(words) and any(w.value is not None and w.value == p.value and words in _squash(w.surface or "")
                               for w in written)


def _squash(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.lower())


def _merge_params(*groups: list[Param]) -> list[Param]:
    seen: dict[tuple, Param] = {}
    for group in groups:
        for p in group:
            key = (p.name, p.value, tuple(p.values), p.condition)
            seen.setdefault(key, p)
    return list(seen.values())


