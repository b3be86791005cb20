"""The table readers and writers: HTML and Markdown out, HTML and Markdown back in."""

from __future__ import annotations

from pagereader.text.tables import (
    html_to_table,
    read_html_tables,
    read_markdown_tables,
    read_tables,
    row_widths,
    slot_rows,
    table_to_html,
    table_to_markdown,
)
from pagereader.types import Table, TableCell


def plain() -> Table:
    texts = [["Name", "Qty"], ["A|B", "3 < 4 & 5"], ["條文", ""]]
    cells = tuple(
        TableCell(row=r, col=c, text=t) for r, row in enumerate(texts) for c, t in enumerate(row)
    )
    return Table(rows=3, cols=2, cells=cells)


def merged() -> Table:
    return Table(
        rows=3,
        cols=3,
        cells=(
            TableCell(row=0, col=0, col_span=2, text="Region"),
            TableCell(row=0, col=2, text="Q1"),
            TableCell(row=1, col=0, row_span=2, text="North\nEast"),
            TableCell(row=1, col=1, text="a"),
            TableCell(row=1, col=2, text="1"),
            TableCell(row=2, col=1, text="b"),
        ),
    )


def test_plain_table_html() -> None:
    assert table_to_html(plain()) == (
        "<table><tr><td>Name</td><td>Qty</td></tr>"
        "<tr><td>A|B</td><td>3 &lt; 4 &amp; 5</td></tr>"
        "<tr><td>條文</td><td></td></tr></table>"
    )


def test_plain_table_markdown() -> None:
    assert table_to_markdown(plain()) == (
        "| Name | Qty |\n| --- | --- |\n| A\\|B | 3 < 4 & 5 |\n| 條文 |  |"
    )


def test_merged_table_html_and_markdown_falls_back_to_html() -> None:
    expected = (
        '<table><tr><td colspan="2">Region</td><td>Q1</td></tr>'
        '<tr><td rowspan="2">North<br>East</td><td>a</td><td>1</td></tr>'
        "<tr><td>b</td><td></td></tr></table>"
    )
    assert table_to_html(merged()) == expected
    assert table_to_markdown(merged()) == expected


def test_round_trip() -> None:
    for table in (plain(), merged()):
        back = html_to_table(table_to_html(table))
        assert (back.rows, back.cols) == (table.rows, table.cols)
        got = {(c.row, c.col, c.row_span, c.col_span, c.text) for c in back.cells if c.text}
        want = {(c.row, c.col, c.row_span, c.col_span, c.text) for c in table.cells if c.text}
        assert got == want


def test_html_to_table_reads_loose_markup() -> None:
    markup = """<p>intro</p><table border=1><thead><tr><th rowspan=3>K</th><th>v</th></tr>
      </thead><tbody><tr><td>  two
      words </td></tr><tr><td colspan="x">bad span</td></tr></tbody></table>"""
    table = html_to_table(markup)
    assert (table.rows, table.cols) == (3, 2)
    assert [(c.row, c.col, c.row_span, c.text) for c in table.cells] == [
        (0, 0, 3, "K"),
        (0, 1, 1, "v"),
        (1, 1, 1, "two words"),
        (2, 1, 1, "bad span"),
    ]


def test_empty() -> None:
    assert html_to_table("no table here") == Table(rows=0, cols=0, cells=())
    assert table_to_markdown(Table(rows=0, cols=0, cells=())) == ""
    assert table_to_html(Table(rows=0, cols=0, cells=())) == "<table></table>"


def cells(table: Table) -> list[list[str]]:
    """Cell texts row by row, read from the cells' own positions."""
    rows: list[list[str]] = [[] for _ in range(table.rows)]
    for cell in sorted(table.cells, key=lambda c: (c.row, c.col)):
        rows[cell.row].append(cell.text)
    return rows


TABLE_A = "| Region | Q1 |\n|---|---|\n| North | 120 |"
TABLE_B = "| Item | Qty | Price |\n|:--|--:|:-:|\n| Pen | 2 | 1.50 |"


def test_prose_line_with_pipes_between_tables_is_not_a_row() -> None:
    tables = read_markdown_tables(f"{TABLE_A}\n\nx | y | z\n\n{TABLE_B}")
    assert [cells(t) for t in tables] == [
        [["Region", "Q1"], ["North", "120"]],
        [["Item", "Qty", "Price"], ["Pen", "2", "1.50"]],
    ]
    assert [(t.rows, t.cols, t.header_rows) for t in tables] == [(2, 2, 1), (2, 3, 1)]


def test_a_table_ends_where_the_next_one_starts() -> None:
    tables = read_markdown_tables(f"{TABLE_A}\n{TABLE_B}")
    assert [t.rows for t in tables] == [2, 2]


def test_markdown_escaped_pipe_stays_in_its_cell() -> None:
    (table,) = read_markdown_tables("| a | b |\n| --- | --- |\n| A\\|B | 3 |")
    assert cells(table) == [["a", "b"], ["A|B", "3"]]
    assert read_markdown_tables(table_to_markdown(plain())) == [
        plain().model_copy(update={"header_rows": 1})
    ]


def test_ragged_markdown_rows_keep_their_width() -> None:
    (table,) = read_markdown_tables("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 |")
    assert row_widths(table) == [2, 3, 1]
    assert table.cols == 3


def test_html_heading_rows_from_thead_or_th_only_rows() -> None:
    head = "<table><thead><tr><td>h</td></tr></thead><tr><td>1</td></tr></table>"
    ths = "<table><tr><th>a</th><th>b</th></tr><tr><th>k</th><td>v</td></tr></table>"
    assert html_to_table(head).header_rows == 1
    assert html_to_table(ths).header_rows == 1
    assert html_to_table("<table><tr><td>1</td></tr></table>").header_rows == 0


def test_read_tables_in_reading_order_nested_and_unclosed() -> None:
    # a nested table's text belongs to its outer cell, as in a browser's text content
    nested = "<table><tr><td>out<table><tr><td>in</td></tr></table></td></tr></table>"
    text = f"{TABLE_B}\n\n{nested}\n\n{TABLE_A}\n\n<table><tr><td>cut"
    tables = read_tables(text)
    assert [cells(t) for t in tables] == [
        [["Item", "Qty", "Price"], ["Pen", "2", "1.50"]],
        [["outin"]],
        [["Region", "Q1"], ["North", "120"]],
        [["cut"]],
    ]
    assert [cells(t) for t in read_tables(text, markdown=False)] == [[["outin"]], [["cut"]]]
    assert [cells(t) for t in read_html_tables(text)] == [[["outin"]], [["cut"]]]


def test_slot_rows_fill_spans() -> None:
    assert slot_rows(merged()) == [["Region", "", "Q1"], ["North\nEast", "a", "1"], ["", "b"]]
