"""The lines of a picture in reading order: a screenshot of two boxes of code side by side, a
diagram with columns of labels, are read one column at a time, each top down, never row by row
across the columns as the OCR returns them. Only a whitespace gap down the whole picture makes
columns, so the lines of prose in a picture keep the OCR's order."""

from __future__ import annotations

from collections.abc import Sequence

from pagereader.types import TextLine

_GAP = 0.01
"""Least gap between columns, as a share of the picture's width."""
_LINES = 2
"""Lines each column holds at least: a lone label beside a box is no column."""
_GRID = 3
"""Columns from which the lines are a table's cells or a chart's legend, read row by row."""


def _columns(lines: Sequence[TextLine], gap: float) -> list[list[TextLine]]:
    """The lines split at every vertical gap wider than ``gap`` running down all of them,
    left to right, each column's lines in the order given."""
    order = sorted(range(len(lines)), key=lambda i: lines[i].bbox[0])
    groups: list[list[int]] = []
    reach = float("-inf")
    for i in order:
        box = lines[i].bbox
        if not groups or box[0] - reach > gap:
            groups.append([])
        groups[-1].append(i)
        reach = max(reach, box[2])
    return [[lines[i] for i in sorted(group)] for group in groups]


def picture_reading_lines(lines: Sequence[TextLine], width: float) -> list[TextLine]:
    """The lines (in the OCR's top-down order) box by box where a gap runs down the whole
    picture between two boxes of several lines each; three columns and more are a table or a
    chart's legend and keep the OCR's order, row by row. ``width`` is the picture's, in the
    lines' units."""
    columns = _columns(lines, _GAP * width)
    if not 2 <= len(columns) < _GRID or any(len(column) < _LINES for column in columns):
        return list(lines)
    return [ln for column in columns for ln in column]
