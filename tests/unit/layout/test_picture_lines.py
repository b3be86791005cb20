"""A picture's lines in reading order: boxes side by side one at a time, a table's rows across."""

from __future__ import annotations

from pagereader.layout.picture_lines import picture_reading_lines
from pagereader.types import TextLine


def line(text: str, x: float, y: float, width: float = 150) -> TextLine:
    return TextLine(text=text, bbox=(x, y, x + width, y + 12))


def test_two_boxes_side_by_side_are_read_one_at_a_time() -> None:
    left = [line(f"left {i}", 20, 20 + 16 * i) for i in range(5)]
    right = [line(f"right {i}", 360, 20 + 16 * i) for i in range(5)]
    rows = [ln for pair in zip(left, right, strict=True) for ln in pair]  # as the OCR returns
    ordered = picture_reading_lines(rows, 700)
    assert [ln.text for ln in ordered] == [ln.text for ln in left + right]


def test_a_table_in_a_picture_is_still_read_row_by_row() -> None:
    cells = [line(f"r{r}c{c}", 20 + 120 * c, 20 + 40 * r, 80) for r in range(3) for c in range(4)]
    ordered = picture_reading_lines(cells, 700)
    assert [ln.text for ln in ordered] == [ln.text for ln in cells]


def test_prose_in_a_picture_keeps_its_order() -> None:
    """Wrapped lines of a paragraph, short last lines included: no gap runs down the picture."""
    prose = [line("a long first line of the paragraph", 20, 20, 600), line("end.", 20, 36, 40)]
    prose += [line("the next paragraph starts here and", 20, 52, 600), line("ends", 20, 68, 40)]
    assert picture_reading_lines(prose, 700) == prose
