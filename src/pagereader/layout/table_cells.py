"""Words into the cells of a ruled grid: each word (page units) goes to the cell holding its
centre; a text-layer or OCR line that runs across a column rule is cut there using its
character boxes (estimated when it has none)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from pagereader.layout.line_text import join_lines, union
from pagereader.layout.table_grid import Grid, build_grid, find_ruled_tables
from pagereader.layout.table_rulings import Gray
from pagereader.layout.table_stacked import split_stacked_rows
from pagereader.types import BBox, Table, TableCell, TextLine


def _char_boxes(word: TextLine) -> list[BBox]:
    """The word's character boxes, or boxes estimated from character widths (CJK counts two)."""
    if len(word.char_boxes) == len(word.text):
        return list(word.char_boxes)
    weights = [2.0 if ord(ch) > 0x2E80 else 1.0 for ch in word.text]
    total = sum(weights) or 1.0
    x0, y0, x1, y1 = word.bbox
    boxes, at = [], x0
    for weight in weights:
        step = (x1 - x0) * weight / total
        boxes.append((at, y0, at + step, y1))
        at += step
    return boxes


def _cell_index(grid: Grid, owner: dict[tuple[int, int], int], x: float, y: float) -> int:
    """Index of the cell holding pixel (x, y), or -1 outside the grid."""
    if not (grid.xs[0] <= x <= grid.xs[-1] and grid.ys[0] <= y <= grid.ys[-1]):
        return -1
    col = min(max(bisect.bisect_right(grid.xs, x) - 1, 0), grid.cols - 1)
    row = min(max(bisect.bisect_right(grid.ys, y) - 1, 0), grid.rows - 1)
    return owner.get((row, col), -1)


def _pieces(
    word: TextLine, grid: Grid, owner: dict[tuple[int, int], int], scale: float
) -> list[tuple[int, TextLine]]:
    """The word, or its parts when it runs across cells, each with the cell it falls in."""
    x0, y0, x1, y1 = word.bbox
    cy = (y0 + y1) / 2 * scale
    crosses = any(x0 * scale + 2 < x < x1 * scale - 2 for x in grid.xs[1:-1])
    if not crosses:
        return [(_cell_index(grid, owner, (x0 + x1) / 2 * scale, cy), word)]
    runs: list[tuple[int, list[str], list[BBox]]] = []
    for ch, box in zip(word.text, _char_boxes(word), strict=True):
        cell = _cell_index(grid, owner, (box[0] + box[2]) / 2 * scale, cy)
        if runs and runs[-1][0] == cell:
            runs[-1][1].append(ch)
            runs[-1][2].append(box)
        else:
            runs.append((cell, [ch], [box]))
    return [
        (cell, TextLine(text="".join(chars).strip(), bbox=union(boxes), confidence=word.confidence))
        for cell, chars, boxes in runs
        if "".join(chars).strip()
    ]


def _reading_order(words: list[TextLine]) -> list[TextLine]:
    """Words of one cell in rows top to bottom, each row left to right."""
    rows: list[list[TextLine]] = []
    for word in sorted(words, key=lambda w: (w.bbox[1] + w.bbox[3]) / 2):
        mid = (word.bbox[1] + word.bbox[3]) / 2
        if rows and rows[-1][-1].bbox[1] <= mid <= rows[-1][-1].bbox[3]:
            rows[-1].append(word)
        else:
            rows.append([word])
    return [w for row in rows for w in sorted(row, key=lambda w: w.bbox[0])]


def _place(grid: Grid, words: Sequence[TextLine], scale: float) -> list[list[TextLine]]:
    """The words (page units), cut at column rules, that each cell of the grid holds."""
    owner: dict[tuple[int, int], int] = {}
    for index, cell in enumerate(grid.cells):
        for r in range(cell.row, cell.row + cell.row_span):
            for c in range(cell.col, cell.col + cell.col_span):
                owner[(r, c)] = index
    found: list[list[TextLine]] = [[] for _ in grid.cells]
    for word in words:
        if not word.text.strip():
            continue
        for index, piece in _pieces(word, grid, owner, scale):
            if index >= 0:
                found[index].append(piece)
    return found


def _scaled(word: TextLine, scale: float) -> TextLine:
    x0, y0, x1, y1 = word.bbox
    return word.model_copy(update={"bbox": (x0 * scale, y0 * scale, x1 * scale, y1 * scale)})


def fill_table(grid: Grid, words: Sequence[TextLine], scale: float) -> Table:
    """Place words (page units) into the grid's cells (pixels, ``scale`` pixels per unit);
    a ruled row of stacked records becomes a row per record first."""
    found = _place(grid, words, scale)
    split = split_stacked_rows(grid, [[_scaled(w, scale) for w in cell] for cell in found])
    if split is not grid:
        grid = split
        found = _place(grid, words, scale)
    cells = tuple(
        TableCell(
            row=cell.row,
            col=cell.col,
            row_span=cell.row_span,
            col_span=cell.col_span,
            text=join_lines(_reading_order(found[index])),
            bbox=(
                cell.bbox[0] / scale,
                cell.bbox[1] / scale,
                cell.bbox[2] / scale,
                cell.bbox[3] / scale,
            ),
        )
        for index, cell in enumerate(grid.cells)
    )
    top = [cell.row_span for cell in cells if cell.row == 0]
    header_rows = max(top) if top and grid.rows > 2 and max(top) < grid.rows else 1
    return Table(rows=grid.rows, cols=grid.cols, cells=cells, header_rows=header_rows)


def tables_from_raster(
    gray: Gray, words: Sequence[TextLine], scale: float
) -> list[tuple[BBox, Table]]:
    """Every ruled table of a page raster, with its box in page units and its filled grid."""
    out = []
    for box in find_ruled_tables(gray):
        grid = build_grid(gray, box, [_scaled(w, scale).bbox for w in words])
        if grid.rows < 1 or grid.cols < 1:
            continue
        page_box = (box[0] / scale, box[1] / scale, box[2] / scale, box[3] / scale)
        out.append((page_box, fill_table(grid, words, scale)))
    return out
