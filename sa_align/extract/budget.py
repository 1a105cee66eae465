"""The unit budget: pack, deduplicate and keep the most checkable, most central units of a paper.

1. Numerical units quoting the same sentence or table row become one unit carrying all its
   parameters (as a reviewer would state "lr 3e-4, batch 256, 100 epochs" once).
2. Near-duplicates are dropped: numerical units stating exactly the params of an earlier one,
   method units whose claims share most of their words with an earlier one.
3. Each unit gets a score: its kind's worth, more parameters, a method unit's math hints, its
   section (method, training, setup and hyperparameter sections count more; introduction,
   related work, results and ablations less) and its attribution (cited claims count less).
4. The best `max_units` are kept, in paper order, each kind within its share of the budget
   (`kind_share`; numerical units take any share); what was cut is reported.

Weights and section words live in `units/extract/cues.yaml` (`budget`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from sa_align.extract.text import bare_title, cue_regex, cues, word_regex
from sa_align.models import Attribution, Unit, UnitKind
from sa_align.numbers import values_equal

DEFAULT_MAX_UNITS = 80
"""Units kept per paper unless the configuration says otherwise."""

_WORD = re.compile(r"[a-z0-9]+")


@dataclass
class Budgeted:
    """The units kept and what the budget did."""

    units: list[Unit]
    notes: list[str] = field(default_factory=list)


@lru_cache(maxsize=1)
def _conf() -> dict:
    return cues().get("budget", {})


@lru_cache(maxsize=2)
def _section_words(key: str) -> re.Pattern[str]:
    return word_regex(tuple(str(w) for w in _conf().get(key, [])))


def pack(units: list[Unit]) -> list[Unit]:
    """Numerical units with the same span and attribution become one unit carrying all their params."""
    out: list[Unit] = []
    by_span: dict[tuple, int] = {}
    for u in units:
        key = (u.span.start, u.span.end, u.attribution, u.cited_ref) if u.span else None
        if u.kind != UnitKind.NUMERICAL or key is None or key not in by_span:
            if u.kind == UnitKind.NUMERICAL and key is not None:
                by_span[key] = len(out)
            out.append(u)
            continue
        first = out[by_span[key]]
        params = [*first.params, *(p for p in u.params if not any(_same_param(p, q) for q in first.params))]
        claim = first.claim if u.claim in first.claim else f"{first.claim.rstrip('.')}; {u.claim}"
        hints = list(dict.fromkeys([*first.hints, *u.hints]))[:16]
        out[by_span[key]] = first.model_copy(update={"params": params, "claim": claim, "hints": hints})
    return out


def _same_param(p, q) -> bool:
    vp = [p.value] if p.value is not None else list(p.values)
    vq = [q.value] if q.value is not None else list(q.values)
    return p.name == q.name and len(vp) == len(vq) and all(values_equal(a, b) for a, b in zip(vp, vq))


def _dedupe(units: list[Unit]) -> tuple[list[Unit], int]:
    kept: list[Unit] = []
    seen_params: list[Unit] = []
    seen_words: list[set[str]] = []
    limit = float(_conf().get("duplicate_overlap", 0.8))
    for u in units:
        if u.kind == UnitKind.NUMERICAL and u.params:
            if any(len(v.params) >= len(u.params) and all(any(_same_param(p, q) for q in v.params) for p in u.params) for v in seen_params):
                continue
            seen_params.append(u)
        elif u.kind == UnitKind.METHOD:
            words = set(_WORD.findall(u.claim.lower()))
            if any(len(words & w) >= limit * max(1, min(len(words), len(w))) for w in seen_words):
                continue
            seen_words.append(words)
        kept.append(u)
    return kept, len(units) - len(kept)


def score(u: Unit) -> float:
    """How checkable and central `u` is (see the module docstring)."""
    conf = _conf()
    s = float(conf.get("kind_weight", {}).get(str(u.kind), 1.0))
    s += float(conf.get("per_param", 0.3)) * max(0, len(u.params) - 1)
    s += float(conf.get("per_entity", 0.2)) * max(0, len(u.entities) - 1)
    if u.kind == UnitKind.METHOD and u.hints:
        s += float(conf.get("method_hint_bonus", 0.5))
    title = bare_title(u.section)
    if title and _section_words("central_sections").search(title):
        s += float(conf.get("central_bonus", 1.0))
    elif title and _section_words("peripheral_sections").search(title):
        s -= float(conf.get("peripheral_penalty", 1.5))
    if u.attribution == Attribution.CITED:
        s -= float(conf.get("cited_penalty", 1.0))
    return s


def aside(u: Unit) -> bool:
    """Whether a method or ordering unit stands in a section that describes the field or reports outcomes
    (`peripheral_sections`, `voice_sections`: introduction, background, results, ablations) without speaking
    in the paper's own voice: the budget takes every other unit first. Settings and protocol units keep their
    score there (a results section states run lengths; what was compared is still protocol)."""
    if u.kind not in (UnitKind.METHOD, UnitKind.ORDERING):
        return False
    title = bare_title(u.section)
    if not title or not (_section_words("peripheral_sections").search(title) or title in _voice_titles()):
        return False
    return not cue_regex("own_voice").search(u.quote)


@lru_cache(maxsize=1)
def _voice_titles() -> frozenset[str]:
    return frozenset(str(t).lower() for t in cues().get("voice_sections", []))


NOTE_PREFIX = "unit budget:"
"""How every note of the budget starts, so the pipeline can report them as flags rather than errors."""


def apply_budget(units: list[Unit], max_units: int | None = DEFAULT_MAX_UNITS) -> Budgeted:
    """Pack, deduplicate and keep the best `max_units` of `units` (all of them when `None`), in paper order."""
    ordered = sorted(units, key=lambda u: (u.span.start if u.span else -1, u.span.end if u.span else -1))
    packed, dropped = _dedupe(pack(ordered))
    notes = [f"{NOTE_PREFIX} merged {dropped} near-duplicate units"] if dropped else []
    if max_units is None:
        return Budgeted(packed, notes)
    keep = _choose(packed, max_units)
    if len(keep) < len(packed):
        cut = Counter(str(u.kind) for i, u in enumerate(packed) if i not in keep)
        detail = ", ".join(f"{n} {k}" for k, n in sorted(cut.items(), key=lambda kv: (-kv[1], kv[0])))
        notes.append(f"{NOTE_PREFIX} kept {len(keep)} of {len(packed)} units; cut: {detail}")
    return Budgeted([u for i, u in enumerate(packed) if i in keep], notes)


def _choose(units: list[Unit], max_units: int) -> set[int]:
    """Indices of the best-scoring units, at most `max_units`, each kind within its share of the budget;
    a protocol unit naming only entities already kept gives its slot to one naming new ones. Kinds
    with a floor (`kind_floor`) first get that many of their best units, so many strong settings
    never crowd the protocol out."""
    shares = {str(k): float(v) for k, v in _conf().get("kind_share", {}).items()}
    room = {k: max(1, int(v * max_units)) for k, v in shares.items()}
    order = sorted(range(len(units)), key=lambda i: (aside(units[i]), -score(units[i]), i))
    keep: set[int] = set()
    named: set[str] = set()

    def take(i: int) -> bool:
        u, kind = units[i], str(units[i].kind)
        if i in keep or len(keep) >= max_units or room.get(kind, 1) == 0:
            return False
        if u.kind == UnitKind.PROTOCOL and u.entities and not u.params and set(u.entities) <= named:
            return False
        if kind in room:
            room[kind] -= 1
        named.update(u.entities)
        keep.add(i)
        return True

    for kind, share in _conf().get("kind_floor", {}).items():
        wanted = int(float(share) * max_units)
        for i in order:
            if wanted <= 0:
                break
            wanted -= str(units[i].kind) == str(kind) and take(i)
    for i in order:
        take(i)
    return keep
