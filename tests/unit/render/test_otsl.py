"""OTSL answers (PaddleOCR-VL tables) become tables with their spans."""

from __future__ import annotations

from pagereader.render.otsl import is_otsl, otsl_to_table
from pagereader.text.tables import table_to_html


def test_spans_and_empty_cells() -> None:
    answer = (
        "<fcel>Office<fcel>Pages processed<lcel><lcel><nl>"
        "<ucel><fcel>Q1<fcel>Q2<fcel>Q3<nl>"
        "<fcel>Taipei<fcel>12,400<ecel><fcel>15,200<nl>"
    )
    assert is_otsl(answer)
    table = otsl_to_table(answer)
    assert (table.rows, table.cols) == (3, 4)
    spans = {(c.row, c.col): (c.row_span, c.col_span, c.text) for c in table.cells}
    assert spans[(0, 0)] == (2, 1, "Office")
    assert spans[(0, 1)] == (1, 3, "Pages processed")
    assert spans[(2, 2)] == (1, 1, "")
    assert table_to_html(table).startswith(
        '<table><tr><th rowspan="2">Office</th><th colspan="3">Pages processed</th></tr>'
    )


def test_plain_text_is_not_otsl() -> None:
    assert not is_otsl("| a | b |\n| --- | --- |")
    assert otsl_to_table("").rows == 0
