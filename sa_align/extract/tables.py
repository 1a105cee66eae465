"""Numerical units from settings tables: one unit per row, one param per value column.

A settings table has a name column (parameter names, written any way) and one or more value
columns (one setting, or one per stage, dataset or model size); `table_kind.py` tells it apart
from a results table. Each body row with a name and a number
becomes a numerical unit quoting the row; with several value columns each param carries its
column header as `condition`. A name cell holding several names run together ("Replay buffer
capacity Mini-batch size") with as many numbers in the value cell ("1M 256") gives one param
per name, in order. Rows without a name, tables without a header row and ragged rows are read
as far as they go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from sa_align.aliases import (GREEK_NAMES, canonical_param, code_hints, computed, find_entities, find_param_mentions,
                              inside_longer_name, normalize_key, plausible)
from sa_align.extract.notation import assignment_params
from sa_align.extract.numerical import PROTOCOL_PARAMS
from sa_align.extract.spaced import cell_quantities
from sa_align.extract.table_kind import LETTERS, caption, has_numbers, head_share, is_settings_table, table_cues
from sa_align.extract.text import cue_regex
from sa_align.models import Param, UnitKind
from sa_align.paper.tables import Cell, Row, Table

_WORDS = re.compile(r"[A-Za-z][A-Za-z\-]*")
_MAX_ROWS = 400
_NAME_START = re.compile(r"(?<=[a-z0-9)\]])\s+(?=[A-Z][a-z])")
_VALUE_GROUP = re.compile(r"[\[(][^\])]*[\])]|[-+\u2212]?\d[\w.\-+\u2212·]*")
_LABEL = re.compile(r"^\s*([A-Za-z][A-Za-z \-_]{1,40}?)\s*:+\s*(.*\d.*)$")
_LABEL_START = re.compile(r"([A-Za-z][A-Za-z \-_]{1,40}?)\s*:+\s*")
_ENTITY_KINDS = ("dataset", "metric", "method", "split")
_GREEK_SPELLED = str.maketrans({k: f" {v} " for k, v in GREEK_NAMES.items()})


@dataclass
class TableUnit:
    """What one settings row states: the row's offsets, its params and the kind of unit it makes."""

    start: int
    end: int
    params: list[Param]
    kind: UnitKind
    hints: list[str]

    @property
    def claim(self) -> str:
        parts = []
        for p in self.params:
            shown = p.text or str(p.value if p.value is not None else p.values)
            cond = f" ({p.condition})" if p.condition else ""
            parts.append(f"{p.name} = {shown}{cond}")
        return f"The paper's table sets {'; '.join(parts)}."


@dataclass
class _Layout:
    """How a settings table is laid out: its body rows, the name column and the column headers."""

    body: list[Row]
    name_col: int
    heads: list[str]


def _settings_layout(text: str, table: Table) -> _Layout | None:
    """The layout of `table` when it is a settings table, else `None`."""
    rows = table.rows[:_MAX_ROWS]
    if len(rows) < 2 or table.width < 2:
        return None
    n_head = _header_rows(rows)
    body = rows[n_head:]
    name_col = _name_column(body)
    if name_col is None:
        return None
    heads = _column_heads(rows[:n_head], table.width)
    return _Layout(body, name_col, heads) if is_settings_table(text, table, body, name_col, heads) else None


def side_by_side(table: Table) -> list[Table]:
    """`table` cut into its blocks when it sets the same columns side by side to save space
    (`Hyperparameter | Value | Hyperparameter | Value`): the first row repeats with a period of
    at least two columns. Otherwise `[table]`."""
    if not table.rows:
        return [table]
    head = [c.text.strip().lower() for c in table.rows[0].cells]
    width = len(head)
    for period in range(2, width // 2 + 1):
        if width % period == 0 and any(head[:period]) and all(head[i] == head[i + period] for i in range(width - period)):
            return [_block(table, k * period, period) for k in range(width // period)]
    return [table]


def _block(table: Table, first: int, period: int) -> Table:
    rows = [Row(r.cells[first : first + period], r.start, r.end) for r in table.rows if r.cells[first : first + period]]
    return Table(table.start, table.end, rows, table.source)


def table_units(text: str, table: Table) -> list[TableUnit]:
    """The settings a table states, one `TableUnit` per row that names a parameter and gives a number."""
    lay = _settings_layout(text, table)
    if lay is None:
        return []
    body, name_col, heads = lay.body, lay.name_col, lay.heads
    value_cols = [c for c in range(name_col + 1, table.width) if has_numbers(body, c)]
    plain = {str(w).lower() for w in table_cues().get("plain_value_headers", [])}
    conditions = {c: (heads[c] if len(value_cols) > 1 or heads[c].lower() not in plain else "") for c in value_cols}
    transposed = head_share(heads, value_cols) > _column_share(body, name_col)
    # "Hyperparameter search grid": each list is the values tried, any one of which a run uses.
    grid = bool(cue_regex("numerical", "set_cues").search(caption(text, table)))
    out = []
    for i, row in enumerate(body):
        if transposed:
            unit = _transposed_row(row, name_col, value_cols, heads)
        else:
            unit = _row_unit(_realigned(row, body[i - 1] if i else None, name_col), name_col, value_cols, conditions)
        if unit is not None:
            out.append(_as_grid(unit) if grid else unit)
    return out


def own_columns(title: str, units: list[TableUnit]) -> list[TableUnit]:
    """Of a table setting several models side by side (`OLMoE-1B-7B | JetMoE | OpenMoE`), the columns
    the paper's own model heads, when its title names it (`OLMoE: Open Mixture-of-Experts ...`): the
    other columns are the compared models' settings, not the paper's."""
    own = _squash(title.split(":")[0]) if ":" in title[:40] else ""
    conds = {p.condition for tu in units for p in tu.params if p.condition}
    mine = {c for c in conds if own and own in _squash(c)}
    if len(own) < 3 or not mine or mine == conds:
        return units
    kept = [replace(tu, params=[p for p in tu.params if p.condition in mine]) for tu in units]
    return [tu for tu in kept if tu.params]


def _squash(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _as_grid(unit: TableUnit) -> TableUnit:
    """The row's lists read as sets of values tried."""
    unit.params = [p.model_copy(update={"shape": "set"}) if p.shape == "sequence" else p for p in unit.params]
    return unit


def _realigned(row: Row, prev: Row | None, name_col: int) -> Row:
    """`row` with its name moved to the name column when the converter wrote it further left.

    After a merged cell's rows run out, converters often write the next rows one cell short on the
    left (`| Max prompt length | 512 |` under `| PPO | Batch size | 256 |`): the name column then
    holds a number while an earlier cell of the row's own (not one carried down from a merged cell
    above) holds the words.
    """
    cells = row.cells
    if name_col == 0 or name_col >= len(cells) or (cells[name_col].text and not _is_value(cells[name_col].text)):
        return row
    for k in range(name_col - 1, -1, -1):
        own = prev is None or k >= len(prev.cells) or cells[k] is not prev.cells[k]
        if own and len(LETTERS.findall(cells[k].text)) >= 2 and not _is_value(cells[k].text):
            pad = [Cell("", cells[k].start, cells[k].start) for _ in range(name_col - k)]
            return Row(pad + cells, row.start, row.end)
    return row


def _column_share(body: list[Row], name_col: int) -> float:
    return sum(bool(_known_name(r.cells[name_col].text)) for r in body if name_col < len(r.cells)) / max(1, len(body))


def _transposed_row(row: Row, name_col: int, value_cols: list[int], heads: list[str]) -> TableUnit | None:
    """A row of a table whose header names the parameters: the row's label is the condition (a model size, a case)."""
    if name_col >= len(row.cells):
        return None
    label = row.cells[name_col].text
    params: list[Param] = []
    for c in value_cols:
        if c >= len(row.cells):
            continue
        group = [k for k in value_cols if heads[k] == heads[c]]
        mentions = _known_name(heads[c])
        if len(group) > 1 and len(mentions) == len(group):
            mentions = [mentions[group.index(c)]]  # a merged header naming one parameter per column it spans
        head = Cell(heads[c], 0, 0)
        params += _cell_params(head, mentions, row.cells[c], label)
    if not params:
        return None
    kind = UnitKind.PROTOCOL if all(p.name in PROTOCOL_PARAMS for p in params) else UnitKind.NUMERICAL
    return TableUnit(row.start, row.end, params, kind, code_hints(list(dict.fromkeys(p.name for p in params)), []))


def settings_cells(text: str, table: Table) -> list[Cell]:
    """Cells of a settings table that state a setting in words (`Prompt Number: [5, 10, 50]`), to be read as sentences."""
    lay = _settings_layout(text, table)
    if lay is None:
        return []
    cells = {id(c): c for r in lay.body for c in r.cells if _WORDS.search(c.text) and any(ch.isdigit() for ch in c.text)}
    return sorted(cells.values(), key=lambda c: c.start)


def _header_rows(rows: list[Row]) -> int:
    """Leading rows that are headers: marked `<th>`, or (the first row only) holding no number."""
    n = 0
    while n < len(rows) - 1 and rows[n].cells and all(c.header for c in rows[n].cells if c.text):
        n += 1
    if n == 0 and not any(_is_value(c.text) for c in rows[0].cells[1:]):
        n = 1
    return n


def _is_value(cell: str) -> bool:
    """A cell that is a number (with at most a unit or a letter or two), not a label such as `Stage 1`."""
    return bool(cell_quantities(cell)) and len(LETTERS.findall(cell)) <= 2


def _column_heads(head_rows: list[Row], width: int) -> list[str]:
    heads = []
    for c in range(width):
        parts = [r.cells[c].text for r in head_rows if c < len(r.cells) and r.cells[c].text]
        heads.append(" ".join(dict.fromkeys(parts)))
    return heads


def _name_column(body: list[Row]) -> int | None:
    """The column, among the first three, whose cells are most often words (known names first)."""
    best, best_score = None, 0.0
    for c in range(3):
        cells = [r.cells[c].text for r in body if c < len(r.cells) and r.cells[c].text]
        if not cells:
            continue
        wordy = sum(len(LETTERS.findall(t)) >= 2 for t in cells)
        score = sum(bool(_known_name(t)) for t in cells) * 2 + wordy
        if score > best_score and wordy * 2 >= len(cells):
            best, best_score = c, score
    return best


def _known_name(cell: str) -> list:
    return find_param_mentions(cell)


def _row_unit(row: Row, name_col: int, value_cols: list[int], conditions: dict[int, str]) -> TableUnit | None:
    if name_col >= len(row.cells):
        return None
    name_cell = row.cells[name_col]
    if cue_regex("tables", "cost_rows").search(name_cell.text):
        return None  # what the run cost, not how it was set
    mentions = _known_name(name_cell.text)
    params: list[Param] = []
    seen: set[int] = set()
    for c in value_cols:
        if c >= len(row.cells) or id(row.cells[c]) in seen or row.cells[c] is name_cell:
            continue
        seen.add(id(row.cells[c]))
        params += _cell_params(name_cell, mentions, row.cells[c], conditions[c])
    if not params:
        return None
    kind = UnitKind.PROTOCOL if all(p.name in PROTOCOL_PARAMS for p in params) else UnitKind.NUMERICAL
    hints = code_hints(list(dict.fromkeys(p.name for p in params)), [m.surface for m in mentions])
    return TableUnit(row.start, row.end, params, kind, hints)


def _cell_params(name_cell: Cell, mentions: list, cell: Cell, condition: str) -> list[Param]:
    if _LABEL.match(cell.text):
        # "Prompt Number: [5, 10, 50]" under a method's row: the label names the setting, the row is its
        # condition; a converter may run several (`Scale Factor:[0.01, 0.1]Bottleneck: [4, 8]`) into one cell.
        labels = list(_LABEL_START.finditer(cell.text))
        out = []
        for m, end in zip(labels, [n.start() for n in labels[1:]] + [len(cell.text)]):
            label = Cell(m.group(1), cell.start + m.start(1), cell.start + m.end(1))
            value = Cell(cell.text[m.end() : end], cell.start + m.end(), cell.start + end)
            out += _cell_params(label, _known_name(label.text), value, name_cell.text)
        return out
    quantities = cell_quantities(cell.text)
    if not quantities:
        return []
    cond = condition or None
    if written := assignment_params(cell.text):
        # `β1 = 0.9, β2 = 0.999` under `Optimizer Hyperparameters`: the cell names its own settings.
        return [p.model_copy(update={"condition": cond}) for p in written]
    if len(mentions) > 1 and len(mentions) == len(quantities):
        return [Param(name=str(m.target), surface=m.surface, value=q.value if q.percent else q.scalar(), text=q.text, condition=cond)
                for m, q in zip(mentions, quantities)]  # fmt: skip
    names, glued = _unglued(name_cell.text)
    if run_together := _run_together(names, cell.text, cond):
        return run_together
    if glued:
        return []  # names run together without a space and values that do not pair with them: garbled
    name, surface = _row_name(name_cell.text, mentions)
    # A value the setting cannot take (`Learning rate | 1e-4 512`) was run in from the next row;
    # a cell mostly of such values is garbled past reading.
    kept = [q for q in quantities if name is not None and plausible(name, q.scalar())]
    if not kept or len(kept) * 2 < len(quantities):
        return []
    quantities = kept
    values = [q.value if q.percent else q.scalar() for q in quantities]
    unit = "%" if any(q.percent for q in quantities) else None
    if len(values) == 1:
        return [Param(name=name, surface=surface, value=values[0], text=quantities[0].text, unit=unit, condition=cond)]
    if computed(name):
        return []  # `0.082 ~0.599` parameters: what a method came to over its grid, not a setting
    return [Param(name=name, surface=surface, values=values, shape="sequence", text=cell.text, unit=unit, condition=cond)]


_PART_OF = re.compile(r"\s+(?:in|of|for)\s+", re.IGNORECASE)
_GLUED = re.compile(r"^[a-z]{2,}[A-Z]")


def _unglued(names: str) -> tuple[str, bool]:
    """A name cell with the names a converter glued together split apart (`Training batch
    sizeIterationLearning rate` -> `... size Iteration Learning rate`), and whether it had any.
    A glued word starts in lower case inside a cell of three or more words, so `ResNet` or a lone
    `numHeads` stays whole."""
    words = names.split()
    if len(words) < 3 or not any(_GLUED.match(w) for w in words):
        return names, False
    return " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", w) if _GLUED.match(w) else w for w in words), True


def _run_together(names: str, values: str, cond: str | None) -> list[Param]:
    """Names and values the converter ran together in two cells, paired in order when they count the same.

    `Initial dimension Convolution kernel size Dimension multiplier` against `128 3 [1, 2, 4, 8]`:
    a name starts at a capitalised word after a lower-case one; a bracketed list is one value.
    With more values than names (the converter also ran the next rows' values in, or two names
    together), at least three names take the first values in order and the rest stay unread.
    """
    segments = [seg.strip() for seg in _NAME_START.split(names) if _WORDS.search(seg)]
    groups = _VALUE_GROUP.findall(values)
    least = int(table_cues().get("run_together_min_names", 3))
    if len(segments) < 2 or len(groups) < len(segments) or (len(groups) > len(segments) and len(segments) < least):
        return []
    out = []
    for seg, group in zip(segments, groups):
        qs = cell_quantities(group)
        name, surface = _row_name(seg, _known_name(seg))
        if not qs or name is None:
            break  # a segment too long to be one name: the names run on past what can be paired
        vals = [q.value if q.percent else q.scalar() for q in qs]
        if len(vals) == 1:
            out.append(Param(name=name, surface=surface, value=vals[0], text=qs[0].text, condition=cond))
        else:
            out.append(Param(name=name, surface=surface, values=vals, shape="sequence", text=group, condition=cond))
    return out if len(out) >= 2 else []


def _row_name(cell: str, mentions: list) -> tuple[str | None, str]:
    """Canonical name of a row (the alias table's, else the cell's words as an identifier) and its surface:
    the whole cell when it is a name's length (`Policy learning rate` says which learning rate)."""
    # A remark in brackets (`Zα dim (only used within architecture)`) is not part of the name.
    stripped = re.sub(r"\([^()]*\)", " ", cell)
    bare = stripped if _WORDS.search(stripped) else cell
    words = _WORDS.findall(bare)
    short = 0 < len(words) <= int(table_cues().get("max_name_words", 8))
    # A symbol inside a longer token (`κ` of `Wκτ`) is part of another name.
    mentions = [m for m in mentions if not _inside_token(cell, m.start, m.end)]
    if mentions:
        m = max(mentions, key=lambda m: m.end - m.start)
        if len(mentions) > 1 and _PART_OF.fullmatch(cell, mentions[0].end, mentions[1].start):
            m = mentions[0]  # `γ in GAE`, `λ of the scheduler`: the name before `in` is the setting
        return str(m.target), cell if short else m.surface
    if not short:
        return None, cell
    # Greek letters spelled out as code spells them: `Wωz` -> `w_omega_z`, not `w_z`.
    spelled = _WORDS.findall(bare.translate(_GREEK_SPELLED))
    canon = canonical_param(" ".join(spelled))
    return canon or "_".join(w.lower() for w in spelled) or normalize_key(cell), cell


def _inside_token(cell: str, start: int, end: int) -> bool:
    """A letter right before or after (`Wκτ`); a digit after is a subscript (`σ0`) and keeps the symbol."""
    return (start > 0 and cell[start - 1].isalnum()) or (end < len(cell) and cell[end].isalpha())


def table_entities(text: str, table: Table) -> list:
    """Datasets, metrics and methods a table names in its header rows and first two columns (what was compared, on what)."""
    rows = table.rows[:_MAX_ROWS]
    if len(rows) < 2:
        return []
    n_head = max(1, _header_rows(rows))
    cells = [c for r in rows[:n_head] for c in r.cells] + [c for r in rows[n_head:] for c in r.cells[:2]]
    found, seen = [], set()
    for cell in cells:
        if id(cell) in seen:
            continue
        seen.add(id(cell))
        found += [m for m in find_entities(text, cell.start, cell.end)
                  if m.target[0] in _ENTITY_KINDS and not inside_longer_name(text, m)]
    return found
