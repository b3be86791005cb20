"""Where a table's rules are, as masks of a page raster.

Rulings are found by morphological opening with long thin kernels: what survives a horizontal
kernel is a horizontal line, likewise vertical. Solid dark fills are taken out of the ink first,
so a dark header row is not mistaken for a thick rule. Slide-deck tables fill their cells with
colour and part them with thin white lines, or with nothing but a change of fill: there a rule is
a thin line lighter or darker than the smooth fill on both sides of it, or the edge between two
different fills.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Gray = npt.NDArray[np.uint8]

_SMOOTH = 8
"""Widest range of gray levels in a 5x5 patch of a flat cell fill."""
_CONTRAST = 14
"""Least gray-level difference that sets a fill off the background, or one fill off another."""
_LINE = 8
"""Least gray-level difference between a thin separator line and the fills on both sides."""
_EDGE_SLACK = 6
"""Pixels from the raster's edge within which a fill counts as running off the page."""
_MIN_FILL = 0.002
"""Share of the raster below which flat fills are too few to hold a filled table."""


def as_gray(image: npt.NDArray[np.generic]) -> Gray:
    """A single-channel uint8 view of a page raster (RGB, RGBA or gray)."""
    array = np.asarray(image)
    if array.ndim == 3:
        code = cv2.COLOR_RGBA2GRAY if array.shape[2] == 4 else cv2.COLOR_RGB2GRAY
        array = cv2.cvtColor(array.astype(np.uint8), code)
    return np.asarray(array, dtype=np.uint8)


def _binary(gray: Gray) -> Gray:
    """Ink as 255 on 0, by Otsu's threshold; an even image has no ink."""
    gray = as_gray(gray)
    if gray.size == 0 or int(gray.max()) - int(gray.min()) < 32:
        return np.zeros_like(gray)
    _, bw = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    return np.asarray(bw, dtype=np.uint8)


def _without_solids(bw: Gray, size: int) -> Gray:
    """Ink less its solid areas (where a ``size`` square fits): fills, bars, not rules."""
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    solid = cv2.dilate(cv2.morphologyEx(bw, cv2.MORPH_OPEN, square), np.ones((5, 5), np.uint8))
    return np.asarray(cv2.bitwise_and(bw, cv2.bitwise_not(solid)), dtype=np.uint8)


def _rulings(bw: Gray, length: int, horizontal: bool) -> Gray:
    """Keep only straight runs of ink at least ``length`` pixels long in one direction."""
    size = (max(length, 2), 1) if horizontal else (1, max(length, 2))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, size)
    opened = cv2.morphologyEx(bw, cv2.MORPH_OPEN, kernel)
    grown = cv2.dilate(opened, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    return np.asarray(grown, dtype=np.uint8)


def background_level(gray: Gray) -> int:
    """The most common gray level of the page's margins: paper, or a slide's background.

    The margins rather than the whole page, since a large tinted panel can outweigh the paper.
    """
    if not gray.size:
        return 255
    m = max(2, min(gray.shape) // 50)
    ring = np.concatenate(
        [gray[:m].ravel(), gray[-m:].ravel(), gray[:, :m].ravel(), gray[:, -m:].ravel()]
    )
    return int(np.bincount(ring, minlength=256).argmax())


def _filled(smooth: Gray, background: int) -> Gray:
    """Flat areas clearly off the background, as 255: coloured cell fills.

    Flat means a small range of gray levels in a 5x5 patch; the limit grows with the noise of
    the background (a scan's grain).
    """
    spread = cv2.morphologyEx(smooth, cv2.MORPH_GRADIENT, np.ones((5, 5), np.uint8))
    off = cv2.absdiff(cv2.blur(smooth, (5, 5)), np.full_like(smooth, background))
    near = np.asarray(off <= _CONTRAST, dtype=np.uint8)  # a histogram under a mask: no
    # copy of the page's pixels widened to 64 bits, as np.bincount would make
    counts = cv2.calcHist([spread], [0], near, [256], [0, 256]).ravel()
    grain = np.rint(counts).astype(np.int64).cumsum()
    limit = _SMOOTH if grain[-1] == 0 else max(_SMOOTH, 2 + np.searchsorted(grain, 0.9 * grain[-1]))
    return np.where((spread <= limit) & (off > _CONTRAST), 255, 0).astype(np.uint8)


def _inner(filled: Gray) -> Gray:
    """The fills that do not reach the raster's edge: a slide's coloured band, a backdrop
    picture's flat tint or a page-wide panel runs off the page, a table's cells do not (kept,
    they would join two tables and everything between them into one)."""
    count, labels = cv2.connectedComponents(filled, connectivity=8)
    if count <= 1:
        return filled
    # a fill reaches the edge when one of its pixels lies in the frame _EDGE_SLACK + 1 pixels
    # wide (the 5x5 flatness test leaves a fill a few pixels short of the edge): the labels
    # seen there, read without the per-component boxes (7-10x the labelling's time)
    band = _EDGE_SLACK + 1
    edge = np.zeros(count, dtype=bool)
    for frame in (labels[:band], labels[-band:], labels[:, :band], labels[:, -band:]):
        edge[frame] = True
    edge[0] = True  # label 0 is what is not filled
    kept = np.where(edge, 0, 255).astype(np.uint8)  # by label: one lookup per pixel
    return np.asarray(kept[labels], dtype=np.uint8)


def _fill_edges(smooth: Gray, filled: Gray, horizontal: bool) -> Gray:
    """Pixels between two fills that are a thin line off both, or the step from one to the other."""
    found = np.zeros_like(smooth)
    for d in (3, 4, 6):
        if horizontal:
            mid, before, after = smooth[d:-d], smooth[: -2 * d], smooth[2 * d :]
            both = cv2.bitwise_and(filled[: -2 * d], filled[2 * d :])
            out = found[d:-d]
        else:
            mid, before, after = smooth[:, d:-d], smooth[:, : -2 * d], smooth[:, 2 * d :]
            both = cv2.bitwise_and(filled[:, : -2 * d], filled[:, 2 * d :])
            out = found[:, d:-d]
        lighter = cv2.subtract(mid, cv2.max(before, after))
        darker = cv2.subtract(cv2.min(before, after), mid)
        step = cv2.absdiff(before, after)
        off = (cv2.max(lighter, darker) > _LINE) | (step > _CONTRAST)
        out[off & (both > 0)] = 255
    return found


def ruling_masks(gray: Gray, background: int, h_len: int, v_len: int) -> tuple[Gray, Gray, Gray]:
    """Horizontal and vertical ruling masks (dark rules and fill separators) and the fills.

    Ink inside filled areas (text on a fill, the gaps between white letters on a dark header)
    is left out: a rule there runs between two fills, and the fill separators find it.
    """
    bw = _without_solids(_binary(gray), max(15, min(gray.shape) // 60))
    smooth = np.asarray(cv2.GaussianBlur(gray, (3, 3), 0), dtype=np.uint8)
    filled = _inner(_filled(smooth, background))
    if cv2.countNonZero(filled) < _MIN_FILL * filled.size:
        empty = np.zeros_like(filled)
        return _rulings(bw, h_len, True), _rulings(bw, v_len, False), empty
    fills = np.asarray(
        cv2.morphologyEx(filled, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8)), dtype=np.uint8
    )
    bw = np.asarray(cv2.bitwise_and(bw, cv2.bitwise_not(fills)), dtype=np.uint8)
    h_edges, v_edges = _fill_edges(smooth, filled, True), _fill_edges(smooth, filled, False)
    h_mask = _rulings(np.asarray(cv2.bitwise_or(bw, h_edges), dtype=np.uint8), h_len, True)
    v_mask = _rulings(np.asarray(cv2.bitwise_or(bw, v_edges), dtype=np.uint8), v_len, False)
    return h_mask, v_mask, fills
