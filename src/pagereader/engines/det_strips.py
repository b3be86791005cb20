"""Text detection in horizontal strips, so that its working memory has a bound.

The detector's working memory grows with the pixels it reads: at a 1600-pixel side a square
poster is 2.6 M pixels and 0.45 GB of tensors on onnxruntime, about twice that on OpenVINO in
f32, which keeps it after the call. A detection of more than ``STRIP_PIXELS`` is made instead on
full-width strips of the same scale that overlap by ``STRIP_OVERLAP`` pixels. Each strip keeps
the boxes whose centre lies in its own core (the strips' cores tile the page): a line up to
``STRIP_OVERLAP`` pixels tall lies whole inside the strip whose core holds its centre, and any
piece of it that another strip cuts off has its centre outside that strip's core. A page of
letter or A4 proportions is at most 2.0 M pixels at a 1600-pixel side, so it is read whole.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

STRIP_PIXELS = 2_000_000
"""The most pixels (at the detector's scale) the detector reads in one call."""
STRIP_OVERLAP = 96
"""Rows each strip reaches past its core on either side (five lines of 18-pixel body text);
a multiple of 32, the network's stride."""

Boxes = np.ndarray
"""Quadrilaterals, shape (n, 4, 2), in the pixels of the array the detector was given."""
Detector = Callable[[np.ndarray, int], Boxes]
"""The detector: (array, limit of its longest side) -> its boxes in that array's pixels."""


def scaled_size(height: int, width: int, side: int) -> tuple[int, int]:
    """The size the detector reads an array at for ``side`` (its longest side at most ``side``,
    each a multiple of 32), as PP-OCR's own preprocessing computes it."""
    ratio = min(1.0, side / max(height, width))
    return (
        max(32, int(round(int(height * ratio) / 32) * 32)),
        max(32, int(round(int(width * ratio) / 32) * 32)),
    )


def strip_cores(height: int, width: int) -> list[tuple[int, int]]:
    """The row ranges (at the detector's scale) that tile ``height``: one when the whole fits
    in ``STRIP_PIXELS``, else as many equal multiples of 32 as keep each strip under it."""
    if height * width <= STRIP_PIXELS:
        return [(0, height)]
    rows = max(32, (STRIP_PIXELS // width - 2 * STRIP_OVERLAP) // 32 * 32)
    count = math.ceil(height / rows)
    step = math.ceil(height / count / 32) * 32
    return [(top, min(height, top + step)) for top in range(0, height, step)]


def detect_in_strips(detect: Detector, array: np.ndarray, side: int) -> Boxes:
    """The boxes ``detect`` finds on ``array`` at ``side``, in ``array``'s pixels; read whole
    when small enough, else strip by strip (see the module's docstring)."""
    height, width = array.shape[:2]
    scaled_h, scaled_w = scaled_size(height, width, side)
    cores = strip_cores(scaled_h, scaled_w)
    if len(cores) == 1:
        return detect(array, side)
    scaled = cv2.resize(array, (scaled_w, scaled_h))
    found: list[Boxes] = []
    for top, bottom in cores:
        start, end = max(0, top - STRIP_OVERLAP), min(scaled_h, bottom + STRIP_OVERLAP)
        strip = np.ascontiguousarray(scaled[start:end])
        boxes = detect(strip, max(strip.shape[:2]))
        if len(boxes) == 0:
            continue
        boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4, 2)
        boxes[:, :, 1] += start
        centre = boxes[:, :, 1].mean(axis=1)
        found.append(boxes[(centre >= top) & (centre < bottom)])
    if not found:
        return np.zeros((0, 4, 2), np.float32)
    boxes = np.concatenate(found)
    boxes[:, :, 0] *= width / scaled_w
    boxes[:, :, 1] *= height / scaled_h
    return boxes
