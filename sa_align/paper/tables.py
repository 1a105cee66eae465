"""Tables in paper text as grids of cells with offsets: HTML `<table>` markup and Markdown pipe tables.

Text converted from PDF carries tables as HTML (merged cells as `rowspan`/`colspan`); Markdown
papers carry pipe tables. Both become a `Table`: rows of `Cell`s, a merged cell repeated in every
position it covers, each cell with the offsets of its text in the paper, so a unit quoting a row
maps back to the paper. HTML is read with the standard library's HTML parser; pipe tables are
located by the CommonMark parser with its table rule, then split at their unescaped pipes.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser

_TABLE_OPEN = re.compile(r"<table\b", re.I)
_TABLE_CLOSE = re.compile(r"</table\s*>", re.I)
_PIPE_HINT = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$", re.M)
_MAX_TABLE_CHARS = 200_000
_MAX_SPAN = 50
"""Largest rowspan/colspan honoured; converters sometimes write absurd ones."""


@dataclass
class Cell:
    """One cell: its text (markup and entities resolved), where that text lies, whether it is a header."""

    text: str
    start: int
    end: int
    header: bool = False


@dataclass
class Row:
    """One row of the grid, with the offsets of the whole row in the paper."""

    cells: list[Cell]
    start: int
    end: int


@dataclass
class Table:
    """A table located in the paper text."""

    start: int
    end: int
    rows: list[Row] = field(default_factory=list)
    source: str = "html"
    """`html` or `markdown`."""

    @property
    def width(self) -> int:
        return max((len(r.cells) for r in self.rows), default=0)


_CITES_WHAT_PRECEDES = re.compile(r"[^\W\d_]\s*$")
"""A citation marker follows what it cites (`Dropless [58] MoE`, `(DPO [138])`); a bracket that opens a
cell or follows `=` or `:` is a value (`[3, 3]`, `sizes: [5, 10]`)."""


def without_citations(table: Table, markers: Callable[[int, int], list[str]]) -> Table:
    """`table` with the citation markers inside its cells blanked: `Dropless [58] MoE` states no setting
    of 58. `markers(start, end)` gives the text of each marker the paper's citation finder located
    there. Cells shared by several rows (merged cells) stay shared."""
    new: dict[int, Cell] = {}

    def blank(cell: Cell) -> Cell:
        if id(cell) not in new:
            text = cell.text
            for marker in markers(cell.start, cell.end):
                at = text.find(marker)
                if at > 0 and _CITES_WHAT_PRECEDES.search(text[:at]):
                    text = text[:at] + " " + text[at + len(marker):]
            new[id(cell)] = cell if text == cell.text else replace(cell, text=" ".join(text.split()))
        return new[id(cell)]

    rows = [Row([blank(c) for c in r.cells], r.start, r.end) for r in table.rows]
    return Table(table.start, table.end, rows, table.source)


def find_tables(text: str) -> list[Table]:
    """Every HTML and Markdown table in `text`, in order, parsed into rows."""
    tables = _html_tables(text)
    if _PIPE_HINT.search(text):
        taken = [(t.start, t.end) for t in tables]
        tables += [t for t in _pipe_tables(text) if not any(a <= t.start < b for a, b in taken)]
    return sorted(tables, key=lambda t: t.start)


# --------------------------------------------------------------------------- HTML


def _html_tables(text: str) -> list[Table]:
    out: list[Table] = []
    pos = 0
    while (m := _TABLE_OPEN.search(text, pos)) is not None:
        close = _TABLE_CLOSE.search(text, m.end(), m.start() + _MAX_TABLE_CHARS)
        end = close.end() if close else min(len(text), _line_end(text, m.start()))
        out.append(parse_html_table(text, m.start(), end))
        pos = max(end, m.end())
    return out


def _line_end(text: str, pos: int) -> int:
    nl = text.find("\n\n", pos)
    return len(text) if nl < 0 else nl


class _GridBuilder(HTMLParser):
    """Collects `<tr>`/`<td>`/`<th>` with source offsets; tolerant of unclosed cells and rows."""

    def __init__(self, text: str, base: int):
        super().__init__(convert_charrefs=False)
        self.src, self.base = text, base
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.rows: list[tuple[int, int, list[tuple[Cell, int, int]]]] = []
        self.cell: tuple[int, bool, int, int] | None = None
        self.row_start: int | None = None
        self.cells: list[tuple[Cell, int, int]] = []

    def _pos(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._end_row()
            self.row_start = self._pos()
        elif tag in ("td", "th"):
            self._end_cell()
            if self.row_start is None:
                self.row_start = self._pos()
            a = dict(attrs)
            tag_text = self.get_starttag_text() or ""
            self.cell = (self._pos() + len(tag_text), tag == "th", _span(a.get("rowspan")), _span(a.get("colspan")))

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._end_cell()
        elif tag == "tr":
            self._end_row(self._pos() + len(f"</{tag}>"))
        elif tag == "table":
            self._end_row()

    def _end_cell(self) -> None:
        if self.cell is None:
            return
        start, header, rowspan, colspan = self.cell
        end = self._pos()
        raw = self.src[start:end]
        clean = " ".join(html.unescape(re.sub(r"<[^>]*>", " ", raw)).split())
        lead = len(raw) - len(raw.lstrip())
        a, b = self.base + start + lead, self.base + start + len(raw.rstrip())
        self.cells.append((Cell(clean, a, max(a, b), header), rowspan, colspan))
        self.cell = None

    def _end_row(self, end: int | None = None) -> None:
        self._end_cell()
        if self.row_start is not None and self.cells:
            stop = end if end is not None else self.cells[-1][0].end - self.base
            self.rows.append((self.base + self.row_start, self.base + stop, self.cells))
        self.row_start, self.cells = None, []


def _span(value: str | None) -> int:
    try:
        return max(1, min(_MAX_SPAN, int(str(value).strip())))
    except (TypeError, ValueError):
        return 1


def parse_html_table(text: str, start: int, end: int) -> Table:
    """The `<table>` markup in `text[start:end]` as a grid; merged cells fill every position they cover."""
    builder = _GridBuilder(text[start:end], start)
    try:
        builder.feed(text[start:end])
        builder.close()
    except Exception:  # noqa: BLE001 - a broken table still yields the rows read so far
        pass
    builder._end_row()
    table = Table(start=start, end=end, source="html")
    pending: dict[tuple[int, int], Cell] = {}
    for r, (rs, re_, cells) in enumerate(builder.rows):
        grid: list[Cell] = []
        col = 0
        queue = list(cells)
        while queue or (r, col) in pending:
            if (r, col) in pending:
                grid.append(pending.pop((r, col)))
            else:
                cell, rowspan, colspan = queue.pop(0)
                for dr in range(rowspan):
                    for dc in range(colspan):
                        if dr or dc:
                            pending[(r + dr, col + dc)] = cell
                grid.append(cell)
            col += 1
        table.rows.append(Row(grid, rs, re_))
    return table


# --------------------------------------------------------------------------- Markdown


def _pipe_tables(text: str) -> list[Table]:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table").disable("inline")
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out: list[Table] = []
    for tok in md.parse(text):
        if tok.type == "table_open" and tok.map:
            a, b = tok.map
            out.append(_pipe_table(text, starts, a, b))
    return out


def _pipe_table(text: str, starts: list[int], first: int, last: int) -> Table:
    line_end = lambda i: (starts[i + 1] - 1) if i + 1 < len(starts) else len(text)  # noqa: E731
    table = Table(start=starts[first], end=line_end(last - 1), source="markdown")
    for i in range(first, last):
        s, e = starts[i], line_end(i)
        line = text[s:e]
        if i == first + 1 and _PIPE_HINT.fullmatch(line):
            continue
        cells = [_pipe_cell(text, s + a, s + b, header=(i == first)) for a, b in _pipe_bounds(line)]
        if cells:
            table.rows.append(Row(cells, s + len(line) - len(line.lstrip()), s + len(line.rstrip())))
    return table


def _pipe_bounds(line: str) -> list[tuple[int, int]]:
    cuts = [i for i, ch in enumerate(line) if ch == "|" and (i == 0 or line[i - 1] != "\\")]
    body = line.strip()
    if not body.startswith("|"):
        cuts = [-1, *cuts]
    if not body.endswith("|") or len(cuts) < 2:
        cuts = [*cuts, len(line)]
    return [(a + 1, b) for a, b in zip(cuts, cuts[1:])]


def _pipe_cell(text: str, a: int, b: int, header: bool) -> Cell:
    raw = text[a:b]
    lead = len(raw) - len(raw.lstrip())
    s, e = a + lead, a + len(raw.rstrip())
    return Cell(" ".join(raw.replace("\\|", "|").split()), s, max(s, e), header)


def row_index(table: Table, offset: int) -> int:
    """Index of the row containing `offset` (the row starting at or before it)."""
    return max(0, bisect.bisect_right([r.start for r in table.rows], offset) - 1)
