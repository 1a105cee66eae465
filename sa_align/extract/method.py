"""Method units: sentences and equations that define what the paper's method computes.

Offline, these are candidate units: the sentence is the claim, and the identifiers of its
math (`m_t`, `v_hat`, `softmax`) plus named methods become retrieval hints. A sentence that
only assigns numbers to symbols (`$\\eta = 10^{-3}$`) is numerical, not method.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from sa_align.aliases import GREEK_NAMES as _GREEK
from sa_align.aliases import find_entities
from sa_align.extract.spaced import math_quantities, with_spaced
from sa_align.extract.text import Sentence, cue_regex, cues, is_result_sentence, math_spans
from sa_align.numbers import find_quantities

_SUBSCRIPTED = re.compile(r"(?<![A-Za-z\\])([A-Za-z])_\{?\\?([A-Za-z0-9]{1,8})\}?")
_ACCENTED = re.compile(
    r"\\(hat|bar|tilde|overline|widehat)\s*\{?\s*(?:\\(?:mathbf|boldsymbol|bm|mathrm|mathit|mathcal)\s*\{\s*)?\\?([A-Za-z]+)\s*\}?")
"""`\\hat{v}`, `\\bar{\\mathbf{z}}`: an accented symbol, through a font command to the letter it decorates."""
_NAMED = re.compile(r"\\(?:operatorname|mathrm|text|mathit)\s*\{([A-Za-z][A-Za-z_\-]{1,30})\}")
_FUNCS = re.compile(r"\\(log|exp|sqrt|max|min|tanh|sin|cos|softmax|arg\s*max|argmax|argmin|sum|prod|nabla|odot|otimes)\b")
_CODE = re.compile(r"`([A-Za-z_][\w.]{1,40})`")
_NUMERIC_ONLY = re.compile(
    r"^\s*\$*\s*(?:\\?[A-Za-z]+(?:_\{?\w+\}?)?\s*(?:=|\\approx)\s*[-\d.,eE×x^{}\\times\s]+[,;]?\s*)+\$*\s*$"
)
_ACCENT_NAMES = {"hat": "hat", "widehat": "hat", "bar": "bar", "overline": "bar", "tilde": "tilde"}


def _math_in(sent: Sentence, spans: list[tuple[int, int]], ends: list[int]) -> list[str]:
    out = []
    i = bisect.bisect_right(ends, sent.start)  # spans are sorted and disjoint: ends ascend too
    while i < len(spans) and spans[i][0] < sent.end:
        s, e = spans[i]
        out.append(sent.text[max(s, sent.start) - sent.start : min(e, sent.end) - sent.start])
        i += 1
    return out


def is_method_sentence(sent: Sentence, math: list[str]) -> bool:
    """An equation with `=`/`\\leftarrow`, or a method cue, in a sentence that is not only numbers
    and reports no outcome."""
    if math and all(_NUMERIC_ONLY.match(m) for m in math):
        return False
    if reports_outcome(sent.text) or is_lead_in(sent.text) or is_roadmap(sent.text):
        return False
    has_eq = any(re.search(r"=|\\leftarrow|\\gets|\\propto|:=", m) for m in math)
    if has_eq:
        return True
    return bool(cue_regex("method", "cues").search(sent.text)) and len(sent.text.split()) >= 6


@lru_cache(maxsize=1)
def _lead_in() -> tuple[re.Pattern[str], re.Pattern[str]]:
    conf = cues().get("method", {})
    ends = "|".join(f"(?:{p})" for p in conf.get("lead_in_endings", []))
    return re.compile(rf"(?:{ends})\s*$", re.I), re.compile(conf.get("lead_in_actor", r"\bwe\b"), re.I)


def is_lead_in(sentence: str) -> bool:
    """A sentence that only announces the formula after it ("The total loss is defined as:", "PPO introduces a
    clipped objective function:"): the display that follows is a unit of its own. One in which "we" act
    ("we update $y$ by injecting noise as:") says what is done and is kept."""
    ending, actor = _lead_in()
    return bool(ending.search(sentence)) and not actor.search(sentence)


@lru_cache(maxsize=1)
def _roadmap() -> tuple[re.Pattern[str], re.Pattern[str]]:
    conf = cues().get("roadmap", {})
    start = "|".join(f"(?:{p})" for p in conf.get("start", [])) or r"(?!)"
    anywhere = "|".join(f"(?:{p})" for p in conf.get("anywhere", [])) or r"(?!)"
    return re.compile(rf"^\W*(?:{start})", re.I), re.compile(anywhere, re.I)


def is_roadmap(sentence: str) -> bool:
    """A sentence announcing what a section or appendix presents ("Finally, we introduce the cache.", "We first
    introduce A, followed by B", "the details are listed in Appendix B"): no method step, no order of steps.
    A sentence holding display math is never one."""
    if "$$" in sentence or "\\[" in sentence:
        return False
    start, anywhere = _roadmap()
    return bool(start.search(sentence) or anywhere.search(sentence))


def reports_outcome(sentence: str) -> bool:
    """A result sentence with a number in it ("our approach can outperform FNO+PINN by up to 30%",
    "results in ... ($R^2 = 0.635$)"): what the method achieved, not what it computes."""
    if not is_result_sentence(sentence):
        return False
    found = with_spaced(find_quantities(sentence), math_quantities(sentence, 0, len(sentence)))
    return any(q.value not in (0, 1, 2) for _s, _e, q in found)


def math_identifiers(math: str) -> list[str]:
    """Code-like names from LaTeX: `m_t`, `v_hat`, `softmax`, Greek names."""
    found: list[str] = []
    for m in _ACCENTED.finditer(math):
        found.append(f"{m.group(2).lstrip(chr(92))}_{_ACCENT_NAMES[m.group(1)]}")
    for m in _SUBSCRIPTED.finditer(math):
        found.append(f"{m.group(1)}_{m.group(2)}")
    found.extend(m.group(1).replace(" ", "").replace("-", "_") for m in _NAMED.finditer(math))
    found.extend(m.group(1).replace(" ", "") for m in _FUNCS.finditer(math))
    for ch in math:
        if ch in _GREEK:
            found.append(_GREEK[ch])
    found.extend(g for g in re.findall(r"\\([a-z]+)", math) if g in _GREEK.values())
    return found


def names_code(sent: Sentence) -> bool:
    """Whether the sentence writes a code identifier itself (`` `clip_grad_norm_` ``): otherwise its
    hints are the paper's notation and named methods, which code spells its own way."""
    return bool(_CODE.search(sent.text))


def method_hints(text: str, sent: Sentence, math: list[str]) -> list[str]:
    """Identifiers from the math and code spans, then named methods, without duplicates."""
    limit = int(cues().get("method", {}).get("max_hints", 12))
    hints: list[str] = []
    for m in math:
        hints.extend(math_identifiers(m))
    hints.extend(_CODE.findall(sent.text))
    for ent in find_entities(text, sent.start, sent.end):
        if ent.target[0] == "method":
            hints.append(ent.target[1])
    return list(dict.fromkeys(h for h in hints if h))[:limit]


def method_sentences(text: str, sentences: list[Sentence]) -> list[tuple[Sentence, list[str]]]:
    """Method candidate sentences with their hints."""
    spans = math_spans(text)
    ends = [e for _, e in spans]
    out = []
    for sent in sentences:
        math = _math_in(sent, spans, ends)
        if is_method_sentence(sent, math):
            out.append((sent, method_hints(text, sent, math)))
    return out
