"""Parts of a paper that state no claim of their own, located by kind (`Paper.regions`).

Text converted from PDF keeps everything a page shows: a table of contents, lists of figures,
running headers, page and line numbers, the reference list, acknowledgements, a venue's paper
checklist and proofs. They stay in `Paper.text` (quotes keep their offsets) and are marked here so
the extractor takes no unit from them. Tables are marked too: their cells are read as a grid
(`sa_align.paper.tables`), not as sentences.

How each kind is found (patterns in `units/paper/regions.yaml`):
- by section title: references, acknowledgements, contents, figure lists, checklists (which run
  on over the following question sections) and sections titled as a proof ("Proof of Lemma 3");
- tables of contents without a heading: three or more lines ending in a page number, most of
  them numbered like sections or with dotted leaders, page numbers not decreasing;
- proofs: from a line starting "Proof." to an end mark (□, `\\qed`), the next statement
  (Theorem, Lemma, ...), the next heading, or the end of the section;
- statements: a paragraph opening with a theorem, lemma, proposition, corollary, assumption,
  conjecture, claim, remark or example label ("Lemma 2 (Smoothness).", "Remark:"), or a LaTeX
  environment of one, with the display math and continuation paragraphs that follow it (a
  hypothesis, a bound or a worked example is no setting of the method; definitions are left alone);
- furniture: known running-header lines, lone page numbers, runs of line numbers, and short
  lines repeated across the paper;
- code listings: fenced blocks, and paragraphs dense with program text (a listing a converter
  numbered line by line), whose literals are call arguments, not stated settings.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from sa_align.models import Region, Section
from sa_align.paper.tables import find_tables
from sa_align.resources import load_yaml

REGION_TABLES = "paper/regions.yaml"
"""Path of the region patterns under `units/`."""

_NUMBERING = re.compile(r"^\s*(?:(?:\d{1,2}|[A-Z])(?:\.\d{1,2})*\.?|[IVX]{1,5}\.)\s+")
_TOC_LINE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?P<num>(?:\d{1,2}|[A-Z])(?:\.\d{1,2})*\.?[ \t]+)?"
    r"(?P<title>[A-Za-z][^\n$|<]{1,110}?)(?P<lead>[ \t]*(?:\.[ \t]?){2,}|[ \t]*…+)?[ \t]*\.?[ \t]+"
    r"(?P<page>\d{1,3}(?: \d){0,2})[ \t]*$",
    re.MULTILINE,
)
_LINE_NUMBERS = re.compile(r"(?<![\d.])(?:\d{3} ){4,}\d{3}(?![\d.])")
_MIN_TOC_LINES = 3


@dataclass(frozen=True)
class _Patterns:
    titles: dict[str, re.Pattern[str]]
    checklist: re.Pattern[str]
    proof_start: re.Pattern[str]
    proof_end: re.Pattern[str]
    statement: re.Pattern[str]
    furniture: re.Pattern[str]
    repeated: dict[str, int]
    code_marks: re.Pattern[str]
    code: dict
    statement_block: re.Pattern[str]
    continuation: re.Pattern[str]
    max_continuation: int


@lru_cache(maxsize=1)
def _patterns() -> _Patterns:
    data = load_yaml(REGION_TABLES)
    titles = {k: re.compile("|".join(f"(?:{p})" for p in v), re.I) for k, v in data["section_titles"].items()}
    marks = "|".join(re.escape(m) for m in data["proof_end_marks"])
    return _Patterns(
        titles=titles,
        checklist=re.compile("|".join(data["checklist_markers"]), re.I | re.M),
        proof_start=re.compile(rf"^[ \t]*{data['proof_start']}", re.I | re.M),
        proof_end=re.compile(rf"{marks}|^[ \t]*{data['statement_start']}", re.M),
        statement=re.compile(rf"^[ \t]*{data['statement_start']}", re.M),
        furniture=re.compile(r"^[ \t]*(?:" + "|".join(data["furniture_lines"]) + r")[ \t]*$", re.I | re.M),
        repeated=dict(data["repeated_line"]),
        code_marks=re.compile("|".join(f"(?:{m})" for m in data["code_listing"]["marks"]), re.M),
        code=dict(data["code_listing"]),
        statement_block=_statement_label(data["statement_block"]),
        continuation=re.compile(r"(?:" + "|".join(re.escape(w) for w in data["statement_block"]["continuation"]) + r")(?!\w)", re.I),
        max_continuation=int(data["statement_block"]["max_continuation_chars"]),
    )


def _statement_label(conf: dict) -> re.Pattern[str]:
    kinds = "|".join(conf["kinds"])
    markdown = rf"^[ \t]*(?:\*{{1,2}}|_)?(?:{kinds}){conf['label']}"
    latex = rf"\\begin\{{(?P<env>{kinds})\*?\}}"
    return re.compile(f"{markdown}|{latex}", re.I | re.M)


def find_regions(text: str, sections: list[Section]) -> list[Region]:
    """Every region of `text` in document order; overlapping regions of one kind are joined."""
    found = [Region(kind="table", start=t.start, end=t.end) for t in find_tables(text)]
    found += _section_regions(text, sections)
    found += _toc_runs(text)
    found += _proofs(text, sections)
    found += _statements(text, sections)
    found += _furniture(text)
    found += _code_listings(text)
    return _join(found)


def _bare_title(title: str) -> str:
    return _NUMBERING.sub("", title.replace("*", "")).strip().rstrip(".:").strip()


def _section_regions(text: str, sections: list[Section]) -> list[Region]:
    pats = _patterns()
    out: list[Region] = []
    ordered = sorted(sections, key=lambda s: s.start)
    for i, sec in enumerate(ordered):
        title = _bare_title(sec.title)
        kind = next((k for k, p in pats.titles.items() if p.fullmatch(title)), None)
        if kind is None:
            continue
        end = sec.end
        if kind == "checklist":
            for later in ordered[i + 1 :]:
                if later.start < end:
                    continue
                if not pats.checklist.search(text, later.start, later.end):
                    break
                end = later.end
        out.append(Region(kind=kind, start=sec.start, end=end))
    return out


def _toc_runs(text: str) -> list[Region]:
    """Runs of lines that end in a page number: a table of contents, with or without its heading."""
    out: list[Region] = []
    run: list[re.Match[str]] = []

    def flush() -> None:
        if len(run) >= _MIN_TOC_LINES and _toc_like(run):
            out.append(Region(kind="contents", start=run[0].start(), end=run[-1].end()))
        run.clear()

    for m in _TOC_LINE.finditer(text):
        if run and text[run[-1].end() : m.start()].strip():
            flush()
        run.append(m)
    flush()
    return out


def _toc_like(run: list[re.Match[str]]) -> bool:
    marked = sum(bool(m["num"] or m["lead"]) for m in run)
    pages = [int(m["page"].replace(" ", "")) for m in run]
    return marked * 2 >= len(run) and all(a <= b for a, b in zip(pages, pages[1:]))


def _proofs(text: str, sections: list[Section]) -> list[Region]:
    pats = _patterns()
    starts = sorted(s.start for s in sections)
    out: list[Region] = []
    for m in pats.proof_start.finditer(text):
        limit = next((s for s in starts if s > m.start()), len(text))
        end_m = pats.proof_end.search(text, m.end(), limit)
        if end_m is None:
            end = limit
        elif pats.statement.match(text, end_m.start()):
            end = end_m.start()
        else:
            end = end_m.end()
        out.append(Region(kind="proof", start=m.start() + len(m.group(0)) - len(m.group(0).lstrip()), end=end))
    return out


_BLANK = re.compile(r"\n[ \t]*\n\s*")
_DISPLAY = ("$$", "\\[", "\\begin{")


def _statements(text: str, sections: list[Section]) -> list[Region]:
    """Statement paragraphs (Theorem, Lemma, ..., Example; not Definition) with the display math and
    continuation paragraphs after them, never past the next heading."""
    pats = _patterns()
    starts = sorted(s.start for s in sections)
    out: list[Region] = []
    for m in pats.statement_block.finditer(text):
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        limit = next((s for s in starts if s > start), len(text))
        if m.group("env"):
            close = text.find(f"\\end{{{m.group('env')}", m.end(), limit)
            end = limit if close < 0 else text.find("}", close) + 1
            out.append(Region(kind="statement", start=start, end=end))
            continue
        end = _paragraph_end(text, m.end(), limit)
        while end < limit and (gap := _BLANK.match(text, end)) and gap.end() < limit:
            nxt = _paragraph_end(text, gap.end(), limit)
            para = text[gap.end() : nxt]
            display = para.startswith(_DISPLAY)
            if not (display or para[:1].islower() or pats.continuation.match(para)):
                break
            if len(para) > pats.max_continuation and not display:
                break
            end = nxt
        out.append(Region(kind="statement", start=start, end=end))
    return out


def _paragraph_end(text: str, pos: int, limit: int) -> int:
    """Where the paragraph holding `pos` ends (before the blank line, or at `limit`); display math is kept whole."""
    begin = pos
    while True:
        gap = _BLANK.search(text, pos, limit)
        if gap is None:
            return limit
        if text.count("$$", begin, gap.start()) % 2 == 0:
            return gap.start()
        pos = gap.end()


_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.M | re.S)
_PARAGRAPH = re.compile(r"(?:^[ \t]*\S[^\n]*(?:\n|\Z))+", re.M)


def _code_listings(text: str) -> list[Region]:
    """Fenced code blocks, and paragraphs dense with program text (imports, `def`, `self.`, `nn.` calls)."""
    pats = _patterns()
    conf, marks = pats.code, pats.code_marks
    out = [Region(kind="code", start=m.start(), end=m.end()) for m in _FENCE.finditer(text)]
    for p in _PARAGRAPH.finditer(text):
        if not any(word in p.group(0) for word in conf["gate"]):
            continue
        n = len(marks.findall(p.group(0)))
        if n >= conf["min_marks"] and n * conf["chars_per_mark"] >= len(p.group(0)):
            out.append(Region(kind="code", start=p.start(), end=p.end()))
    return out


def _furniture(text: str) -> list[Region]:
    pats = _patterns()
    out = [Region(kind="furniture", start=m.start(), end=m.end()) for m in pats.furniture.finditer(text) if m.group(0).strip()]
    out += [Region(kind="furniture", start=m.start(), end=m.end()) for m in _LINE_NUMBERS.finditer(text)]
    out += _repeated_lines(text)
    return out


def _repeated_lines(text: str) -> list[Region]:
    """Short lines that recur verbatim: running headers and footers left in by the conversion."""
    conf = _patterns().repeated
    lines: list[tuple[int, str]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and conf["min_words"] <= len(stripped.split()) <= conf["max_words"] and _header_shaped(stripped):
            lines.append((offset + line.index(stripped[0]), stripped))
        offset += len(line)
    counts = Counter(s for _, s in lines)
    return [Region(kind="furniture", start=o, end=o + len(s)) for o, s in lines if counts[s] >= conf["min_count"]]


def _header_shaped(line: str) -> bool:
    """Title-cased, unpunctuated, no math: a header or footer rather than a repeated phrase of the text."""
    if line[-1] in ".:;," or line[0] in "#-*•–|<$\\(" or line[0].isdigit() or any(ch in line for ch in "$=<>{}"):
        return False
    words = [w for w in line.split() if w[0].isalpha()]
    return sum(w[0].isupper() for w in words) * 5 >= len(words) * 3


def _join(regions: list[Region]) -> list[Region]:
    out: list[Region] = []
    for r in sorted(regions, key=lambda r: (r.start, -r.end)):
        if r.end <= r.start:
            continue
        if out and out[-1].kind == r.kind and r.start <= out[-1].end:
            out[-1] = out[-1].model_copy(update={"end": max(out[-1].end, r.end)})
            continue
        out.append(r)
    return out
