"""Settings and steps written in the notations free-text claims use, read without the paper's prose rules.

`units/extract/derive.yaml` names the notations: `key=value` settings, lists of values
(`lr ∈ {1e-4, 3e-5}` a set, `num_blocks=[3,5,7]` a sequence, `mu ∈ [0.3, 0.7]` a range),
a value per named preset (`24 (B) / 32 (L)`), settings in a heading (`Optimizer: lr 2e-5`),
arrow chains and numbered steps, identifier-shaped words as hints. Used by the completion
of free-text units (`extract.derive`) and by the table reader (`extract.tables`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from sa_align.aliases import ascii_name, canonical_param, computed, find_param_mentions
from sa_align.extract.text import reference_words
from sa_align.models import Param
from sa_align.numbers import parse_number, parse_quantity
from sa_align.resources import load_yaml

_VALUE = r"[-+\u2212]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d[\d_]*\.?\d*|\.\d+)(?:\s*[eE][-+\u2212]?\d+|\s*[x×]\s*10\^?\{?[-\u2212]?\d+\}?)?%?[kKM]?"
_TUPLE = rf"\(\s*{_VALUE}(?:\s*,\s*{_VALUE})+\s*\)"
_KEY = r"[A-Za-z\u0370-\u03ff][\w\u0370-\u03ff.\-]*"
_LIST = rf"[\[{{]\s*{_VALUE}(?:\s*,\s*{_VALUE})*\s*[\]}}]"
_UNIFORM = rf"(?:Uniform|Unif|U)\s*[\[(]\s*{_VALUE}\s*,\s*{_VALUE}\s*[\])]"
_TAG = r"\(\s*([A-Za-z][\w\- ]{0,23}?)\s*\)"
_TAGGED_REST = re.compile(rf"\s*{_TAG}(?:\s*/\s*{_VALUE}\s*{_TAG})+")
"""After a value, ` (B) / 8 (L) / 12 (H)`: the rest of a list of values, one per named preset."""
_TAGGED_ITEM = re.compile(rf"({_VALUE})\s*{_TAG}")
_IDENT_HINT = re.compile(r"\b(?:[a-z]+(?:_[a-z0-9]+)+|[a-z]+[A-Z]\w*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+)\b")


@lru_cache(maxsize=1)
def _tables() -> dict[str, Any]:
    return load_yaml("extract/derive.yaml")


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _assignment_re() -> re.Pattern[str]:
    table = _tables()["assignment"]
    seps = _alternatives(table["separators"])
    joins = _alternatives(table["list_joiners"]["interval"] + table["list_joiners"]["search"])
    # A scalar or tuple follows `=` or `:`, but not a fraction or a pair (`Gamma=5/3`, `SWE=900/60` as
    # train/test sizes: which part is the setting is not written); a bracketed list may also follow a joining word
    # (`lr ∈ {1e-4, 3e-5}`, `scale_factor range [0.01, 0.1, 1]`, `r ~ Uniform[0.7, 1.0]`).
    return re.compile(
        rf"(?<![\w.])(?P<key>{_KEY})\s*(?:(?P<sep>{seps})\s*(?P<value>{_TUPLE}|{_VALUE})(?!\w|\.\w|\s*/\s*\d)"
        rf"|(?P<join>{seps}|(?<=\s)(?:{joins})(?=[\s\[{{U])|(?:{joins})(?=\s*[\[{{]))\s*(?:{seps})?\s*(?P<list>{_LIST}|{_UNIFORM}))"
    )


def _written_param(name: str, surface: str, raw: str, join: str | None, text: str) -> Param | None:
    """The param a value written after a name states: one number, a tuple (a sequence), or a
    bracketed list, which braces or a search word (`tested`) make a set of values, an interval
    word (`in`, `range`, `from`, `~`) a range of two values or a set of more, and `=` or `:` a
    sequence. `None` when an item is not a number."""
    inner = re.sub(r"^[A-Za-z]*\s*[\[({]|[\])}]$", "", raw)
    items = [parse_quantity(v) for v in inner.split(",")] if inner != raw else [parse_quantity(raw)]
    if not items or None in items:
        return None
    values = [q.scalar() for q in items]
    if len(values) == 1:
        return Param(name=name, surface=surface, value=values[0], text=text)
    if computed(name):
        return None  # `param range [82K, 599K]`: what the methods came to, not a setting
    joiners = _tables()["assignment"]["list_joiners"]
    if raw.startswith("{") or join in joiners["search"]:
        shape = "set"
    elif join in joiners["interval"] or raw[:1].isalpha():
        shape = "range" if len(values) == 2 else "set"
    else:
        shape = "sequence"
    return Param(name=name, surface=surface, values=values, shape=shape, text=text)


def assignment_params(text: str, known: list[Param] = ()) -> list[Param]:
    """`lr=2e-5`, `H_Enc=5`, `betas=(0.9, 0.999)`, `lr ∈ {1e-4, 3e-5}`: settings written as code in the claim.

    A key the rules already bound (`weight decay=1e-4` read as `weight_decay`) is not
    read again as its last word (`decay`).
    """
    out = []
    for m in _assignment_re().finditer(text):
        key = _qualified(text, m.start(), m.group("key").strip(".-"))
        canon = canonical_param(key)
        raw = m.group("value") or m.group("list")
        if not _named(key, canon, m.group("sep") or "") or _after_reference(text, m.start()):
            continue
        name = canon or ascii_name(key)
        if m.group("value") and (rest := _TAGGED_REST.match(text, m.end())):
            out.extend(_tagged_params(name, key, text[m.start("value"):rest.end()]))
            continue
        if _already(key, raw, known):
            continue
        param = _written_param(name, key, raw, m.group("join") or m.group("sep"), raw)
        if param is not None:
            out.append(param)
    return out


def _tagged_params(name: str, surface: str, written: str) -> list[Param]:
    """`n_layers=24 (B) / 32 (L) / 40 (H)`: one setting per named preset, each value under its preset's
    name (`Param.condition`), so a repository holding only one preset states only one of them."""
    out = []
    for value, tag in _TAGGED_ITEM.findall(written):
        q = parse_quantity(value)
        if q is not None:
            out.append(Param(name=name, surface=surface, value=q.scalar(), text=value, condition=tag))
    return out


_LEADING_WORDS = re.compile(r"(?:([A-Za-z][\w-]*) )?([A-Za-z][\w-]*) $")


def _qualified(text: str, start: int, key: str) -> str:
    """The key with the words before it when together they name a known setting: `FFN dim=1024` sets
    the feed-forward size, not the `dim` (hidden size) the key alone would name; `min LR=4e-5` the
    minimum learning rate."""
    lead = _LEADING_WORDS.search(text[max(0, start - 48):start])
    if lead is None:
        return key
    for words in ((lead.group(1), lead.group(2)), (lead.group(2),)):
        phrase = " ".join([*(w for w in words if w), key])
        if canonical_param(phrase) is not None:
            return phrase
    return key


_HEADING = re.compile(
    rf"(?P<phrase>[^:;\n]{{3,120}}):\s*(?:(?P<value>{_VALUE})(?:\s*[x×]\s*(?P=value))?"
    rf"|(?P<join>[A-Za-z]+\s+)?(?P<list>{_LIST}))\s*(?=$|[;,.(\n])"
)


def heading_params(text: str) -> list[Param]:
    """`Training iterations for Experiment C.3: 3000`, `image size for phase 1: 128x128`: a claim that
    names one setting in a heading and gives its value, or the values tried, after the colon."""
    out = []
    for m in _HEADING.finditer(text):
        phrase = re.sub(r"\([^()]*\)", " ", m.group("phrase"))
        mentions = [k for k in find_param_mentions(phrase) if not _after_reference(phrase, k.start)]
        if not mentions or not isinstance(mentions[-1].target, str):
            continue
        raw, written = m.group("value") or m.group("list"), m.group(0).split(":", 1)[1].strip()
        param = _written_param(mentions[-1].target, mentions[-1].surface, raw, (m.group("join") or ":").strip(), written)
        if param is not None:
            out.append(param)
    return out


def _named(key: str, canon: str | None, sep: str) -> bool:
    """Whether `key` names a parameter: known to the alias tables, or shaped like code, or set with `=`
    (`sep`, empty when a word such as `range` joins the key to its values).

    Capitals and digits alone before a colon (`UCF101: 2048 samples`, `GPT4: 8k`) name a dataset
    or a model, not a setting."""
    table = _tables()["assignment"]
    if key.lower() in table["not_names"]:
        return False
    if canon is not None:
        return True
    if sep != "=" and re.fullmatch(r"[A-Z\d\-]+", key):
        return False
    code_like = bool(re.search(r"[_\d\u0370-\u03ff]|[a-z][A-Z]", key))
    return len(key) >= table["min_unknown_length"] and (code_like or sep == "=")


def _after_reference(text: str, start: int) -> bool:
    """Whether the word before `start` is a reference word: `Experiment C.1`, `Table A2` label, not set."""
    before = re.search(r"([A-Za-z]+)\.?\s*$", text[max(0, start - 40) : start])
    return bool(before) and before.group(1).lower() in reference_words()


def _already(key: str, raw: str, known) -> bool:
    value = parse_number(raw) if raw[:1] not in "([{" else None
    return any(p.value is not None and value is not None and abs(float(p.value) - value) <= 1e-12 * max(1.0, abs(value))
               and p.surface and key.lower() in p.surface.lower() for p in known)


def text_steps(text: str) -> list[str]:
    """Steps of an arrow chain (`a -> b -> c`) or of a numbered list (`(1) a (2) b`)."""
    table = _tables()["order"]
    limit = table["max_step_chars"]
    arrows = "|".join(re.escape(a) for a in sorted(table["arrows"], key=len, reverse=True))
    marks = list(re.finditer(table["numbered"], text))
    if len(marks) >= 2:
        # Numbered steps are the clearest boundaries; arrows between them are only joints.
        bounds = [m.start() for m in marks] + [len(text)]
        parts = [_step(re.sub(arrows, " ", text[marks[i].end():bounds[i + 1]]), limit) for i in range(len(marks))]
    else:
        parts = [_step(p, limit) for p in re.split(arrows, text)]
        if parts and ":" in parts[0]:
            parts[0] = _step(parts[0].rsplit(":", 1)[1], limit)  # "Pipeline: a -> b": the title is no step
    parts = [p for p in parts if p]
    return parts[: table["max_steps"]] if len(parts) >= 2 else []


def _step(raw: str, limit: int) -> str:
    return " ".join(raw.strip(" ;,.:").split())[:limit]


def identifier_hints(text: str) -> list[str]:
    """Words of the claim shaped like code identifiers (`weight_decay`, `numHeads`, `nn.GELU`)."""
    return list(dict.fromkeys(m.group(0) for m in _IDENT_HINT.finditer(text)))
