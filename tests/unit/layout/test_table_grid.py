"""Ruled-table grids rebuilt from synthetic rasters drawn with OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pagereader.layout.table_cells import fill_table, tables_from_raster
from pagereader.layout.table_grid import _segments, build_grid, find_ruled_tables
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


# A slide-deck table (PowerPoint's default style): coloured fills, thin white separators, no
# outer border; a dark header with white text whose first cell spans two rows and whose second
# spans the three value columns.
HEADER, BAND_A, BAND_B = (68, 114, 196), (207, 213, 234), (233, 235, 245)
SX = [150, 450, 700, 950, 1200]
SY = [300, 380, 460, 540, 620, 700]


def draw_slide_table(white_lines: bool = True) -> np.ndarray:
    """An RGB slide with a 5x4 filled table; without white lines rows differ by fill only."""
    img = np.full((1000, 1600, 3), 255, np.uint8)
    for r in range(5):
        for c in range(4):
            header = r == 0 or (r == 1 and c == 0)
            fill = HEADER if header else (BAND_A if r % 2 else BAND_B)
            img[SY[r] : SY[r + 1], SX[c] : SX[c + 1]] = fill
    if white_lines:
        for y in SY[2:-1]:
            img[y - 1 : y + 2, SX[0] : SX[-1]] = 255
        img[SY[1] - 1 : SY[1] + 2, SX[1] : SX[-1]] = 255
    for x in SX[2:-1]:
        img[SY[1] : SY[-1], x - 1 : x + 2] = 255
    img[SY[0] : SY[-1], SX[1] - 1 : SX[1] + 2] = 255
    labels = {(0, 0): "Office", (0, 1): "Pages processed", (1, 1): "Q1", (1, 2): "Q2"}
    labels |= {(1, 3): "Q3", (2, 0): "Taipei", (3, 0): "Seoul", (4, 0): "Total"}
    labels |= {(r, c): f"{r}{c},400" for r in (2, 3, 4) for c in (1, 2, 3)}
    for (r, c), text in labels.items():
        ink = (255, 255, 255) if r == 0 else (0, 0, 0)
        org = (SX[c] + 15, SY[r] + 50)
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 2, cv2.LINE_AA)
    cv2.putText(img, "Pages Processed", (150, 150), cv2.FONT_HERSHEY_SIMPLEX, 3, (0, 0, 0), 8)
    return img


def slide_words() -> list[TextLine]:
    """Text-layer words (page units) of the slide table, one per labelled cell."""
    cells = {(0, 0): "Office", (0, 1): "Pages processed", (2, 0): "Taipei", (4, 3): "43,400"}
    cells |= {(1, 1): "Q1", (1, 3): "Q3", (3, 2): "32,400"}
    return [
        TextLine(
            text=text,
            bbox=(
                (SX[c] + 15) / SCALE,
                (SY[r] + 25) / SCALE,
                (SX[c] + 90) / SCALE,
                (SY[r] + 52) / SCALE,
            ),
        )
        for (r, c), text in cells.items()
    ]


@pytest.mark.parametrize("white_lines", [True, False])
def test_slide_table_with_fills_and_white_separators(white_lines: bool) -> None:
    img = draw_slide_table(white_lines)
    boxes = find_ruled_tables(img)
    assert len(boxes) == 1
    assert boxes[0] == pytest.approx((SX[0], SY[0], SX[-1], SY[-1]), abs=4)
    grid = build_grid(img, boxes[0])
    assert (grid.rows, grid.cols) == (5, 4)
    assert [abs(a - b) <= 4 for a, b in zip(grid.ys, SY, strict=True)] == [True] * 6
    spans = {(c.row, c.col): (c.row_span, c.col_span) for c in grid.cells}
    assert spans[(0, 0)] == (2, 1) and spans[(0, 1)] == (1, 3)
    assert len(spans) == 5 * 4 - 1 - 2
    table = fill_table(grid, slide_words(), SCALE)
    texts = {(c.row, c.col): c.text for c in table.cells if c.text}
    assert texts == {
        (0, 0): "Office",
        (0, 1): "Pages processed",
        (1, 1): "Q1",
        (1, 3): "Q3",
        (2, 0): "Taipei",
        (3, 2): "32,400",
        (4, 3): "43,400",
    }


def test_dark_rules_with_a_shaded_header_keep_their_grid() -> None:
    img = draw_table()
    header = img[YS[0] + 2 : YS[1] - 1, XS[0] + 2 : XS[-1] - 1]
    header[header > 128] = 200  # a light gray band behind the header's text
    boxes = find_ruled_tables(img)
    assert len(boxes) == 1
    grid = build_grid(img, boxes[0])
    assert (grid.rows, grid.cols) == (3, 4)
    assert [abs(a - b) <= 3 for a, b in zip(grid.ys, YS, strict=True)] == [True] * 4
    first = grid.cells[0]
    assert (first.row, first.col, first.row_span, first.col_span) == (0, 0, 1, 2)
    assert len(grid.cells) == 11


def test_no_table_in_text_on_tinted_paper_or_in_a_bar_chart() -> None:
    paper = np.full((1100, 1200), 232, np.uint8)
    for i in range(20):
        cv2.putText(
            paper,
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit " * 2,
            (60, 80 + 48 * i),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.9,
            30,
            2,
        )
    noisy = np.clip(paper + np.random.default_rng(1).integers(-6, 7, paper.shape), 0, 255)
    assert find_ruled_tables(paper) == []
    assert find_ruled_tables(noisy.astype(np.uint8)) == []
    chart = np.full((900, 1400, 3), 255, np.uint8)
    for i, top in enumerate((400, 330, 280, 350)):
        chart[top:700, 200 + 250 * i : 380 + 250 * i] = (41, 91, 168)
    cv2.line(chart, (150, 700), (1300, 700), (0, 0, 0), 3)
    cv2.line(chart, (150, 200), (150, 700), (0, 0, 0), 3)
    assert find_ruled_tables(chart) == []


def test_ruling_pieces_are_the_8_connected_components() -> None:
    """The pieces' boxes from border tracing equal a full labelling's, nested pieces and pieces
    joined only at a corner included."""
    mask = np.zeros((200, 300), np.uint8)
    cv2.rectangle(mask, (10, 10), (150, 120), 255, 3)  # a frame with a hole...
    cv2.line(mask, (40, 60), (120, 60), 255, 2)  # ...and a rule inside the hole
    cv2.line(mask, (160, 20), (260, 20), 255, 1)
    mask[21, 261] = 255  # touches the rule above only at a corner
    mask[22, 262:290] = 255
    cv2.rectangle(mask, (200, 100), (280, 180), 255, -1)  # a solid block
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    expected = sorted(
        (float(x), float(y), float(x + w), float(y + h)) for x, y, w, h, _ in stats[1:count]
    )
    pieces = _segments(mask, horizontal=True)
    assert sorted((s[1], s[3], s[2], s[4]) for s in pieces) == expected
    assert len(pieces) == 4


def test_a_band_across_the_slide_is_no_table_cell() -> None:
    """A coloured band runs along the slide's bottom edge, touching the table's last row: the
    table's box stays the table's (a fill that runs off the page is decoration, not a cell)."""
    img = draw_slide_table()
    img[SY[-1] :, :] = (178, 34, 52)
    boxes = find_ruled_tables(img)
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert abs(x0 - SX[0]) <= 6 and abs(x1 - SX[-1]) <= 6
    assert abs(y0 - SY[0]) <= 6 and abs(y1 - SY[-1]) <= 6


def test_a_filled_table_beside_whitespace_is_still_a_table() -> None:
    """Whitespace beside a table (not inside it) parts nothing: only a bare band inside a
    table's box marks side-by-side stacks of boxes (tests/integration/test_real_slide_diagrams.py
    reads such a slide)."""
    img = draw_slide_table()
    wide = np.full((img.shape[0], img.shape[1] + 400, 3), 255, np.uint8)
    wide[:, : img.shape[1]] = img
    assert len(find_ruled_tables(wide)) == 1
