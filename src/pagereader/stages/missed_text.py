"""Text a scan shows but no block holds: lines the text detector did not find.

A scan's lines come from the detector; a line it misses is never read, and the page comes out
a sentence short with nothing said. Here the page's ink is cut into marks (connected
components), the marks of a glyph's size are kept (rules, pictures and specks are not), and
those lying in no block are counted. When they are more than a few, the page carries a warning
saying where they are, so that a person looks at it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

import cv2
import numpy as np

from pagereader.types import BBox, BlockResult

MIN_MARKS = 12
"""Glyph-sized marks outside every block before a page is said to miss text (a short word)."""
MIN_SHARE = 0.03
"""...and their least share of the page's glyph-sized ink."""
_MIN_HEIGHT, _MAX_HEIGHT, _MAX_WIDTH = 0.35, 1.6, 8.0
"""A glyph-sized mark, in line heights: a letter or a syllable up to a few touching letters."""


@dataclass(frozen=True)
class MissedText:
    """Glyph-sized marks in no block: how many, their share of the glyph ink, and where."""

    marks: int
    share: float
    bbox: BBox  # page units

    def note(self) -> str:
        x0, y0, x1, y1 = (round(v) for v in self.bbox)
        return (
            f"{self.marks} glyph-sized marks ({self.share:.0%} of the page's print) lie outside"
            f" every block read, within ({x0}, {y0})-({x1}, {y1}) pt: a line may be missing;"
            " check the page"
        )


def line_height(results: Sequence[BlockResult]) -> float:
    """The median height of the lines read (page units); 0 when none was read."""
    heights = [
        line.bbox[3] - line.bbox[1]
        for result in results
        for line in result.block.lines
        if line.text.strip() and line.bbox[3] > line.bbox[1]
    ]
    return float(median(heights)) if heights else 0.0


def missed_text(
    gray: np.ndarray, unit_scale: float, results: Sequence[BlockResult]
) -> MissedText | None:
    """The glyph-sized marks of ``gray`` (the page's grey analysis copy, ``unit_scale``
    pixels a page unit) outside every block of ``results``, when they are enough to be a
    missed line; None otherwise."""
    boxes = [result.block.bbox for result in results]
    return marks_outside(gray, unit_scale, boxes, line_height(results))


def marks_outside(
    gray: np.ndarray,
    unit_scale: float,
    boxes: Sequence[BBox],
    line_px: float,
    least: tuple[int, float] = (MIN_MARKS, MIN_SHARE),
) -> MissedText | None:
    """The glyph-sized marks of ``gray`` outside every box (page units) for text whose lines
    are ``line_px`` page units high, when they are at least ``least`` (marks, share of the
    glyph ink); None otherwise."""
    height = line_px * unit_scale
    if height < 4 or not gray.size:
        return None
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    count, _, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return None
    _, _, w, h, area = stats[1:].T
    glyph = (h >= _MIN_HEIGHT * height) & (h <= _MAX_HEIGHT * height) & (w <= _MAX_WIDTH * height)
    if not glyph.any():
        return None
    covered = np.zeros(count - 1, dtype=bool)
    pad = 0.25 * height
    cx, cy = centres[1:, 0], centres[1:, 1]
    for box in boxes:
        x0, y0, x1, y1 = (v * unit_scale for v in box)
        covered |= (cx >= x0 - pad) & (cx <= x1 + pad) & (cy >= y0 - pad) & (cy <= y1 + pad)
    missed = glyph & ~covered
    marks = int(missed.sum())
    share = float(area[missed].sum()) / float(area[glyph].sum())
    if marks < least[0] or share < least[1]:
        return None
    left, top = stats[1:, 0][missed], stats[1:, 1][missed]
    right, bottom = left + w[missed], top + h[missed]
    bbox = (
        float(left.min()) / unit_scale,
        float(top.min()) / unit_scale,
        float(right.max()) / unit_scale,
        float(bottom.max()) / unit_scale,
    )
    return MissedText(marks=marks, share=round(share, 3), bbox=bbox)
