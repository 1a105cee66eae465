"""HTML and Markdown tables as grids of cells whose offsets point into the paper text."""

from __future__ import annotations

from sa_align.paper.tables import find_tables, parse_html_table

HTML = (
    'Intro.\n\n<table><tr><th>Group</th><th>Setting</th><th>Small</th><th>Large</th></tr>'
    '<tr><td rowspan="2">Optimizer</td><td>Learning rate</td><td>3e-4</td><td>1e-4</td></tr>'
    '<tr><td>Weight decay &amp; L2</td><td colspan="2">0.1</td></tr></table>\n\nAfter.\n'
)


def texts(table) -> list[list[str]]:
    return [[c.text for c in row.cells] for row in table.rows]


def test_rowspan_and_colspan_fill_every_position_they_cover() -> None:
    (table,) = find_tables(HTML)
    assert table.source == "html" and table.width == 4
    assert texts(table) == [
        ["Group", "Setting", "Small", "Large"],
        ["Optimizer", "Learning rate", "3e-4", "1e-4"],
        ["Optimizer", "Weight decay & L2", "0.1", "0.1"],
    ]
    assert table.rows[0].cells[0].header and not table.rows[1].cells[0].header


def test_cells_and_rows_point_into_the_text() -> None:
    (table,) = find_tables(HTML)
    assert HTML[table.start : table.end].startswith("<table>") and HTML[table.start : table.end].endswith("</table>")
    lr = table.rows[1].cells[2]
    assert HTML[lr.start : lr.end] == "3e-4"
    row = table.rows[1]
    assert HTML[row.start : row.end].startswith("<tr>") and HTML[row.start : row.end].endswith("</tr>")


def test_markdown_pipe_table() -> None:
    text = "# Setup\n\n| Name | Value |\n|---|---|\n| batch size | 256 |\n| warm-up \\| steps | 10k |\n\nDone.\n"
    (table,) = find_tables(text)
    assert table.source == "markdown"
    assert texts(table) == [["Name", "Value"], ["batch size", "256"], ["warm-up | steps", "10k"]]
    cell = table.rows[1].cells[1]
    assert text[cell.start : cell.end] == "256"


def test_broken_markup_still_gives_the_rows_read() -> None:
    text = "<table><tr><td>Epochs<td>100<tr><td>Batch size</td><td>64</td><td>extra</td></tr>\n\nText after."
    (table,) = find_tables(text)
    assert texts(table) == [["Epochs", "100"], ["Batch size", "64", "extra"]]
    assert table.end <= text.index("Text after.")


def test_absurd_spans_are_capped() -> None:
    text = '<table><tr><td rowspan="100000" colspan="-3">x</td><td>1</td></tr></table>'
    table = parse_html_table(text, 0, len(text))
    assert texts(table) == [["x", "1"]]
