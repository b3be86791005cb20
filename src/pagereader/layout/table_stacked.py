"""Ruled rows that hold several records: a table that draws a rule only under each group of
rows (two models' scores per setting, one above the other) has lines in its cells that line up
across the row. Each such line is a row of its own; a cell holding one line centred in the
group (the setting both records share) spans them.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence

from pagereader.layout.table_grid import Grid, GridCell
from pagereader.types import TextLine

_MIN_STACKED = 3
"""Fewest cells of a ruled row that must hold the same number of aligned lines."""


def _lines(words: Sequence[TextLine]) -> list[tuple[float, float]]:
    """The text lines of one cell's words (pixels): each its centre and height."""
    rows: list[list[TextLine]] = []
    for word in sorted(words, key=lambda w: (w.bbox[1] + w.bbox[3]) / 2):
        mid = (word.bbox[1] + word.bbox[3]) / 2
        if rows and rows[-1][-1].bbox[1] <= mid <= rows[-1][-1].bbox[3]:
            rows[-1].append(word)
        else:
            rows.append([word])
    return [
        (
            statistics.fmean((w.bbox[1] + w.bbox[3]) / 2 for w in row),
            statistics.fmean(w.bbox[3] - w.bbox[1] for w in row),
        )
        for row in rows
    ]


def _centres(per_cell: Sequence[list[tuple[float, float]]]) -> list[float] | None:
    """Centres of the sub-rows of one ruled row, or None when its cells do not hold the same
    number of lines lined up across the row."""
    stacked = [lines for lines in per_cell if len(lines) >= 2]
    if len(stacked) < _MIN_STACKED or len({len(lines) for lines in stacked}) != 1:
        return None
    height = statistics.median(h for lines in stacked for _, h in lines)
    centres = []
    for i in range(len(stacked[0])):
        at = [lines[i][0] for lines in stacked]
        if max(at) - min(at) > 0.4 * height:
            return None
        centres.append(statistics.fmean(at))
    if any(b - a < 0.8 * height for a, b in itertools.pairwise(centres)):
        return None
    for lines in per_cell:
        if len(lines) == 1:
            y = lines[0][0]
            mid = statistics.fmean(centres)
            if abs(y - mid) > 0.4 * height and min(abs(y - c) for c in centres) > 0.4 * height:
                return None  # a lone line neither centred nor on a sub-row: no stacked records
    return centres


def split_stacked_rows(grid: Grid, words_by_cell: Sequence[Sequence[TextLine]]) -> Grid:
    """The grid with each ruled row of stacked records cut into one row per record
    (``words_by_cell``: the words, pixels, that each of ``grid.cells`` holds)."""
    cuts: dict[int, list[float]] = {}
    for r in range(grid.rows):
        per_cell = [
            _lines(words_by_cell[i])
            for i, cell in enumerate(grid.cells)
            if cell.row == r and cell.row_span == 1 and words_by_cell[i]
        ]
        centres = _centres(per_cell)
        if centres is not None:
            cuts[r] = [(a + b) / 2 for a, b in itertools.pairwise(centres)]
    if not cuts:
        return grid
    start: list[int] = []
    ys: list[float] = []
    for r in range(grid.rows):
        start.append(len(ys))
        ys.append(grid.ys[r])
        ys.extend(cuts.get(r, []))
    ys.append(grid.ys[-1])
    start.append(len(ys) - 1)
    cells: list[GridCell] = []
    for i, cell in enumerate(grid.cells):
        first, end = start[cell.row], start[cell.row + cell.row_span]
        x0, x1 = cell.bbox[0], cell.bbox[2]
        lines = _lines(words_by_cell[i])
        centred = len(lines) == 1 and cell.row in cuts and cell.row_span == 1
        if (
            cell.row_span == 1
            and cell.row in cuts
            and not (centred and _centred(lines, ys, first, end))
        ):
            for k in range(first, end):
                cells.append(GridCell(k, cell.col, 1, cell.col_span, (x0, ys[k], x1, ys[k + 1])))
        else:
            box = (x0, ys[first], x1, ys[end])
            cells.append(GridCell(first, cell.col, end - first, cell.col_span, box))
    cells.sort(key=lambda c: (c.row, c.col))
    return Grid(xs=grid.xs, ys=tuple(ys), cells=tuple(cells))


def _centred(
    lines: Sequence[tuple[float, float]], ys: Sequence[float], first: int, end: int
) -> bool:
    """True when a cell's one line sits nearer the middle of its ruled row than any sub-row's."""
    y = lines[0][0]
    mids = [(ys[k] + ys[k + 1]) / 2 for k in range(first, end)]
    return abs(y - (ys[first] + ys[end]) / 2) < min(abs(y - m) for m in mids)
