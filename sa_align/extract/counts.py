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

from sa_align.aliases import canonical_param, find_entities
from sa_align.extract.numerical import PROTOCOL_PARAMS, foreign_unit_after
from sa_align.extract.spaced import math_quantities, quantities_joined, with_spaced
from sa_align.extract.text import Sentence, cue_regex, cues, is_result_sentence, is_statistics, math_spans, reference_words, word_regex
from sa_align.models import Param
from sa_align.numbers import find_quantities

_SYMBOL_BEFORE = re.compile(
    r"(?<![\\\w])(\\?[A-Za-z]+(?:\s*_\s*(?:\{(?:[^{}$]|\{[^{}$]{0,16}\}){1,30}\}|\\?\w+))?)[\s~]*(?:=|\\coloneqq|:=)[\s~]*\$?\s*\$?[\s~]*$"
)
_VALUE_END = re.compile(r"[\s~]*(?:\$|,|;|\.(?!\d)|\)|\\[,;]|\\q?quad|\\text|$)|[ \t]+(?:[A-Za-z]{2}|[A-Za-z](?![ \t]*[/*^_+\-=($}]))")
"""What may follow a symbol's value: the end of the math or of a clause or a word, not an operator
(`\\alpha_t = 1 - \\beta_t`) nor a factor (`N = 2 T / K`)."""
_MORE_VALUES = re.compile(r"[\s~]*,[\s~]*\d")
"""`$N = 2 , 3 , 4$`: the first of the values a symbol ranges over, not its setting."""
_SYMBOL = r"(\\?[A-Za-z]+(?:\s*_\s*(?:\{(?:[^{}$]|\{[^{}$]{0,16}\}){1,30}\}|\\?\w+))?)"
_UNIFORM = re.compile(
    rf"(?<![\\\w]){_SYMBOL}[\s~]*\\sim[\s~$]*(?:\\mathcal\s*\{{\s*U\s*\}}|\\mathcal\s*U|U|\\mathrm\s*\{{\s*U\s*\}})\s*\("
)
"""`x \\sim U (`: a symbol drawn from a uniform distribution (the converter may close the math before `U`)."""
_TAGGED = re.compile(r"(?<![\w\-])([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)[ \t]?\(([-+\d.,\s eEkKMB%]{1,30})\)")
_LATEX_CMD = re.compile(r"\\(?:mathrm|text|mathit|operatorname|mathbf|rm)\s*")
_WORD_OR_SIGN = re.compile(r"[A-Za-z][A-Za-z\-]*|[=:$]|[^\sA-Za-z=:$]+")
_WORDS_AFTER = re.compile(r"(?:[ \t]+[A-Za-z][A-Za-z\-]*){1,4}")
_MAX_COUNT = 1e7
_BEFORE = re.compile(r"(?:\b(?:the|these|those|first|last|about|approximately|roughly|nearly|around|over|every|each|after|within)|(?<!=)(?<!= )~|≈)\s*$", re.I)
"""A number after these is a reference to a quantity (`the 45k images`, `about 164 epochs`), not a setting
(`~` after `=` is a converter's math spacing, not "about")."""


@lru_cache(maxsize=1)
def _conf() -> dict:
    return cues().get("counts", {})


@lru_cache(maxsize=1)
def _nouns() -> frozenset[str]:
    return frozenset(str(n).split()[-1].lower() for n in _conf().get("nouns", []))


@lru_cache(maxsize=1)
def _block() -> frozenset[str]:
    return frozenset(str(w).lower() for w in _conf().get("block_words", []))


@lru_cache(maxsize=1)
def _stop() -> frozenset[str]:
    return frozenset(str(w).lower() for w in _conf().get("stop_words", []))


def count_params(text: str, sent: Sentence, taken: list[tuple[int, int]], bound: set[str] = frozenset()) -> list[tuple[int, Param]]:
    """`(offset, Param)` for each count or head-noun setting of `sent` not inside an already bound span
    in `taken` and not named like a parameter the sentence already binds (`bound`)."""
    if is_result_sentence(sent.text):
        return []
    cue = word_regex(tuple(str(w) for w in _conf().get("cues", [])))
    counts_ok = bool(cue.search(sent.text) or cue_regex("numerical", "setting_cues").search(sent.text))
    out: list[tuple[int, Param]] = []
    for s, e, q in with_spaced(find_quantities(text, sent.start, sent.end), math_quantities(text, sent.start, sent.end)):
        if any(a <= s < b for a, b in taken) or q.percent or foreign_unit_after(text, e):
            continue
        if text[s - 1 : s] in "-/.×x^_{" or text[e : e + 1] in "-/×x%" or _BEFORE.search(text, max(0, s - 16), s):
            continue  # part of a name, a ratio or a shape (`ViT-B/16`, `3x3`)
        assigned = _VALUE_END.match(text, e) and not _MORE_VALUES.match(text, e)
        sym = _symbol(text, max(sent.start, s - 40), s) if assigned else None
        # `$D = 3$ ConvLSTM layers`: an assigned symbol states a setting; the words after it name it.
        counted = (counts_ok or sym is not None) and q.integral and q.value > 2
        name = _noun_phrase(text, e + (text[e : e + 1] == "$"), sent.end, q.value) if counted else None
        surface = sym if name and sym else name
        # A subscripted symbol (`\\sigma _ { v }`) names one constant, and so does a capital the paper
        # defines as a count (`over $K$ rounds`); any other bare one needs a setting cue.
        named = sym is not None and (counts_ok or "_" in sym or sym in defined_counts(text))
        name = name or _head_phrase(text, max(sent.start, s - 60), s) or (sym if named else None)
        if name and not surface:
            surface = name
        canon = _canon(name, sent.text) if name else None
        if canon and canon not in bound and canon not in PROTOCOL_PARAMS:
            out.append((s, Param(name=canon, surface=surface, value=q.scalar(), text=q.text)))
    out += distributions(text, sent) + tagged_values(text, sent)
    # Checked last: naming a dataset's statistics is rarer than having no count at all, and dearer to test.
    return [] if out and is_statistics(text, sent) else out


@lru_cache(maxsize=4)
def defined_counts(text: str) -> frozenset[str]:
    """Capitals the paper writes as a count (`over $K$ rounds`, `the number of segments $S$`,
    `$N$ denotes the number of processors`): the paper's own names of count settings."""
    found: set[str] = set()
    for pattern in _definitions():
        found.update(m.group(1) for m in pattern.finditer(text))
    return frozenset(found)


@lru_cache(maxsize=1)
def _definitions() -> tuple[re.Pattern, ...]:
    nouns = "|".join(re.escape(n) for n in sorted(_nouns() | _symbol_nouns(), key=len, reverse=True))
    word = r"(?:[A-Za-z][A-Za-z\-]*\s+)"
    sym = r"\$\s*([A-Z])\s*\$"  # case-sensitive: a lower-case letter is an index (`$k$ steps back`)
    return (
        re.compile(rf"{sym}\s+{word}{{0,2}}?(?i:{nouns})\b"),
        re.compile(rf"\b(?i:number\s+of)\s+{word}{{0,3}}?{sym}"),
        re.compile(rf"{sym}\s*(?i:denotes?|is|be|as)\s+(?i:the\s+(?:total\s+)?number\s+of)\b"),
    )


@lru_cache(maxsize=1)
def _symbol_nouns() -> frozenset[str]:
    return frozenset(str(n).lower() for n in _conf().get("symbol_nouns", []))


def _canon(name: str, context: str | None = None) -> str:
    """The canonical name, an ambiguous symbol read in its sentence (`β_1` of a DDPM schedule is its start)."""
    return canonical_param(name, context) or name.replace(" ", "_").replace("-", "_").lower()


def distributions(text: str, sent: Sentence) -> list[tuple[int, Param]]:
    """`$a _ { 1 } \\sim U ( 0 , 2 )$`: a symbol drawn uniformly from an interval, as a range param."""
    out = []
    for m in _UNIFORM.finditer(text, sent.start, sent.end):
        sym = _symbol_name(m.group(1))
        close = text.find(")", m.end(), min(sent.end, m.end() + 60))
        values = [q for _, _, q in quantities_joined(text[m.end() : close])] if close > 0 else []
        if sym and len(values) == 2:
            lo, hi = (q.scalar() for q in values)
            out.append((m.start(), Param(name=_canon(sym, sent.text), surface=sym, values=[lo, hi], shape="range",
                                         text=text[m.end() - 1 : close + 1])))  # fmt: skip
    return out


def tagged_values(text: str, sent: Sentence) -> list[tuple[int, Param]]:
    """`NS (1e-5)`, `CNS(0.1, 0.01)`, `Poseidon-B (158M)`: a dataset or model name (two capitals at
    least) written with its setting or size in parentheses right after it. A lone integer is an
    equation, item or year number (`ODE (5)`, `Smith (2020)`), not a setting."""
    out = []
    math = [(sent.start + a, sent.start + b) for a, b in math_spans(sent.text)]
    for m in _TAGGED.finditer(text, sent.start, sent.end):
        name = m.group(1)
        if any(a <= m.start() < b for a, b in math):
            continue  # `U ( 0 , 2 )`, `f ( 3 )` in math are functions applied, not names with their settings
        values = [q for _, _, q in find_quantities(m.group(2))]
        if not values or sum(c.isupper() for c in name) < 2 or name.lower() in reference_words():
            continue  # `Inserting (28)`, `Scheme (26208924)`: a word, not the name of a dataset or model
        if len(values) == 1 and values[0].text.isdigit():
            continue  # `ODE (5)`, `ICLR (2024)`: an equation, item or year number
        if any(e.target[0] == "metric" for e in find_entities(name)):
            continue  # `IS (265.1)`: a result
        vals = [q.value if q.percent else q.scalar() for q in values]
        shape = {"value": vals[0]} if len(vals) == 1 else {"values": vals, "shape": "sequence"}
        out.append((m.start(), Param(name=_canon(name), surface=name, text=m.group(2).strip(), **shape)))
    return out


def _symbol(text: str, start: int, end: int) -> str | None:
    """`\\beta _ { T } =` or `P_{max} =` right before a number: the symbol as a name (`beta_T`)."""
    m = _SYMBOL_BEFORE.search(text, start, end)
    return _symbol_name(m.group(1)) if m else None


def _symbol_name(raw: str) -> str | None:
    sym = _LATEX_CMD.sub("", raw)
    sym = re.sub(r"[\s{}\\]", "", sym).strip("_")
    # One lower-case letter is an index or a loop variable (`n = 3`, `k = 5`), not a named setting;
    # one capital (`N = 100` steps, `T = 1000`) names a count or a horizon.
    return sym if (len(sym) > 1 or sym.isupper()) and not sym.isdigit() else None


@lru_cache(maxsize=1)
def _heads() -> frozenset[str]:
    return frozenset(str(n).lower() for n in _conf().get("heads", []))


def _head_phrase(text: str, start: int, end: int) -> str | None:
    """`codebook size of` before a number: the head noun and up to two words before it, filler after it."""
    words = _WORD_OR_SIGN.findall(text, start, end)
    filler = _filler_words()
    heads = _heads()
    while words and (words[-1] in "=:$" or words[-1].lower() in filler) and words[-1].lower() not in heads:
        words.pop()
    if not words or words[-1].lower() not in heads or len(_WORD_OR_SIGN.findall(text, start, end)) - len(words) > 4:
        return None
    phrase = words[-3:]
    cut = [i for i, w in enumerate(phrase[:-1]) if not w[0].isalpha() or w.lower() in _stop() or w.lower() in filler]
    if cut:
        phrase = phrase[cut[-1] + 1 :]
    return " ".join(phrase) if len(phrase) >= 2 else None


@lru_cache(maxsize=1)
def _filler_words() -> frozenset[str]:
    return frozenset(str(w).lower() for w in cues().get("numerical", {}).get("filler", []))


@lru_cache(maxsize=1)
def _length_nouns() -> frozenset[str]:
    return frozenset(str(n).lower() for n in _conf().get("length_nouns", []))


def _noun_phrase(text: str, end: int, limit: int, value: float) -> str | None:
    """The words after a number up to the first count noun among the next four, stop words cut off.
    Counts above `_MAX_COUNT` are sizes of data, except training lengths (`250 million transitions`)."""
    words = _WORDS_AFTER.match(text, end, limit)
    if not words:
        return None
    seq = words.group(0).split()
    nouns = _nouns()
    hit = next((i for i, w in enumerate(seq[:4]) if w.lower() in nouns), None)
    if hit is None or (value > _MAX_COUNT and seq[hit].lower() not in _length_nouns()):
        return None
    phrase = seq[: hit + 1]
    if any(w.lower() in _block() for w in phrase):
        return None
    stops = [i for i, w in enumerate(phrase) if w.lower() in _stop()]
    if stops:
        phrase = phrase[stops[-1] + 1 :]
    return " ".join(phrase) if phrase else None
