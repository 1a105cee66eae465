"""Mutations of what a line says: a changed numeric value, a swapped dataset or metric name.

A value mutation rewrites the literal that sets a numerical unit's stated value
on each of its gold lines (all of them, so the effective value changes wherever
it is set) to a different value written in the same notation: `3e-4 -> 6e-4`,
`256 -> 128`, `0.999 -> 0.998`. An entity mutation swaps a dataset or metric
name on a protocol unit's gold lines for a sibling from `units/bench/swaps.yaml`
(CIFAR-10 -> CIFAR-100). Both give the target `mismatched`.
"""

from __future__ import annotations

import math
import random
import re
from functools import lru_cache

from sa_align.bench.edits import Draft, Skip, span_lines
from sa_align.bench.syntax import Token, number_tokens, replace_token, semantic_word_tokens
from sa_align.models import Label, Unit, UnitKind
from sa_align.resources import load_yaml


def _literal_value(raw: str) -> float | None:
    try:
        return float(raw.replace("_", ""))
    except ValueError:
        return None


def _stated_values(unit: Unit) -> list[float]:
    return [v for p in unit.params if p.shape in ("scalar", "sequence") for v in p.numbers()]


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)


def new_value(old: float, raw: str, rng: random.Random, avoid: list[float]) -> float:
    """A different value a careless reproduction might plausibly have written."""
    integer = _is_int_literal(raw)
    if integer:
        n = int(old)
        options = [2] if n in (0, 1) else [n * 2, n // 2] if n > 1 else [n * 2]
        options = [float(o) for o in options]
    elif 0.5 < old < 1:
        options = [1 - (1 - old) * 2, 1 - (1 - old) / 2]
    elif old > 0:
        options = [old * 2, old / 2, old * 10, old / 10]
    elif old == 0:
        options = [0.1]
    else:
        options = [old * 2, old / 2]
    options = [o for o in options if not any(_same(o, a) for a in avoid + [old])]
    if not options:
        raise Skip(f"no distinct replacement for {raw}")
    return rng.choice(options)


def _is_int_literal(raw: str) -> bool:
    return re.fullmatch(r"[-+]?\d[\d_]*", raw) is not None


def format_like(raw: str, value: float) -> str:
    """`value` in the notation of `raw` (integer, plain decimal, or scientific with the same mantissa style)."""
    if _is_int_literal(raw):
        return f"{int(value):_}" if "_" in raw else str(int(value))
    if "e" in raw.lower():
        mant, _, exp = f"{value:.6e}".partition("e")
        mant = mant.rstrip("0").rstrip(".")
        if "." in raw.lower().split("e")[0] and "." not in mant:
            mant += ".0"
        e = int(exp)
        sign = "+" if e >= 0 and "+" in raw else ""
        letter = "E" if "E" in raw else "e"
        return f"{mant}{letter}{sign}{e}"
    text = repr(float(f"{value:.12g}"))
    if "e" in text:  # keep a decimal notation where the original used one
        text = f"{value:.12f}".rstrip("0")
    return text


def _matches(case_texts: dict[str, str], unit: Unit, stated: list[float]) -> list[tuple[str, Token, float]]:
    found = []
    for span in unit.gold.spans if unit.gold else []:
        text = case_texts.get(span.path)
        if text is None:
            continue
        for line in sorted(span_lines(span)):
            for tok in number_tokens(span.path, text, line):
                val = _literal_value(tok.text)
                if val is None:
                    continue
                for s in stated:
                    if _same(val, s):
                        found.append((span.path, tok, s))
    return found


def value_draft(unit: Unit, texts: dict[str, str], rng: random.Random, units: list[Unit]) -> Draft:
    """Rewrite the literal(s) that set one of the unit's stated values."""
    stated = _stated_values(unit)
    if not stated:
        raise Skip("no numeric stated value")
    found = _matches(texts, unit, stated)
    if not found:
        raise Skip("no literal on the gold lines equals the stated value")
    target = rng.choice(sorted({s for _, _, s in found}))
    hits = [(p, t) for p, t, s in found if _same(s, target)]
    lines = [(p, t.line) for p, t in hits]
    if len(lines) != len(set(lines)):
        raise Skip(f"the value {target:g} occurs more than once on a gold line")
    new = new_value(target, hits[0][1].text, rng, stated)
    files: dict[str, str] = {}
    details = []
    for path, tok in hits:
        text = files.get(path, texts[path])
        repl = format_like(tok.text, new)
        files[path] = replace_token(text, tok, repl)
        details.append(f"{path}:{tok.line} {tok.text} -> {repl}")
    touched = {(p, t.line) for p, t in hits}
    collateral = {
        u.id: Label.MISMATCHED
        for u in units
        if u.id != unit.id and u.kind in (UnitKind.NUMERICAL, UnitKind.PROTOCOL)
        and any(_same(target, s) for s in _stated_values(u))
        and any((sp.path, ln) in touched for sp in (u.gold.spans if u.gold else []) for ln in span_lines(sp))
    }
    return Draft(
        kind="value", unit_id=unit.id, label=Label.MISMATCHED, files=files,
        target_spans=list(unit.gold.spans) if unit.gold else [], detail="; ".join(details),
        collateral=collateral,
    )


# --------------------------------------------------------------------------- entities


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=1)
def swap_table() -> dict[str, list[tuple[str, str]]]:
    """Normalized name -> (surface, replacement) pairs, from `units/bench/swaps.yaml`."""
    data = load_yaml("bench/swaps.yaml")
    table: dict[str, list[tuple[str, str]]] = {}
    for group in data.get("swaps", {}).values():
        for old, new in group:
            table.setdefault(_norm(old), []).append((old, new))
    return table


def _swap_for(tok: str, entities: set[str]) -> str | None:
    key = _norm(tok)
    if key not in swap_table() or not any(e and (e in key or key in e) for e in entities):
        return None
    # A replacement the unit itself names is no substitution (`cora, citeseer` -> `citeseer, pubmed`).
    pairs = [(old, new) for old, new in swap_table()[key] if _norm(new) not in entities]
    if not pairs:
        return None
    # Prefer the pair spelled like the token (`top-1` -> `top-5`, `top1` -> `top5`).
    repl = next((new for old, new in pairs if old.lower() == tok.lower()), pairs[0][1])
    if tok.islower():
        return repl.lower()
    return repl.upper() if tok.isupper() and len(tok) > 1 else repl


def entity_draft(unit: Unit, texts: dict[str, str], rng: random.Random, units: list[Unit]) -> Draft:
    """Swap a dataset/metric name the unit requires, everywhere on its gold lines, for a sibling name.

    Only names a run uses are swapped (strings, called attributes, config values):
    a renamed variable or docstring would leave the protocol as it was.
    """
    entities = {_norm(e) for e in unit.entities}
    if not entities:
        raise Skip("no entities")
    files: dict[str, str] = {}
    details = []
    for span in unit.gold.spans if unit.gold else []:
        for line in sorted(span_lines(span)):
            text = files.get(span.path, texts.get(span.path))
            if text is None:
                continue
            for tok in reversed(semantic_word_tokens(span.path, text, line)):
                repl = _swap_for(tok.text, entities)
                if repl is not None:
                    text = replace_token(text, tok, repl)
                    details.append(f"{span.path}:{line} {tok.text} -> {repl}")
            files[span.path] = text
    files = {p: t for p, t in files.items() if t != texts.get(p)}
    if not files:
        raise Skip("no swappable dataset or metric name on the gold lines")
    return Draft(
        kind="entity", unit_id=unit.id, label=Label.MISMATCHED, files=files,
        target_spans=list(unit.gold.spans) if unit.gold else [], detail="; ".join(details),
        skip_touched_kinds=frozenset({UnitKind.PROTOCOL}),
    )
