"""Count settings named by the words after the number: "18 hidden dimensions", "4 Fourier blocks".

The alias table knows the common parameter names; papers also state counts of things only they
name ("10 initial time steps", "25 training trajectories"). A number directly followed by up to
three words that end in a count noun (`counts.nouns` in `units/extract/cues.yaml`) becomes a
param named by those words (through the alias table when it knows them), in sentences that state
a setting rather than a result. Numbers another rule already bound are left alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sa_align.aliases import canonical_param
from sa_align.extract.numerical import is_result_sentence
from sa_align.extract.text import Sentence, cue_regex, cues, word_regex
from sa_align.models import Param
from sa_align.numbers import find_quantities

_AFTER = re.compile(r"[ \t]*((?:[A-Za-z][A-Za-z\-]*[ \t]+){0,3}?)([A-Za-z]+)\b")
_MAX_COUNT = 1e7
_BEFORE = re.compile(r"(?:\b(?:the|these|those|first|last|about|approximately|roughly|nearly|around|over|every|each|after|within)|~|≈)\s*$", re.I)
"""A number after these is a reference to a quantity (`the 45k images`, `about 164 epochs`), not a setting."""


@lru_cache(maxsize=1)
def _conf() -> dict:
    return cues().get("counts", {})


@lru_cache(maxsize=1)
def _nouns() -> frozenset[str]:
    return frozenset(str(n).split()[-1].lower() for n in _conf().get("nouns", []))


@lru_cache(maxsize=1)
def _stop() -> frozenset[str]:
    return frozenset(str(w).lower() for w in _conf().get("stop_words", []))


def count_params(text: str, sent: Sentence, taken: list[tuple[int, int]]) -> list[tuple[int, Param]]:
    """`(offset, Param)` for each count setting of `sent` not inside an already bound span in `taken`."""
    if is_result_sentence(sent.text):
        return []
    cue = word_regex(tuple(str(w) for w in _conf().get("cues", [])))
    if not (cue.search(sent.text) or cue_regex("numerical", "setting_cues").search(sent.text)):
        return []
    out = []
    for s, e, q in find_quantities(text, sent.start, sent.end):
        if any(a <= s < b for a, b in taken) or q.percent or not q.integral or not 2 < q.value <= _MAX_COUNT:
            continue
        if text[s - 1 : s] in "-/.×x^_{" or text[e : e + 1] in "-/×x%" or _BEFORE.search(text, max(0, s - 16), s):
            continue  # part of a name, a ratio or a shape (`ViT-B/16`, `3x3`)
        name = _noun_phrase(text, e, sent.end)
        if name:
            out.append((s, Param(name=canonical_param(name) or name.replace(" ", "_").lower(), surface=name,
                                 value=q.scalar(), text=q.text)))  # fmt: skip
    return out


def _noun_phrase(text: str, end: int, limit: int) -> str | None:
    m = _AFTER.match(text, end, limit)
    if not m or m.group(2).lower() not in _nouns():
        return None
    words = [*m.group(1).split(), m.group(2)]
    if any(w.lower() in _stop() for w in words):
        words = words[max(i for i, w in enumerate(words) if w.lower() in _stop()) + 1 :]
    return " ".join(words) if words else None
