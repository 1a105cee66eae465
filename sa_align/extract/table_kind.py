"""Which converted tables state settings, and which report results: the caption, its subject, the headers.

A table is read for settings when its caption or header words say so (`tables.setting_words` in
`units/extract/cues.yaml`), or when its name column is mostly known parameter names; it reports
results when its caption speaks of them first (`tables.result_words`, or a metric it names), when
its values come with their spread, when its rows are metrics, or when models are scored under
headers that are datasets or metrics.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sa_align.aliases import canonical_param, computed, find_entities, find_param_mentions
from sa_align.extract.spaced import cell_quantities
from sa_align.extract.text import cues, word_regex
from sa_align.paper.tables import Row, Table

_CAPTION = re.compile(r"(?:^|\n)[ \t]*(?:\*\*)?(?:Table|Tab\.)\s*[A-Z]?\.?\d+[^\n]{0,300}", re.I)
LETTERS = re.compile(r"[A-Za-z\u0370-\u03ff]")


@lru_cache(maxsize=1)
def table_cues() -> dict:
    return cues().get("tables", {})


def caption(text: str, table: Table) -> str:
    """The `Table N: ...` line just before or after the table, or an empty string."""
    span = caption_span(text, table.start, table.end)
    return text[span[0] : span[1]].strip() if span else ""


def caption_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Offsets of the caption line of the table at `[start, end)` of `text`, or `None` when it has none."""
    before = list(_CAPTION.finditer(text, max(0, start - 600), start))
    if before:
        return before[-1].span()
    after = _CAPTION.search(text, end, min(len(text), end + 400))
    return after.span() if after else None


def head_share(heads: list[str], value_cols: list[int]) -> float:
    """Share of value columns whose header is mostly a known parameter's name (`#Layers`, `Learning Rate`;
    not `Base-Resolution Model`, a configuration that merely contains one)."""
    return sum(_names_most(heads[c]) for c in value_cols) / max(1, len(value_cols))


def _names_most(cell: str) -> bool:
    covered = sum(len(LETTERS.findall(m.surface)) for m in find_param_mentions(cell))
    return covered > 0 and covered * 3 >= 2 * len(LETTERS.findall(cell))


def is_settings_table(text: str, table: Table, body: list[Row], name_col: int, heads: list[str]) -> bool:
    """Settings, not results. Results: a caption that says so, or values with their spread. Settings:
    a caption or header that says so; else a plain `Value` header or a name column mostly of parameter
    names, but never a name column mostly of datasets, tasks or methods."""
    cap = caption(text, table)
    words = word_regex(tuple(str(w) for w in table_cues().get("setting_words", [])))
    result = _result_at(cap)
    setting = _setting_word(words, cap)
    # The caption's subject comes first: "Hyperparameters ... for the results of Table 2" lists settings,
    # "Results with different hyperparameters" reports outcomes.
    if (result is not None and not (setting and setting.start() < result)) or _spread_share(body, name_col) > 0.3:
        return False
    names = [r.cells[name_col].text for r in body if name_col < len(r.cells)]
    if _share_naming(names, ("metric",)) > 0.5:
        return False  # rows of R2, RMSE, FID: measured outcomes, whatever the caption calls them
    if _share_naming(heads[name_col + 1 :], ("dataset", "metric")) > 0.5 and not _names_known(body, name_col):
        return False  # models scored on MMLU, HellaSwag, ...: a comparison, though one column counts parameters
    if setting or any(_setting_word(words, h) for h in heads):
        return True
    if _share_naming(names, ("dataset", "method")) > 0.5:
        return False
    plain = {str(w).lower() for w in table_cues().get("plain_value_headers", [])}
    if any(h.lower() in plain for h in heads[name_col + 1 :]) or _mostly_names(body, name_col, heads):
        return True
    value_cols = [c for c in range(name_col + 1, len(heads)) if has_numbers(body, c)]
    metrics = any(m.target[0] == "metric" for h in heads for m in find_entities(h))
    return not metrics and head_share(heads, value_cols) >= 0.5


def _setting_word(words: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first setting word of `text` that does not name a computed quantity: "Number of
    parameters and inference time" and a `Parameters` column count parameters, they set none."""
    if computed(canonical_param(text.strip()) or ""):
        return None  # a `Parameters` or `#Params` column
    counted = [m for m in find_param_mentions(text) if isinstance(m.target, str) and computed(m.target)]
    return next((w for w in words.finditer(text) if not any(m.start <= w.start() < m.end for m in counted)), None)


def _result_at(cap: str) -> int | None:
    """Where the caption first speaks of results: a result word, or a metric it names (`$R^2$ for PDE2`)."""
    word = word_regex(tuple(str(w) for w in table_cues().get("result_words", []))).search(cap)
    # `$R ^ { 2 }$` as converters write it is `R^2` to the alias tables; blanking keeps the offsets.
    plain = re.sub(r"\s*\^\s*\{\s*(\w+)\s*\}", lambda m: "^" + m.group(1).ljust(len(m.group(0)) - 1), cap)
    starts = [m.start for m in find_entities(plain) if m.target[0] == "metric"] + ([word.start()] if word else [])
    return min(starts, default=None)


def _share_naming(names: list[str], categories: tuple[str, ...]) -> float:
    """Share of name cells that name an entity of `categories` (a metric, a dataset, a method); words a
    converter split at a line end (`Hella- Swag`) are joined first."""
    joined = [re.sub(r"(?<=[A-Za-z])- (?=[A-Za-z])", "", n) for n in names]
    return sum(any(m.target[0] in categories for m in find_entities(n)) for n in joined) / max(1, len(names))


def _spread_share(body: list[Row], name_col: int) -> float:
    """Share of numeric value cells written as a measurement with its spread."""
    spread = re.compile(str(table_cues().get("spread_pattern", r"±")))
    cells = [c.text for r in body for c in r.cells[name_col + 1 :] if any(ch.isdigit() for ch in c.text)]
    return sum(bool(spread.search(c)) for c in cells) / max(1, len(cells))


def _mostly_names(body: list[Row], name_col: int, heads: list[str]) -> bool:
    """A name column mostly of parameter names, under value headers that name no metric or dataset."""
    if any(m.target[0] in ("metric", "dataset") for h in heads[name_col + 1 :] for m in find_entities(h)):
        return False
    return _names_known(body, name_col)


def _names_known(body: list[Row], name_col: int) -> bool:
    """Whether enough of the name column are parameter names (`tables.known_share`)."""
    known = 0
    for r in body:
        cell = r.cells[name_col].text if name_col < len(r.cells) else ""
        covered = sum(m.end - m.start for m in find_param_mentions(cell))
        known += covered * 2 >= len(LETTERS.findall(cell))
    return known >= float(table_cues().get("known_share", 0.4)) * max(1, len(body))


def has_numbers(body: list[Row], col: int) -> bool:
    return any(col < len(r.cells) and cell_quantities(r.cells[col].text) for r in body)
