"""Round brackets in a line crop, found by the shape of their strokes.

A bracket is one tall, narrow stroke that bows: both its edges sit further left at mid-height
than at its ends for ``(``, further right for ``)``. Straight strokes (ㅣ, l, 1) do not bow, and
the strokes of ㅓ and ㅏ bow on one edge only (their short bar sticks out on one side), so the
test of both edges, with a bracket's one thin stroke at mid-height, tells them apart whatever
the font and its size. Knowing where a line's brackets
are lets a reader re-read what they hold (Han characters inside a Korean line).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

BOW = 0.05
"""Both edges of a bracket bow by at least this share of its height (a printed bracket bows
0.07-0.17 on 150-200 DPI scans; the bar of ㅓ or ㅏ moves one edge only)."""
NARROW = 0.45
"""A bracket is at most this wide for its height."""
THIN = 0.25
"""At mid-height a bracket's ink spans at most this share of its height: one stroke, blurred or
bold (0.1-0.15), where the bar of ㅏ or ㅓ spans a third of it and more (a serif font's stem
may bow both ways at its ends, so the bow alone does not tell)."""
TALL = 0.7
"""A bracket is at least this share of the line's tall strokes' height."""
MAX_SPAN = 12.0
"""A bracketed span is at most this many line heights long (a word or a short phrase)."""


@dataclass(frozen=True)
class Bracket:
    """One bracket's kind, its ink's columns in the crop (``right`` exclusive) and height."""

    kind: Literal["(", ")"]
    left: int
    right: int
    height: int


def ink(crop: np.ndarray) -> np.ndarray:
    """The crop's dark pixels (Otsu's threshold on grey), as a 0/1 uint8 array."""
    import cv2

    grey = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    _, dark = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    return np.asarray(dark, dtype=np.uint8)


def _edges(mask: np.ndarray, top: float, bottom: float) -> tuple[float, float] | None:
    """The leftmost and rightmost ink column of a band of ``mask``'s rows (shares of its height)."""
    height = mask.shape[0]
    start = int(top * height)
    band = mask[start : max(start + 1, int(bottom * height))]
    cols = np.flatnonzero(band.any(axis=0))
    return (float(cols[0]), float(cols[-1])) if len(cols) else None


def _bow(mask: np.ndarray) -> Literal["(", ")"] | None:
    ends = _edges(mask, 0.0, 0.15), _edges(mask, 0.85, 1.0)
    middle = _edges(mask, 0.4, 0.6)
    if ends[0] is None or ends[1] is None or middle is None:
        return None
    if middle[1] - middle[0] + 1 > THIN * mask.shape[0]:
        return None
    height = mask.shape[0]
    left = ((ends[0][0] + ends[1][0]) / 2 - middle[0]) / height
    right = ((ends[0][1] + ends[1][1]) / 2 - middle[1]) / height
    if min(left, right) >= BOW:
        return "("
    if max(left, right) <= -BOW:
        return ")"
    return None


def find_brackets(dark: np.ndarray) -> list[Bracket]:
    """The round brackets of one line's ink (see :func:`ink`), left to right."""
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    sizes = [int(stats[i, 3]) for i in range(1, count) if stats[i, 4] > 3]
    if not sizes:
        return []
    tall = float(np.percentile(sizes, 90))
    found = []
    for index in range(1, count):
        x, y, width, height, area = (int(v) for v in stats[index])
        if area <= 3 or width < 2 or width > NARROW * height or height < TALL * tall:
            continue
        kind = _bow(labels[y : y + height, x : x + width] == index)
        if kind is not None:
            found.append(Bracket(kind, x, x + width, height))
    return sorted(found, key=lambda b: b.left)


def bracket_spans(brackets: list[Bracket], height: int) -> list[tuple[Bracket, Bracket]]:
    """Each ``(`` with the first ``)`` after it; an opening met again before a close starts the
    span anew, and a span longer than ``MAX_SPAN`` line heights is none."""
    spans: list[tuple[Bracket, Bracket]] = []
    opening: Bracket | None = None
    for bracket in brackets:
        if bracket.kind == "(":
            opening = bracket
        elif opening is not None:
            if bracket.right - opening.left <= MAX_SPAN * height:
                spans.append((opening, bracket))
            opening = None
    return spans
