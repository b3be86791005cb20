"""The lines of a picture in reading order: a screenshot of two boxes of code side by side, a
diagram with columns of labels, are read as a page is read (one box at a time, each top down),
never row by row across the boxes as the OCR returns them."""

from __future__ import annotations

from collections.abc import Sequence

from pagereader.layout.line_text import union
from pagereader.layout.paragraphs import paragraph_lines
from pagereader.layout.reading_order import has_grid_row, order_blocks
from pagereader.types import Block, TextLine


def picture_reading_lines(lines: Sequence[TextLine], width: float, height: float) -> list[TextLine]:
    """The lines grouped into paragraphs and the paragraphs put in the page's reading order
    (reading_order.py); a picture with rows of single-line cells (a table, a chart's legend)
    keeps the OCR's order, row by row. ``width`` and ``height`` are the picture's, in the
    lines' units."""
    if len(lines) < 2:
        return list(lines)
    blocks = [
        Block(kind="text", bbox=union([ln.bbox for ln in group]), lines=tuple(group))
        for group in paragraph_lines(lines, height)
    ]
    if has_grid_row(blocks, height):
        return list(lines)
    return [ln for block in order_blocks(blocks, width, height) for ln in block.lines]
