"""Numerical units from prose, math and tables: a parameter name bound to its stated value(s).

Decisions (applied consistently):
- one unit per parameter; parameters stated in one sentence share that sentence as `quote`;
- a value binds to the nearest name before it when only filler words lie between
  ("a learning rate of 3e-4", "β1 = 0.9", "| batch size | 256 |"), else to a name right
  after it ("100 epochs", "10k warm-up steps", "5 random seeds");
- `β1 and β2 are 0.9 and 0.999` and `(β1, β2) = (0.9, 0.999)` give one unit per name;
- lists give `sequence`, braces or sweep words give `set`, "between a and b" gives `range`;
- results, reference numbers (Table 2, Section 3.1), citation years and dataset sizes are not
  units: a number only counts when a known parameter name binds it, and sentences that report
  outcomes without a setting cue are skipped;
- seeds, runs and folds become protocol units carrying the count as a parameter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from sa_align.aliases import Mention, ascii_name, categorical, find_param_mentions, plausible
from sa_align.extract.distribution import normal_std
from sa_align.extract.spaced import math_quantities, with_spaced, word_numbers
from sa_align.extract.text import Sentence, cue_regex, cues, is_result_sentence, is_statistics, math_spans, word_regex
from sa_align.models import Param, UnitKind
from sa_align.numbers import Quantity, find_quantities, parse_number

PROTOCOL_PARAMS = frozenset({"seeds", "folds"})
"""Counts that describe the evaluation protocol rather than the model or its training."""

_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and|or)?(?:\s+at)?|;|/|and(?:\s+at)?|or|&|to|–|—|-|\.\.\.?|…|\\l?dots|,\s*\\l?dots\s*,)?\s*")
_RANGE_GAP = re.compile(r"\s*(?:to|–|—|-|\.\.)\s*")
_MENTION_GAP = re.compile(r"\s*(?:,\s*(?:and)?|and|/|&|\(|\))?\s*\(?\s*")
_GAP_PUNCT = re.compile(r"[\s=:,~≈$|(){}\[\]`*'\"]+|:=|\\(?:approx|sim|in|leftarrow|gets|coloneqq|equiv|quad|qquad|,|;)")
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)?")
_MILESTONE_BEFORE = re.compile(r"\b(?:at|after)\s+(?:the\s+)?(?:end\s+of\s+)?$", re.IGNORECASE)
_AT_BEFORE = re.compile(r"\bat\s+(?:the\s+)?(?:end\s+of\s+)?$", re.IGNORECASE)
_TIGHT_GAP = re.compile(r"[\s=:|*`$]*")
_ITEM_OPEN = re.compile(r"(?:^|[\s:;,])\($")
_ITEM_CLOSE = re.compile(r"\)\s+[A-Za-z]")
_LIST_FOLLOWS = re.compile(r"\s*:\s*\(?\s*(?:1|i|a)\s*[).]")
"""`three iterative steps: (1) ...`: a count of the items a list then gives, not a setting."""
_ASSIGN_GAP = re.compile(r"[=:|]")
_TIMES_NEAR = re.compile(r"(?:×|\\times|(?<=\d)[xX])\s*$")
_TIMES_AFTER = re.compile(r"\s*(?:×|\\times|[xX](?=\s*\d))")
_ASSIGN = re.compile(r"=|\\in\b|\\approx|\\leftarrow|\\gets")
_CLAUSE = re.compile(r"\band\b|,|;|\bwith\b|\bwhile\b|\bwhereas\b", re.IGNORECASE)
_STOP_AFTER = re.compile(r"\b(?:stop|stops|stopped|terminat\w*|end|ends|ended|finish\w*|converge\w*|halt\w*)\s+after\s*$", re.I)
_AFTER = re.compile(r"\bafter\s*$", re.IGNORECASE)
_FROM_BEFORE = re.compile(r"\bfrom\s*\$?\s*$", re.IGNORECASE)
_TO_BEFORE = re.compile(r"\bto\s*\$?\s*$", re.IGNORECASE)
_POSTFIX_GAP = re.compile(r"\$?\}?[ \t]{1,2}|-|~")
_UNIT_WORD = re.compile(r"[A-Za-z]{3,}")
_ADJ_GAP = re.compile(r"\$?\}?[ \t]+([a-z][a-z\-]{2,14})[ \t]+")
_PERCENT_END = re.compile(r"(?:%|\\%)\s*\$?$")
_PERCENT_OF_GAP = re.compile(r"\s*\$?[ \t]+of[ \t]+(?:the[ \t]+)?(?:[a-z][a-z\-]{2,14}[ \t]+)?")
_NOT_ADJ = frozenset(
    "of the and or to in on for with from by per are is was were at as than that which more less "
    "consecutive successive further fewer extra remaining".split()
)
_FIRST = re.compile(r"\bfirst\s*$", re.IGNORECASE)
_SQUARE = re.compile(r"(?<![\w.])(\d{1,4})\s*(?:×|\\times|x|X)\s*(\d{1,4})\$?\s+(?:random\s+|center\s+|centre\s+)?([A-Za-z]+)")
_LOOP_FROM = re.compile(r"\bfor\s+\$?\s*[A-Za-z_][\w{}\\ ]{0,20}?\s*\$?\s*(?:=|\\gets|\\leftarrow|←)\s*\$?\s*$")
_LOOP_TO = re.compile(r"\s*\$?\s*(?:to|,\s*\\?\.\.\.|\\dots|\.\.)\s", re.IGNORECASE)
_MAX_GAP = 60


@dataclass
class Group:
    """Consecutive values stated together (`30, 60 and 90`, `{1e-4, 3e-4}`, `between 1 and 5`)."""

    items: list[tuple[int, int, Quantity]]
    shape: str = "scalar"
    joiners: list[str] = field(default_factory=list)

    @property
    def start(self) -> int:
        return self.items[0][0]

    @property
    def end(self) -> int:
        return self.items[-1][1]


@dataclass
class Binding:
    """A parameter bound to values in one sentence: the raw material of one unit."""

    mention: Mention
    name: str
    items: list[tuple[int, int, Quantity]]
    shape: str
    unit: str | None
    kind: UnitKind = UnitKind.NUMERICAL
    params: list[Param] = field(default_factory=list)
    postfix: bool = False


@lru_cache(maxsize=1)
def _ncues() -> dict:
    return cues().get("numerical", {})


@lru_cache(maxsize=1)
def _filler() -> frozenset[str]:
    return frozenset(str(w) for w in _ncues().get("filler", []))


@lru_cache(maxsize=None)
def _ncue_regex(key: str) -> re.Pattern[str]:
    return word_regex(tuple(str(w) for w in _ncues().get(key, [])))


_GAP_CITE = re.compile(r"\[\d+(?:\s*[,–-]\s*\d+)*\]|\\cite[tp]?\{[^}]*\}")
_GAP_SYMBOL = re.compile(
    r"(?:\\[A-Za-z]+|(?<![A-Za-z])[A-Za-z](?![A-Za-z])|[α-ωΑ-Ω])(?:\s*[_^]\s*(?:\{[^{}]{0,12}\}|\\?\w+))*\s*(?==|:=|\\in\b|\\approx)"
)
_LETTERS_OR_SPACE = re.compile(r"[A-Za-z\-]+|\s")
_DIGIT = re.compile(r"\d")


def _filler_ok(gap: str) -> bool:
    if len(gap) > _MAX_GAP:
        return False
    # "a dropout [7] rate of", "a horizon of $T = ": markers and the symbol being defined are not words
    rest = _GAP_SYMBOL.sub(" ", _GAP_CITE.sub(" ", gap))
    rest = _GAP_PUNCT.sub(" ", rest)
    words = _WORD.findall(rest)
    if len(words) > 6 or _DIGIT.search(rest) or _LETTERS_OR_SPACE.sub("", rest):
        return False
    filler = _filler()
    return all(w.lower() in filler for w in words)


def _usable(text: str, q: tuple[int, int, Quantity], citations) -> bool:
    start, end, _ = q
    if citations is not None and citations.covers(start, end):
        return False
    if _LOOP_FROM.search(text, max(0, start - 40), start) and _LOOP_TO.match(text, end):
        return False  # `for epoch = 1 to max_epochs`: where a loop starts, not a setting
    if _enumerator(text, start, end):
        return False  # `(2) train the world model`: the number of an item in a list
    before = text[max(0, start - 24) : start]
    if _TIMES_NEAR.search(before) or _TIMES_AFTER.match(text, end):
        return False  # `3×3`, `16 × 16`: a shape, not a count or a setting of the noun after it
    ref = _ncue_regex("reference_words")
    return not any(m.end() >= len(before.rstrip(" ~(.")) for m in ref.finditer(before.rstrip(" ~(.")))


def _enumerator(text: str, start: int, end: int) -> bool:
    """`(1) collect data; (2) train ...`: a small number in brackets that opens an item, in a list that starts at 1."""
    if not (_ITEM_OPEN.search(text, max(0, start - 3), start) and _ITEM_CLOSE.match(text, end)):
        return False
    digits = text[start:end]
    return digits.isdigit() and (digits == "1" or "(1)" in text[max(0, start - 400) : start])


def group_values(
    text: str, quants: list[tuple[int, int, Quantity]], mentions: list[Mention] | None = None
) -> list[Group]:
    """Split the sentence's numbers into groups of values stated together.

    A value followed by its own name ("and 10k warm-up steps") starts a new group.
    """
    groups: list[Group] = []
    named_after = {q[1] for q in quants for m in mentions or [] if m.start >= q[1] and _postfix_gap_ok(text, q[1], m)}
    for q in quants:
        if groups and (q[1] not in named_after or " at" in text[groups[-1].end : q[0]]):
            gap = text[groups[-1].end : q[0]]
            if _LIST_GAP.fullmatch(gap):
                groups[-1].items.append(q)
                groups[-1].joiners.append(gap.strip())
                continue
        groups.append(Group([q]))
    for g in groups:
        g.shape = _shape(text, g)
    return groups


def _shape(text: str, g: Group) -> str:
    if len(g.items) == 1:
        return "scalar"
    before = text[max(0, g.start - 40) : g.start]
    if before.rstrip().endswith(("{", "\\{")):
        return "set"
    if len(g.items) == 2 and (
        cue_regex("numerical", "range_cues").search(before) or _RANGE_GAP.fullmatch(" " + g.joiners[0] + " ")
    ):
        return "range"
    if cue_regex("numerical", "set_cues").search(before):
        return "set"
    return "sequence"


def _prefix(text: str, mentions: list[Mention], g: Group) -> int | None:
    """Index of the mention that binds `g` from before, if only filler lies between."""
    best = None
    for i, m in enumerate(mentions):
        if m.end <= g.start:
            best = i
    if best is None:
        return None
    gap = text[mentions[best].end : g.start]
    if not _filler_ok(gap):
        return None
    surface = mentions[best].surface.lower()
    if surface in _ncue_words("postfix_only") and not _TIGHT_GAP.fullmatch(gap):
        return None
    if surface in _ncue_words("part_nouns") and len(g.items) > 1 and not _ASSIGN_GAP.search(gap):
        return None  # "layers 7 and 15 show ...": the noun before a list names which ones
    return best


@lru_cache(maxsize=None)
def _ncue_words(key: str) -> frozenset[str]:
    """The lower-cased words of the cue list `key`, for membership tests."""
    return frozenset(str(w).lower() for w in _ncues().get(key, []))


def _postfix_gap_ok(text: str, end: int, m: Mention) -> bool:
    """A count noun right after a value (`100 epochs`, `5 random seeds`, `50k generated samples`), never a symbol."""
    if m.surface.startswith("\\") or not _UNIT_WORD.match(m.surface):
        return False
    if m.start - end <= 4 and _POSTFIX_GAP.fullmatch(text, end, m.start):
        return True
    if _PERCENT_END.search(text, max(0, end - 8), end) and _PERCENT_OF_GAP.fullmatch(text, end, m.start):
        return str(m.target) in _ncues().get("percent_variants", {})  # "10% of linear warm up": a share of training
    adj = _ADJ_GAP.fullmatch(text, end, m.start)
    return bool(adj) and adj.group(1).lower() not in _NOT_ADJ and m.surface.lower() in _ncue_words("postfix_only")


def _postfix(text: str, mentions: list[Mention], g: Group, sent_start: int) -> int | None:
    for i, m in enumerate(mentions):
        if m.start >= g.end:
            if not _postfix_gap_ok(text, g.end, m):
                return None
            before = text[max(sent_start, g.start - 24) : g.start]
            if _AFTER.search(before) and not _STOP_AFTER.search(before):
                return None  # "after 30 epochs" is a point in training, "stops after 64k iterations" a length
            blockers = _ncue_regex("postfix_blockers")
            if any(b.end() >= len(before.rstrip()) for b in blockers.finditer(before.rstrip())):
                sent_text = text[sent_start : m.end + 200]
                if not (_FIRST.search(before) and _ncue_regex("warmup_cues").search(sent_text)):
                    return None
            return i
    return None


def _chain(text: str, mentions: list[Mention], last: int, n: int) -> list[int] | None:
    """`n` mentions ending at `last` joined by `and`/`,`/`/`, for `β1 and β2 are 0.9 and 0.999`."""
    first = last - n + 1
    if first < 0:
        return None
    for k in range(first, last):
        if not _MENTION_GAP.fullmatch(text, mentions[k].end, mentions[k + 1].start):
            return None
    return list(range(first, last + 1))


def _context_ok(name: str, sentence: str) -> bool:
    needs = _ncues().get("requires_context", {}).get(name)
    return not needs or bool(word_regex(tuple(needs)).search(sentence))


def foreign_unit_after(text: str, end: int) -> bool:
    """Whether the value ending at `end` carries a unit of another measure (`24 FPS`, `80 GB`)."""
    gap = len(text[end : end + 4]) - len(text[end : end + 4].lstrip(" "))
    return bool(cue_regex("numerical", "foreign_units").match(text, end + gap))


def _in_math(math: list[tuple[int, int]], pos: int) -> bool:
    return any(s <= pos < e for s, e in math)


def bind(text: str, sent: Sentence, mentions: list[Mention], groups: list[Group]) -> list[Binding]:
    """Pair value groups with parameter mentions."""
    out: list[Binding] = []
    math = [(sent.start + s, sent.start + e) for s, e in math_spans(sent.text)]
    named_before: set[int] = set()  # mentions whose value came before them ("0.02 weight decay")
    for g in groups:
        idx, postfix = _prefix(text, mentions, g), False
        if idx in named_before:
            idx = None  # "0.02 weight decay for 800 epochs": the 800 is not a second weight decay
        if (
            idx is not None
            and _in_math(math, mentions[idx].start)
            and _in_math(math, g.start)
            and not _ASSIGN.search(text, mentions[idx].end, g.start)
        ):
            idx = None  # inside math a name binds a value only through `=` (not `1 - β_1`, `clip(r, 1 - ε)`)
        if idx is not None and categorical(str(mentions[idx].target)):
            idx = None  # "the DDPM schedule with $T = 1000$": a schedule is a choice, the number is another setting
        if idx is not None and foreign_unit_after(text, g.end):
            idx = None  # "768p resolution and 24 FPS": a value with a unit of its own measures that, not the name before
        after = _postfix(text, mentions, g, sent.start)
        # "12 layers and 8 heads": a value followed by its own name belongs to it when the name
        # before it sits in another clause; "a width of 128 channels" keeps the name before.
        if after is not None and (idx is None or _CLAUSE.search(text, mentions[idx].end, g.start)):
            idx, postfix = after, True
        if idx is None:
            continue
        chained = _chain(text, mentions, idx, len(g.items)) if len(g.items) > 1 and not postfix else None
        if chained and len({mentions[k].target for k in chained}) == len(chained):
            for k, item in zip(chained, g.items):
                out.append(Binding(mentions[k], str(mentions[k].target), [item], "scalar", None))
            continue
        m = mentions[idx]
        if not postfix and any(q.text[:1].isalpha() for _, _, q in g.items):
            continue  # number words ("two") only count right before their noun ("two residual blocks")
        if postfix:
            named_before.add(idx)
        unit = m.surface.split()[-1].lower() if postfix else None
        out.append(Binding(m, str(m.target), g.items, g.shape, unit, postfix=postfix))
    return [b for b in out if _context_ok(b.name, sent.text)]


def _decayed_to(text: str, mention: int, value: int) -> bool:
    """`linearly decay the learning rate to 0`: the value a schedule ends at, not the one it starts from."""
    if not _ncues().get("decay_to") or not _TO_BEFORE.search(text, max(0, value - 8), value):
        return False
    return bool(_ncue_regex("decay_to").search(text, max(0, min(mention, value) - 40), value))


def _scalar(q: Quantity) -> int | float:
    return q.value if q.percent else q.scalar()


def _finish(text: str, b: Binding) -> Binding:
    """Apply milestone, reciprocal, percent and endpoint rules; fill `params`."""
    m = b.mention
    nc = _ncues()
    first = b.items[0][0]
    if b.name in ("epochs", "max_steps") and (
        _MILESTONE_BEFORE.search(text[max(0, m.start - 20) : m.start])
        or (m.start > first and _AT_BEFORE.search(text[max(0, first - 20) : first]))
    ):
        b.name, b.shape, b.unit = "lr_milestones", "sequence", m.surface.lower()
    warm = nc.get("warmup_params", {})
    if b.postfix and b.name in warm and _FIRST.search(text, max(0, first - 12), first):
        b.name = warm[b.name]  # "increased linearly during the first 5000 steps"
    values = [_scalar(q) for _, _, q in b.items]
    texts = [q.text for _, _, q in b.items]
    if any(q.percent for _, _, q in b.items):
        b.unit = "%"
        b.name = nc.get("percent_variants", {}).get(b.name, b.name)
    if b.name == "lr_decay_factor" and len(values) == 1 and values[0] > 1:
        span = text[m.start : b.items[0][0]]
        if cue_regex("numerical", "reciprocal_cues").search(span):
            values = [round(1.0 / values[0], 12)]
    ends = nc.get("endpoints", {}).get(b.name)
    if ends and len(values) == 2 and values[0] != values[1] and _FROM_BEFORE.search(text, max(0, b.items[0][0] - 12), b.items[0][0]):
        lo, hi = sorted(values)
        b.params = [
            Param(name=ends["high"], surface=m.surface, value=hi, text=texts[values.index(hi)], unit=b.unit),
            Param(name=ends["low"], surface=m.surface, value=lo, text=texts[values.index(lo)], unit=b.unit),
        ]
    elif len(values) == 1:
        if ends and _decayed_to(text, m.start, first):
            b.name = ends["low"]
        b.params = [Param(name=b.name, surface=m.surface, value=values[0], text=texts[0], unit=b.unit)]
    else:
        joined = text[b.items[0][0] : b.items[-1][1]]
        b.params = [Param(name=b.name, surface=m.surface, values=values, shape=b.shape, text=joined, unit=b.unit)]
    if b.name in PROTOCOL_PARAMS:
        b.kind = UnitKind.PROTOCOL
    return b


def _plausibly_named(b: Binding) -> Binding | None:
    """`b`, unless a value lies outside the range its setting can take (`$\\alpha = 4$` of a Beta
    distribution is no learning rate): then named by its symbol, or dropped when it has none."""
    percent = b.unit == "%"
    if all(plausible(p.name, v, percent) for p in b.params for v in p.numbers()):
        return b
    symbol = b.mention.surface.lstrip("\\")
    name = ascii_name(symbol)
    if not name or name == b.name or len(symbol) > 12 or " " in symbol:
        return None
    b.name = name
    b.params = [p.model_copy(update={"name": name}) for p in b.params]
    return b


def _square_sizes(text: str, sent: Sentence) -> list[Binding]:
    """`a 32×32 crop` -> image_size 32; `16 x 16 patches` -> patch_size 16."""
    nouns = _ncues().get("square_sizes", {})
    out = []
    for m in _SQUARE.finditer(text, sent.start, sent.end):
        name = nouns.get(m.group(3).lower())
        if name and m.group(1) == m.group(2):
            q = Quantity(float(m.group(1)), float(m.group(1)), None, False, m.group(0)[: m.end(2) - m.start()], True)
            mention = Mention(m.start(3), m.end(3), m.group(3), m.group(3).lower(), name)
            out.append(Binding(mention, name, [(m.start(1), m.end(2), q)], "scalar", None, postfix=True))
    return out


def sentence_bindings(text: str, sent: Sentence, citations=None) -> list[Binding]:
    """Every parameter binding stated in one sentence, in order of appearance."""
    if sent.text.startswith("#") or is_statistics(text, sent):
        return []
    found = with_spaced(find_quantities(text, sent.start, sent.end), math_quantities(text, sent.start, sent.end))
    found = normal_std(text, found, sent.start, sent.end)
    quants = [q for q in found if _usable(text, q, citations)]
    quants = sorted(quants + word_numbers(text, sent.start, sent.end), key=lambda q: q[0])
    if not quants and not _SQUARE.search(text, sent.start, sent.end):
        return []
    # Symbols (ε, λ) are read with the preceding sentence too: "the clipping parameter ... We found ε = 0.2".
    mentions = find_param_mentions(text, sent.start, sent.end, context=text[max(0, sent.start - 300) : sent.end])
    found = bind(text, sent, mentions, group_values(text, quants, mentions)) + _square_sizes(text, sent)
    found = [b for b in found if not (b.postfix and _LIST_FOLLOWS.match(text, b.mention.end))]
    bindings = [b for b in (_plausibly_named(_finish(text, x)) for x in found) if b is not None]
    if is_result_sentence(sent.text):
        bindings = [b for b in bindings if b.kind == UnitKind.PROTOCOL]
    return bindings


def claim_for(b: Binding) -> str:
    """One normalized sentence stating the binding."""
    parts = []
    for p in b.params:
        value = str(p.value) if p.value is not None else ", ".join(map(str, p.values))
        shown = p.text or value
        if p.text and p.value is not None and parse_number(p.text) not in (None, p.value) and p.unit != "%":
            shown = f"{value} (stated as {p.text})"
        kind = "" if p.shape == "scalar" else f" ({p.shape})"
        unit = f" {p.unit}" if p.unit and p.unit != "%" and p.unit not in shown else ""
        parts.append(f"{p.name} = {shown}{unit}{kind}")
    return f"The paper sets {'; '.join(parts)} (written as \"{b.mention.surface}\")."
