"""Ruled-table grids rebuilt from synthetic rasters drawn with OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pagereader.layout.table_grid import (
    build_grid,
    fill_table,
    find_ruled_tables,
    tables_from_raster,
)
from pagereader.types import TextLine

SCALE = 2.0  # pixels per page unit
XS = [100, 300, 500, 700, 900]
YS = [200, 260, 320, 380]


def draw_table(merge_header: bool = True, row_span: bool = False) -> np.ndarray:
    """A 3x4 ruled table; the header's first two cells merged; optionally a row span."""
    img = np.full((900, 1200), 255, np.uint8)
    for y in YS:
        cv2.line(img, (XS[0], y), (XS[-1], y), 0, 2)
    for x in XS:
        cv2.line(img, (x, YS[0]), (x, YS[-1]), 0, 2)
    if merge_header:
        img[YS[0] + 2 : YS[1] - 1, XS[1] - 2 : XS[1] + 3] = 255
    if row_span:
        img[YS[1] - 2 : YS[1] + 3, XS[3] + 2 : XS[4] - 1] = 255
    labels = {
        (0, 0): "Region",
        (0, 2): "Q1",
        (0, 3): "Q2",
        (1, 0): "North",
        (1, 1): "lilt",
        (1, 2): "10",
        (1, 3): "12",
        (2, 0): "South",
        (2, 1): "II",
        (2, 2): "7",
        (2, 3): "9",
    }
    for (r, c), text in labels.items():
        cv2.putText(img, text, (XS[c] + 12, YS[r] + 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    cv2.putText(
        img, "Some body text under the table", (100, 500), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2
    )
    return img


def word(text: str, r: int, c: int, dx: float = 0.0) -> TextLine:
    """A word box (page units) inside cell (r, c) of the drawn grid."""
    x0 = (XS[c] + 12) / SCALE + dx
    y0 = (YS[r] + 15) / SCALE
    return TextLine(text=text, bbox=(x0, y0, x0 + 30, y0 + 14))


def test_find_ruled_table() -> None:
    boxes = find_ruled_tables(draw_table())
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert abs(x0 - 100) <= 5 and abs(y0 - 200) <= 5 and abs(x1 - 900) <= 5 and abs(y1 - 380) <= 5


def test_no_table_on_text_or_blank_page() -> None:
    img = np.full((900, 1200), 255, np.uint8)
    assert find_ruled_tables(img) == []
    cv2.putText(img, "Just text, I lIl |", (100, 300), cv2.FONT_HERSHEY_SIMPLEX, 1.5, 0, 3)
    cv2.rectangle(img, (80, 500), (600, 700), 0, 2)  # a frame is not a table
    assert find_ruled_tables(img) == []


def test_grid_with_merged_header_and_cell_texts() -> None:
    img = draw_table()
    grid = build_grid(img, find_ruled_tables(img)[0])
    assert (grid.rows, grid.cols) == (3, 4)
    assert [abs(a - b) <= 3 for a, b in zip(grid.xs, XS, strict=True)] == [True] * 5
    spans = [(c.row, c.col, c.row_span, c.col_span) for c in grid.cells]
    assert spans[0] == (0, 0, 1, 2)
    assert len(spans) == 11
    words = [
        word("Region", 0, 0),
        word("by", 0, 0, dx=35),
        word("area", 0, 1),
        word("Q1", 0, 2),
        word("Q2", 0, 3),
        word("North", 1, 0),
        word("east", 1, 1),
        word("10", 1, 2),
        word("12", 1, 3),
        word("South", 2, 0),
        word("west", 2, 1),
        word("7", 2, 2),
        word("9", 2, 3),
        word("outside", 0, 0, dx=-200),
    ]
    table = fill_table(grid, words, SCALE)
    assert (table.rows, table.cols) == (3, 4)
    grid_text = {(c.row, c.col): c.text for c in table.cells}
    assert grid_text == {
        (0, 0): "Region by area",
        (0, 2): "Q1",
        (0, 3): "Q2",
        (1, 0): "North",
        (1, 1): "east",
        (1, 2): "10",
        (1, 3): "12",
        (2, 0): "South",
        (2, 1): "west",
        (2, 2): "7",
        (2, 3): "9",
    }
    first = table.cells[0]
    assert first.bbox == pytest.approx((50, 100, 250, 130), abs=2)


def test_row_span() -> None:
    img = draw_table(merge_header=False, row_span=True)
    grid = build_grid(img, find_ruled_tables(img)[0])
    spans = {(c.row, c.col): (c.row_span, c.col_span) for c in grid.cells}
    assert spans[(0, 3)] == (2, 1)
    assert (1, 3) not in spans
    assert len(spans) == 11


def test_skewed_scan_keeps_structure() -> None:
    img = draw_table()
    rot = cv2.getRotationMatrix2D((600, 450), 1.0, 1.0)
    img = cv2.warpAffine(img, rot, (1200, 900), borderValue=255)
    rng = np.random.default_rng(0)
    noisy = np.clip(img.astype(np.int16) + rng.integers(-40, 40, img.shape), 0, 255)
    img = cv2.GaussianBlur(noisy.astype(np.uint8), (3, 3), 0)
    boxes = find_ruled_tables(img)
    assert len(boxes) == 1
    grid = build_grid(img, boxes[0])
    assert (grid.rows, grid.cols) == (3, 4)
    first = grid.cells[0]
    assert (first.row, first.col, first.row_span, first.col_span) == (0, 0, 1, 2)


def test_text_layer_line_across_rules_is_split_by_char_boxes() -> None:
    img = draw_table()
    # One text-layer line covering cells (1,2) and (1,3): "10   12" with per-character boxes.
    text = "10   12"
    x_start = (XS[2] + 12) / SCALE
    char_w = ((XS[3] + 20) / SCALE - x_start) / 5
    boxes = tuple(
        (x_start + i * char_w, 135.0, x_start + (i + 1) * char_w, 149.0) for i in range(7)
    )
    line = TextLine(text=text, bbox=(boxes[0][0], 135, boxes[-1][2], 149), char_boxes=boxes)
    cjk = TextLine(text="北部地區", bbox=(XS[0] / SCALE + 5, 165, XS[1] / SCALE - 5, 179))
    tables = tables_from_raster(img, [line, cjk], SCALE)
    assert len(tables) == 1
    box, table = tables[0]
    assert box == pytest.approx((50, 100, 450, 190), abs=2)
    texts = {(c.row, c.col): c.text for c in table.cells if c.text}
    assert texts == {(1, 2): "10", (1, 3): "12", (2, 0): "北部地區"}
