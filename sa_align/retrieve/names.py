"""Signals that survive an emptied body: hinted names and function signatures.

A function whose body became `pass` keeps its name, parameters and docstring.
Ranking by body text alone loses it (the words that matched are gone), so two
signals look only at what a definition declares:

- `name`: the unit's hints that spell a function or class name exactly
  (`normalizer` -> `def normalizer`), or one of its parameter names; for an
  ordering unit, whose hints name its steps, the functions calling several
  hinted names instead (the place the steps are put in order);
- `signature`: BM25 over each definition's name, qualified name, parameter
  names and docstring.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sa_align.models import Unit
from sa_align.retrieve.chunks import Chunk
from sa_align.retrieve.text import tokenize

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MIN_HINT_CHARS = 3
NAME_HIT = 2.0
"""Credit for a hint that is the definition's own name."""
METHOD_HIT = 1.2
"""Credit for a method of a class the hint names (a small class is implemented in its methods)."""
MAX_CLASS_METHODS = 6
PARAM_HIT = 0.5
"""Credit for a hint that is one of its parameter names (a signature the hint describes)."""


def name_key(name: str) -> str:
    """Case- and underscore-insensitive form of an identifier (`Focal_Loss` -> `focalloss`)."""
    return name.replace("_", "").lower()


def hint_names(unit: Unit) -> list[str]:
    """Identifier keys the unit's hints spell: the last segment of a dotted name (`nn.GroupNorm` -> `groupnorm`)."""
    out: list[str] = []
    for hint in unit.hints:
        idents = _IDENT.findall(hint)
        if len(idents) != 1 and not re.fullmatch(r"[\w.]+", hint.strip()):
            continue  # an expression (`epoch + i`), not a name
        if not idents:
            continue
        key = name_key(idents[-1])
        if len(key) >= MIN_HINT_CHARS and key not in out:
            out.append(key)
    return out


@dataclass
class DefinitionIndex:
    """What each definition chunk declares, for the `name` and `signature` signals."""

    by_name: dict[str, list[int]]
    """Name key -> chunk ids of definitions with that name."""
    by_param: dict[str, list[int]]
    """Parameter name key -> chunk ids of functions taking it."""
    signature_ids: list[int]
    """Chunk ids in the order of `signature_docs`."""
    signature_docs: list[list[str]]
    """Tokens of each definition's name, qualified name, parameters and docstring."""
    methods: dict[str, list[int]] = field(default_factory=dict)
    """Class name key -> chunk ids of its methods (a hinted class is implemented in them)."""


def build_definitions(chunks: list[Chunk]) -> DefinitionIndex:
    """Index the definitions among `chunks` (one entry per symbol: its first chunk)."""
    idx = DefinitionIndex({}, {}, [], [])
    seen: set[str] = set()
    for c in chunks:
        sym = c.symbol
        if sym is None or sym.kind == "module" or sym.id in seen:
            continue
        seen.add(sym.id)
        idx.by_name.setdefault(name_key(sym.name), []).append(c.id)
        if sym.kind == "method" and sym.parent:
            idx.methods.setdefault(name_key(sym.parent.rsplit(".", 1)[-1].split("::")[-1]), []).append(c.id)
        for p in sym.params:
            if p not in ("self", "cls"):
                idx.by_param.setdefault(name_key(p), []).append(c.id)
        text = " ".join([sym.name, sym.qualname, " ".join(sym.params), (sym.docstring or "")[:1000]])
        idx.signature_ids.append(c.id)
        idx.signature_docs.append(tokenize(text))
    return idx


def name_hits(defs: DefinitionIndex, unit: Unit, limit: int) -> list[tuple[int, str]]:
    """Definitions a hint names, best first (own name over parameter name, earlier hints first).

    A name many definitions share (`step`, `update`) says little: its credit is split among them.
    """
    score: dict[int, float] = {}
    why: dict[int, str] = {}
    hints = hint_names(unit)
    for i, key in enumerate(hints):
        order = 1.0 / (1.0 + 0.1 * i)
        owners = defs.by_name.get(key, [])
        for cid in owners:
            score[cid] = score.get(cid, 0.0) + NAME_HIT * order / len(owners)
            why.setdefault(cid, f"name:{key}")
        methods = defs.methods.get(key, []) if len(owners) == 1 else []
        for cid in methods if len(methods) <= MAX_CLASS_METHODS else []:
            score[cid] = score.get(cid, 0.0) + METHOD_HIT * order
            why.setdefault(cid, f"method-of:{key}")
        for cid in defs.by_param.get(key, []):
            score[cid] = score.get(cid, 0.0) + PARAM_HIT * order
            why.setdefault(cid, f"signature-param:{key}")
    # A parameter name alone is common (`x`, `logits`): it ranks only a definition a name also hit.
    ranked = [c for c in sorted(score, key=lambda c: (-score[c], c)) if score[c] >= NAME_HIT * 0.5]
    return [(c, why[c]) for c in ranked[:limit]]


def caller_hits(defs: DefinitionIndex, calls: list[tuple[str, int]], unit: Unit, limit: int) -> list[tuple[int, str]]:
    """Functions that call several hinted names: where a sequence of hinted steps is put together.

    `calls` pairs each call's callee name key with the chunk id of its caller.
    """
    hints = set(hint_names(unit))
    called: dict[int, set[str]] = {}
    for callee, cid in calls:
        if callee in hints:
            called.setdefault(cid, set()).add(callee)
    ranked = sorted((c for c in called if len(called[c]) >= 2), key=lambda c: (-len(called[c]), c))
    return [(c, "calls:" + ",".join(sorted(called[c])[:3])) for c in ranked[:limit]]
