"""Ruled tables rebuilt as grids from a page raster, filled with words from OCR or the text layer.

The ruling masks come from table_rulings.py (dark rules, and on slide tables the separators
between filled cells); a filled table's outer box is that of its filled cells. Separator
positions come from the masks' segments; a separator segment missing between two neighbouring
cells means the cells are merged. Filling the cells with words is table_cells.py's job.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from pagereader.layout.table_rulings import Gray, as_gray, background_level, ruling_masks
from pagereader.types import BBox

logger = logging.getLogger(__name__)

_MIN_CELLS = 0.6
"""Least share of a filled table's box that its cell fills cover."""
_Segment = tuple[float, float, float, float, float]
"""A ruling segment: its mid position across, its start and end along its direction, and its
extent across (lowest, highest), which a slightly skewed rule widens."""


@dataclass(frozen=True)
class GridCell:
    """A cell of a grid in pixels, possibly spanning several rows or columns."""

    row: int
    col: int
    row_span: int
    col_span: int
    bbox: BBox


@dataclass(frozen=True)
class Grid:
    """A table's row and column boundaries (pixels) and its cells."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    cells: tuple[GridCell, ...]

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def cols(self) -> int:
        return len(self.xs) - 1


def _segments(mask: Gray, horizontal: bool, dx: int = 0, dy: int = 0) -> list[_Segment]:
    """Connected ruling pieces (8-connected), in the image's coordinates shifted by (dx, dy).

    Each piece's box is its outer border's: the outer contours of a two-level contour tree are
    every connected piece, nested ones too, and tracing borders costs a few percent of
    labelling every pixel of a mostly empty mask (0.2-0.8 ms against 8-10 ms on a page).
    """
    contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is None:
        return []
    boxes = sorted(
        tuple(int(v) for v in cv2.boundingRect(contour))
        for contour, node in zip(contours, tree[0], strict=True)
        if node[3] < 0  # no parent: a piece's outer border, not a hole's
    )
    out: list[_Segment] = []
    for x, y, w, h in boxes:
        x0, y0, x1, y1 = float(x + dx), float(y + dy), float(x + w + dx), float(y + h + dy)
        if horizontal:
            out.append(((y0 + y1) / 2, x0, x1, y0, y1))
        else:
            out.append(((x0 + x1) / 2, y0, y1, x0, x1))
    return out


def _cluster(positions: Sequence[float], tol: float) -> list[float]:
    """Positions closer than ``tol`` merged into their mean."""
    groups: list[list[float]] = []
    for pos in sorted(positions):
        if groups and pos - groups[-1][-1] <= tol:
            groups[-1].append(pos)
        else:
            groups.append([pos])
    return [sum(g) / len(g) for g in groups]


def _meets(along: float, across: float, rules: Sequence[_Segment], tol: float) -> bool:
    """True when the point (along a rule, across it) lies on one of the given rules."""
    return any(
        r[1] - tol <= along <= r[2] + tol and r[3] - tol <= across <= r[4] + tol for r in rules
    )


def _bounds(segs: Sequence[_Segment], low: float, high: float, tol: float) -> list[float]:
    """Rule positions, plus the box edges where no rule lies along them (open tables)."""
    marks = [s[0] for s in segs]
    if not segs or min(s[3] for s in segs) > low + tol:
        marks.append(low)
    if not segs or max(s[4] for s in segs) < high - tol:
        marks.append(high)
    return marks


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _extent(segs: Sequence[_Segment]) -> BBox:
    """The box that rule segments (either direction) reach, as (x0, y0, x1, y1)."""
    xs = [v for s in segs for v in ((s[1], s[2]) if s[4] - s[3] < s[2] - s[1] else (s[3], s[4]))]
    ys = [v for s in segs for v in ((s[3], s[4]) if s[4] - s[3] < s[2] - s[1] else (s[1], s[2]))]
    return (min(xs), min(ys), max(xs), max(ys))


def _filled_share(fills: Gray, box: BBox) -> float:
    """Share of the box covered by filled cells."""
    x0, y0, x1, y1 = (int(v) for v in box)
    patch = fills[y0:y1, x0:x1]
    return cv2.countNonZero(patch) / patch.size if patch.size else 0.0


def find_ruled_tables(gray: Gray) -> list[BBox]:
    """Bounding boxes (pixels) of ruled tables: line networks with at least two rows or columns.

    Side-by-side stacks of boxes (a diagram's two columns, a mapping of one list to another,
    four code boxes) are no table: a band inside them that neither a cell fill nor a rule
    crosses parts them, and their text is read one box, one column at a time.
    """
    gray = as_gray(gray)
    height, width = gray.shape
    h_mask, v_mask, fills = ruling_masks(
        gray, background_level(gray), max(20, width // 30), max(12, height // 80)
    )
    h_segs, v_segs = _segments(h_mask, True), _segments(v_mask, False)
    contours, _ = cv2.findContours(
        cv2.bitwise_or(cv2.bitwise_or(h_mask, v_mask), fills),
        cv2.RETR_EXTERNAL,
        cv2.CHAIN_APPROX_SIMPLE,
    )
    across = np.asarray(cv2.bitwise_or(h_mask, fills), np.uint8)
    tables: list[BBox] = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if w < 0.05 * width or h < 0.01 * height:
            continue
        box = (float(x), float(y), float(x + w), float(y + h))
        if _parted(box, across, max(8, width // 50)):
            continue
        if _grid_shape(box, h_segs, v_segs, fills) is not None and not _ruled_paper(
            box, h_segs, width
        ):
            tables.append(box)
    tables.sort(key=lambda b: (b[1], b[0]))
    logger.debug("found %d ruled tables", len(tables))
    return tables


_SERIES = 5
"""Fewest evenly spaced rules of one length that make a page's ruling (notebook paper)."""


def _ruled_paper(box: BBox, h_segs: Sequence[_Segment], width: int) -> bool:
    """True when the box is one pitch of a ruled page: the page holds an evenly spaced series
    of rules across the box's width (half the page's or more), running on above and below
    it, and the box is no taller than a pitch and a half. Handwriting that touches the rules
    above and below its line draws strokes that look like column rules; a table's cells hold
    text in a grid, and its rules do not continue the paper's."""
    span = box[2] - box[0]
    if span < 0.5 * width:
        return False
    series = _cluster(
        [s[0] for s in h_segs if min(s[2], box[2]) - max(s[1], box[0]) >= 0.8 * span], 2.0
    )
    if len(series) < _SERIES:
        return False
    steps = [b - a for a, b in itertools.pairwise(series)]
    pitch = sorted(steps)[len(steps) // 2]
    if pitch <= 0 or sum(abs(step - pitch) <= 0.2 * pitch for step in steps) < 0.7 * len(steps):
        return False
    above = any(box[1] - 1.6 * pitch <= y < box[1] - 0.5 * pitch for y in series)
    below = any(box[3] + 0.5 * pitch < y <= box[3] + 1.6 * pitch for y in series)
    return above and below and box[3] - box[1] <= 1.5 * pitch


_BARE = 0.05
"""Largest share of a band's height that fills and horizontal rules may cover for the band to
part two stacks of boxes."""


def _parted(box: BBox, across: Gray, min_gap: int) -> bool:
    """True when a vertical band at least ``min_gap`` wide, inside the box, is crossed by
    neither fills nor horizontal rules (``across``: their mask) over most of its height."""
    x0, y0, x1, y1 = (int(v) for v in box)
    patch = across[y0:y1, x0:x1]
    if patch.size == 0:
        return False
    bare = (np.count_nonzero(patch, axis=0) < _BARE * patch.shape[0]).tolist()
    inked = [i for i, empty in enumerate(bare) if not empty]
    if not inked:
        return False
    run = 0
    for empty in bare[inked[0] : inked[-1] + 1]:
        run = run + 1 if empty else 0
        if run >= min_gap:
            return True
    return False


def _grid_shape(
    box: BBox, h_segs: Sequence[_Segment], v_segs: Sequence[_Segment], fills: Gray
) -> tuple[int, int] | None:
    """Row and column boundary counts of the grid in ``box``, or None when it is no table."""
    tol = max(4.0, 0.01 * max(box[2] - box[0], box[3] - box[1]))
    filled = _filled_share(fills, box) >= _MIN_CELLS
    inner_h, inner_v = _joined(
        [s for s in h_segs if _inside(s, box, True)],
        [s for s in v_segs if _inside(s, box, False)],
        box,
        tol,
        filled,
    )
    if inner_h and inner_v and not filled and _area(_extent(inner_h + inner_v)) < 0.9 * _area(box):
        return None  # widened by fills that are too sparse to be a table's cells
    rows = _cluster(_bounds(inner_h, box[1], box[3], tol), tol)
    cols = _cluster(_bounds(inner_v, box[0], box[2], tol), tol)
    fewer, more = sorted((len(rows), len(cols)))
    if inner_h and inner_v and fewer >= 2 and more >= 3:
        return len(rows), len(cols)
    return None


def _inside(seg: _Segment, box: BBox, horizontal: bool) -> bool:
    pos, start, end = seg[:3]
    mid = (start + end) / 2
    x, y = (mid, pos) if horizontal else (pos, mid)
    return box[0] - 2 <= x <= box[2] + 2 and box[1] - 2 <= y <= box[3] + 2


def _coverage(segs: Sequence[_Segment], pos: float, lo: float, hi: float, tol: float) -> float:
    """Share of the stretch [lo, hi] at ``pos`` that ruling segments cover."""
    if hi <= lo:
        return 1.0
    spans = sorted((max(s[1], lo), min(s[2], hi)) for s in segs if abs(s[0] - pos) <= tol)
    covered, reach = 0.0, lo
    for start, end in spans:
        start = max(start, reach)
        if end > start:
            covered += end - start
            reach = end
    return covered / (hi - lo)


def _joined(
    h_all: Sequence[_Segment],
    v_all: Sequence[_Segment],
    box: BBox,
    tol: float,
    filled: bool,
) -> tuple[list[_Segment], list[_Segment]]:
    """The rules of a grid: each end on a crossing rule or on the box's edge.

    A vertical rule runs from one horizontal rule to another (in a filled table, whose outer
    edges may be bare, also from the box's top or to its bottom); a glyph stroke or a picture's
    edge floats in a cell.
    """
    left, top, right, bottom = box
    reach = tol if filled else -1.0
    v_segs = [
        s
        for s in v_all
        if (_meets(s[0], s[1], h_all, tol) or abs(s[1] - top) <= reach)
        and (_meets(s[0], s[2], h_all, tol) or abs(s[2] - bottom) <= reach)
    ]
    h_segs = [
        s
        for s in h_all
        if (_meets(s[0], s[1], v_segs, tol) or abs(s[1] - left) <= tol)
        and (_meets(s[0], s[2], v_segs, tol) or abs(s[2] - right) <= tol)
    ]
    return h_segs, v_segs


def _glyph_stroke(seg: _Segment, words: Sequence[BBox]) -> bool:
    """True when a vertical segment lies inside a word's box and is no taller than the word:
    a letter's stem (the T of a short header row touching both of its rules), not a column
    rule, which runs between words."""
    x, top, bottom = seg[0], seg[1], seg[2]
    for x0, y0, x1, y1 in words:
        margin = max(1.0, 0.05 * (x1 - x0))
        if (
            x0 + margin < x < x1 - margin
            and bottom - top <= y1 - y0
            and y0 <= (top + bottom) / 2 <= y1
        ):
            return True
    return False


def build_grid(gray: Gray, bbox_px: BBox, words: Sequence[BBox] = ()) -> Grid:
    """Row and column boundaries of the ruled table in ``bbox_px``, with merged cells as spans.

    ``words`` (pixel boxes of the table's words, when known) keeps letter stems from being
    taken for column rules."""
    x0, y0 = max(int(bbox_px[0]) - 3, 0), max(int(bbox_px[1]) - 3, 0)
    x1, y1 = (
        min(int(np.ceil(bbox_px[2])) + 4, gray.shape[1]),
        min(int(np.ceil(bbox_px[3])) + 4, gray.shape[0]),
    )
    gray = as_gray(gray)
    pad = 10
    px0, py0 = max(x0 - pad, 0), max(y0 - pad, 0)
    crop = gray[py0 : min(y1 + pad, gray.shape[0]), px0 : min(x1 + pad, gray.shape[1])]
    cw, ch = x1 - x0, y1 - y0
    tol = max(6.0, 0.012 * max(cw, ch))
    h_mask, v_mask, fills = ruling_masks(
        crop, background_level(gray), max(15, cw // 25), max(12, ch // 25)
    )
    inner = (slice(y0 - py0, y1 - py0), slice(x0 - px0, x1 - px0))
    filled = _filled_share(np.ascontiguousarray(fills[inner]), (0, 0, cw, ch)) >= _MIN_CELLS
    h_all = _segments(np.ascontiguousarray(h_mask[inner]), True, x0, y0)
    v_all = _segments(np.ascontiguousarray(v_mask[inner]), False, x0, y0)
    v_all = [s for s in v_all if not _glyph_stroke(s, words)]
    left, top, right, bottom = bbox_px
    h_segs, v_segs = _joined(h_all, v_all, bbox_px, tol, filled)
    xs = _cluster(_bounds(v_segs, left, right, tol), tol)
    ys = _cluster(_bounds(h_segs, top, bottom, tol), tol)
    cells = _spans(xs, ys, h_segs, v_segs, tol)
    return Grid(xs=tuple(xs), ys=tuple(ys), cells=tuple(cells))


def _spans(
    xs: Sequence[float],
    ys: Sequence[float],
    h_segs: Sequence[_Segment],
    v_segs: Sequence[_Segment],
    tol: float,
) -> list[GridCell]:
    """Cells of the grid, merging neighbours whose shared rule is missing."""
    rows, cols = len(ys) - 1, len(xs) - 1
    parent = list(range(rows * cols))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(a: int, b: int) -> None:
        parent[find(a)] = find(b)

    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and _coverage(v_segs, xs[c + 1], ys[r], ys[r + 1], tol) < 0.5:
                join(r * cols + c, r * cols + c + 1)
            if r + 1 < rows and _coverage(h_segs, ys[r + 1], xs[c], xs[c + 1], tol) < 0.5:
                join(r * cols + c, (r + 1) * cols + c)
    changed = True
    while changed:
        changed = False
        for root in {find(i) for i in range(rows * cols)}:
            members = [i for i in range(rows * cols) if find(i) == root]
            if not members:  # joined into another group earlier in this pass
                continue
            r0, r1 = min(i // cols for i in members), max(i // cols for i in members)
            c0, c1 = min(i % cols for i in members), max(i % cols for i in members)
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    if find(r * cols + c) != find(root):
                        join(r * cols + c, root)
                        changed = True
    cells = []
    for root in sorted({find(i) for i in range(rows * cols)}):
        members = [i for i in range(rows * cols) if find(i) == root]
        r0, r1 = min(i // cols for i in members), max(i // cols for i in members)
        c0, c1 = min(i % cols for i in members), max(i % cols for i in members)
        box = (xs[c0], ys[r0], xs[c1 + 1], ys[r1 + 1])
        cells.append(GridCell(r0, c0, r1 - r0 + 1, c1 - c0 + 1, box))
    cells.sort(key=lambda cell: (cell.row, cell.col))
    return cells
