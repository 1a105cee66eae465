"""The offline rule extractor: deterministic, no model, one pass over the paper's sentences."""

from __future__ import annotations

import re
from functools import lru_cache

from sa_align.aliases import code_hints, computed
from sa_align.extract.attribution import CitationIndex, attribute, cited_columns
from sa_align.extract.counts import count_params
from sa_align.extract.method import is_roadmap, method_sentences, names_code
from sa_align.extract.numerical import claim_for, sentence_bindings
from sa_align.extract.ordering import OrderSpan, numbered_steps, sentence_order
from sa_align.extract.protocol import protocol_claim, protocol_entities, protocol_hints
from sa_align.extract.table_kind import caption_span
from sa_align.extract.tables import own_columns, settings_cells, side_by_side, table_entities, table_units
from sa_align.extract.text import SectionLookup, Sentence, bare_title, clean, cue_regex, cues, skipped, split_sentences
from sa_align.models import Attribution, CharSpan, Paper, Param, Region, Unit, UnitKind
from sa_align.paper.tables import find_tables, parse_html_table, without_citations

KIND_PREFIX = {
    UnitKind.NUMERICAL: "num",
    UnitKind.METHOD: "meth",
    UnitKind.PROTOCOL: "proto",
    UnitKind.ORDERING: "ord",
}
"""Unit id prefix per kind: ids are `num-001`, `meth-001`, ... numbered in paper order."""


class _Builder:
    """Collects units for one paper, attributing each from its sentence."""

    def __init__(self, paper: Paper, word_named: bool = True):
        self.paper = paper
        self.word_named = word_named
        self.cites = CitationIndex(paper)
        self.sections = SectionLookup(paper)
        self.units: list[Unit] = []
        self.own_names = _own_names(paper.title or "")
        self._analysis: dict[str | None, bool] = {}
        self._analysed: dict[tuple[int, int], bool] = {}

    def voiced(self, sent: Sentence) -> bool:
        """False for a sentence of an introduction, preliminaries or background that speaks neither in the
        paper's own voice nor of its method (`voice_sections` in the cue table), and for one that analyses
        rather than runs (`analysed`)."""
        if self.analysed(sent):
            return False
        if bare_title(sent.section) not in _voice_sections():
            return True
        return bool(cue_regex("own_voice").search(sent.text)) or any(n in sent.text for n in self.own_names)

    def analysed(self, sent: Sentence) -> bool:
        """True for a sentence that derives or bounds (`derivation`) or stands in a section of analysis or
        mathematical background, its own title or its chapter's (`analysis_sections`), unless it says what
        the paper runs (`analysis_voice`): such sentences give no unit of any kind."""
        key = (sent.start, sent.end)
        if key not in self._analysed:  # asked once per kind of unit: answer once per sentence
            self._analysed[key] = bool(self._analysis_section(sent.start) or _derivation().search(sent.text)) and not (
                cue_regex("analysis_voice").search(sent.text))
        return self._analysed[key]

    def _analysis_section(self, offset: int) -> bool:
        title = self.sections.title_at(offset)
        if title not in self._analysis:
            chapter = self.sections.chapter_at(offset)
            words, whole = cue_regex("analysis_sections"), _analysis_titles()
            titles = (bare_title(title), bare_title(chapter))
            self._analysis[title] = any(t in whole or words.search(t) for t in titles)
        return self._analysis[title]

    def uncited(self, sent: Sentence) -> Sentence:
        """`sent` with its numeric citation markers blanked (offsets kept): in `Following [96], we add an FC
        layer` or `developed for adaptation [76, 77]`, 96 and 76 are no values the code should hold."""
        text = sent.text
        for m in self.cites.within(sent.start, sent.end):
            a, z = m.start - sent.start, min(m.end, sent.end) - sent.start
            if text.startswith("[", a):
                text = text[:a] + " " * (z - a) + text[z:]
        return sent if text == sent.text else Sentence(sent.start, sent.end, text, sent.section)

    def add(self, kind: UnitKind, start: int, end: int, prev_end: int | None, anchor: int | None,
            cited: str | None = None, **fields) -> Unit | None:
        params = fields.get("params") or []
        if kind == UnitKind.NUMERICAL and params and all(computed(p.name) for p in params):
            # A unit of nothing but a parameter count (`BitFit | N/A | 0.102` under `#Params (M)`, `across 2B, 7B
            # and 27B model size`) reports what a model came to; beside its row's settings a count stays.
            return None
        text = self.paper.text
        if cited is not None:
            attribution, ref = Attribution.CITED, cited  # known from outside the sentence (a table's caption)
        else:
            attribution, ref = attribute(text, start, end, self.cites, anchor=anchor, prev_end=prev_end)
        section = self.sections.title_at(start)
        unit = Unit(
            id="",
            kind=kind,
            quote=text[start:end],
            span=CharSpan(start=start, end=end),
            section=section,
            attribution=attribution,
            cited_ref=ref,
            origin="rules",
            **fields,
        )
        self.units.append(unit)
        return unit


@lru_cache(maxsize=1)
def _derivation() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in cues().get("derivation", [])) or r"(?!)", re.I)


@lru_cache(maxsize=1)
def _analysis_titles() -> frozenset[str]:
    return frozenset(str(t).lower() for t in cues().get("analysis_titles", []))


def _voice_sections() -> frozenset[str]:
    return frozenset(str(t).lower() for t in cues().get("voice_sections", []))


def _own_names(title: str) -> list[str]:
    """Names of the paper's method its title gives: the head before a colon when short ("MA-RLHF: ..."),
    and words with two or more capitals in a title not set in capitals ("... (PEFT) in Visual Recognition")."""
    head = title.split(":", 1)[0].strip() if ":" in title else ""
    names = [head] if head and len(head.split()) <= 3 else []
    words = re.findall(r"[A-Za-z][\w-]*", title)
    if sum(w.isupper() for w in words) * 2 < len(words):
        names += [w for w in words if sum(ch.isupper() for ch in w) >= 2 and len(w) >= 3]
    return list(dict.fromkeys(names))


def _is_heading(sent: Sentence) -> bool:
    return sent.text.lstrip().startswith("#") or (len(sent.text) < 80 and "\n" not in sent.text and not sent.text.rstrip().endswith((".", ":", "|", "$")) and len(sent.text.split()) <= 6)


def _numeric_and_protocol(b: _Builder, sent: Sentence, prev_end: int | None) -> None:
    text = b.paper.text
    analysed = b.analysed(sent)
    bindings = [] if skipped(sent.section, "numerical") or analysed else sentence_bindings(text, sent, b.cites)
    protocol_params: list[Param] = []
    for bd in bindings:
        if bd.kind == UnitKind.PROTOCOL:
            protocol_params.extend(bd.params)
            continue
        b.add(UnitKind.NUMERICAL, sent.start, sent.end, prev_end, bd.mention.start,
              claim=claim_for(bd), params=bd.params,
              hints=code_hints([p.name for p in bd.params], [bd.mention.surface]))  # fmt: skip
    if b.word_named and not skipped(sent.section, "numerical") and not analysed:
        taken = [(q[0], q[1]) for bd in bindings for q in bd.items]
        bound = {p.name for bd in bindings for p in bd.params}
        for offset, p in count_params(text, sent, taken, bound):
            b.add(UnitKind.NUMERICAL, sent.start, sent.end, prev_end, offset, claim=f"The paper sets {p.name} = {p.text}.",
                  params=[p], hints=code_hints([p.name], []))  # fmt: skip
    mentions = [] if skipped(sent.section, "protocol") or not b.voiced(sent) else protocol_entities(text, sent)
    if not mentions and not protocol_params:
        return
    claim = protocol_claim(mentions) if mentions else "The evaluation protocol uses"
    for p in protocol_params:
        claim = claim.rstrip(".") + f"; {p.name}: {p.text}"
    b.add(UnitKind.PROTOCOL, sent.start, sent.end, prev_end, None,
          claim=claim.rstrip(".").replace("uses;", "uses") + ".",
          entities=list(dict.fromkeys(m.target[1] for m in mentions)),
          params=protocol_params,
          hints=protocol_hints(mentions) + [p.name for p in protocol_params])  # fmt: skip


def _ordering(b: _Builder, sentences: list[Sentence]) -> None:
    spans: list[OrderSpan] = []
    for sent in sentences:
        if not skipped(sent.section, "ordering") and not _is_heading(sent) and not is_roadmap(sent.text) and b.voiced(sent):
            if found := sentence_order(b.uncited(sent)):
                spans.append(found)
    text = b.paper.text
    for run in numbered_steps(text):
        if not skipped(b.sections.title_at(run.start), "ordering") and b.paper.region_at(run.start, _NO_UNITS | {"table"}) is None:
            start = run.start + (len(text[run.start : run.end]) - len(text[run.start : run.end].lstrip()))
            spans.append(OrderSpan(start, run.end, run.steps))
    for sp in spans:
        steps = [_tidy(step) for step in sp.steps]
        b.add(UnitKind.ORDERING, sp.start, sp.end, None, None,
              claim="In order: " + " → ".join(steps) + ".", order=steps)  # fmt: skip


def _tidy(phrase: str) -> str:
    """Whitespace collapsed, none before punctuation (where a blanked citation marker stood)."""
    return re.sub(r"\s+(?=[,.;:])", "", " ".join(phrase.split()))


def _methods(b: _Builder, sentences: list[Sentence]) -> None:
    eligible = [s for s in sentences if not skipped(s.section, "method") and not _is_heading(s) and b.voiced(s)]
    for sent, hints in method_sentences(b.paper.text, eligible):
        # Notation (`z_sa`, `pi`) is marked as read from the claim: its absence from code shows nothing.
        derived = ["hints"] if hints and not names_code(sent) else []
        b.add(UnitKind.METHOD, sent.start, sent.end, None, None, claim=clean(_tidy(b.uncited(sent).text)), hints=hints,
              derived=derived)


def assign_ids(units: list[Unit]) -> list[Unit]:
    """Sort units in paper order and number them per kind: `num-001`, `proto-001`, ..."""
    kinds = list(KIND_PREFIX)
    ordered = sorted(
        units, key=lambda u: (u.span.start if u.span else 1 << 60, kinds.index(u.kind), u.span.end if u.span else 0)
    )
    counters: dict[UnitKind, int] = {}
    out = []
    for u in ordered:
        counters[u.kind] = counters.get(u.kind, 0) + 1
        out.append(u.model_copy(update={"id": f"{KIND_PREFIX[u.kind]}-{counters[u.kind]:03d}"}))
    return out


def _outside(regions: list[Region], sentences: list[Sentence]) -> list[Sentence]:
    """Sentences that start outside every region (HTML tables are read cell by cell instead)."""
    spans = sorted((r.start, r.end) for r in regions)
    out, i = [], 0
    for sent in sentences:
        while i < len(spans) and spans[i][1] <= sent.start:
            i += 1
        if i < len(spans) and spans[i][0] <= sent.start < spans[i][1]:
            continue
        out.append(sent)
    return out


def _tables(b: _Builder, regions: list[Region]) -> None:
    text = b.paper.text
    for reg in regions:
        if reg.kind != "table":
            continue
        is_html = text.startswith("<", reg.start)
        tables = [parse_html_table(text, reg.start, reg.end)] if is_html else find_tables(text[reg.start : reg.end])
        shift = 0 if is_html else reg.start
        for table in (without_citations(block, _markers(b, shift)) for whole in tables for block in side_by_side(whole)):
            units = own_columns(b.paper.title, table_units(text, table))
            cited = _cited_table(b, table, units, shift)
            for tu in units:
                start, end = tu.start + shift, tu.end + shift
                b.add(tu.kind, start, end, None, None, cited=cited, claim=tu.claim, params=tu.params, hints=tu.hints)
            if is_html:
                for cell in settings_cells(text, table):
                    _numeric_and_protocol(b, Sentence(cell.start, cell.end, text[cell.start : cell.end], None), None)
            if mentions := table_entities(text, table) if is_html else []:
                b.add(UnitKind.PROTOCOL, reg.start, reg.end, None, None, cited=cited, claim=protocol_claim(mentions),
                      entities=list(dict.fromkeys(m.target[1] for m in mentions)), hints=protocol_hints(mentions))  # fmt: skip


def _markers(b: _Builder, shift: int):
    """The text of each citation marker between two offsets of a table (shifted into the paper's text)."""
    text = b.paper.text
    return lambda start, end: [text[m.start : m.end] for m in b.cites.within(start + shift, end + shift)
                               if m.end <= end + shift]


def _cited_table(b: _Builder, table, units: list, shift: int) -> str | None:
    """The reference key when the table's value columns are all methods its caption cites."""
    heads = {p.condition for tu in units for p in tu.params}
    if not units or None in heads:
        return None
    span = caption_span(b.paper.text, table.start + shift, table.end + shift)
    return cited_columns(b.paper.text, span, heads, b.cites)


def rule_units(paper: Paper, *, word_named: bool = True) -> list[Unit]:
    """Every unit the offline rules find in `paper`, ids not yet assigned (call `assign_ids`).

    `word_named=False` leaves out settings named only by the paper's own words ("18 hidden
    dimensions", "codebook size of 4096"; `sa_align.extract.counts`).
    """
    b = _Builder(paper, word_named)
    # Markdown pipe tables stay sentences too: their rows read as `| name | value |` already.
    skip = [r for r in paper.regions if r.kind != "table" or paper.text.startswith("<", r.start)]
    # A sentence about what could be done next states nothing the paper did.
    sentences = [s for s in _outside(skip, split_sentences(paper)) if not cue_regex("speculative").search(s.text)]
    prev_end = None
    for sent in sentences:
        _numeric_and_protocol(b, sent, prev_end)
        prev_end = sent.end
    _ordering(b, sentences)
    _methods(b, sentences)
    _tables(b, [r for r in paper.regions if paper.region_at(r.start, _NO_UNITS) is None])
    return b.units


_NO_UNITS = frozenset({"contents", "figure_list", "furniture", "references", "acknowledgements", "checklist", "proof", "statement",
                       "code"})
"""Region kinds no unit is taken from (tables inside them included)."""
