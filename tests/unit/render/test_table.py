"""Table rendering to HTML and Markdown, and HTML read back."""

from __future__ import annotations

from pagereader.render.table import html_to_table, table_to_html, table_to_markdown
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
