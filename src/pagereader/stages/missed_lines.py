"""Lines the page's text detection missed, read from a second detection of where they are.

One detection reads a scan's lines (page_ocr.py). On slanted handwriting it can miss a whole
line or a line's end: the detector, seeing the page shrunk to its input side, merges the line
into its neighbour's ink and then drops it. Where the page's glyph-sized marks outside every
line read are enough to be a missed line (missed_text.py), the area holding them is detected
again on its own, at its own pixels (a finer look than the page's), and the lines
found there that no line of the page already covers join the page's lines. A page whose
detection missed nothing pays one pass over its ink marks.
"""

from __future__ import annotations

import math

from pagereader.config.options import RapidOCREngineOptions
from pagereader.protocols import detected_lines, sort_lines
from pagereader.runtime import Capabilities
from pagereader.sources.base import RenderedPage
from pagereader.stages.classify import analysis_copy
from pagereader.stages.missed_text import marks_outside
from pagereader.stages.page_ocr import STRIP_SCRIPTS
from pagereader.types import BBox, Script, TextLine

MAX_AREA_SHARE = 0.5
"""Largest share of the page the missed marks may spread over: past it they are specks and
pictures over the whole page, not a line."""
MIN_CONFIDENCE = 0.8
"""A line found in the second detection joins the page only when read this surely."""
LEAST_MARKS, LEAST_SHARE = 6, 0.01
"""Glyph-sized marks outside every line, and their share of the glyph ink, from which an area
is detected again: a word or two at a line's end (fewer than a page's warning needs)."""
MAX_SIDE = 1600
"""The second detection sees the area at its own pixels, up to this side (detection_size.py's
bound on the detector's memory)."""
COVERED = 0.3
"""Share of a found line's box that a line already read may cover before it counts as read."""
_MIN_ALNUM = 2


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _shared(a: BBox, b: BBox) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _new(line: TextLine, lines: list[TextLine]) -> bool:
    """Whether the line is text no line read already covers."""
    area = _area(line.bbox) or 1e-9
    sure = line.confidence >= MIN_CONFIDENCE
    text = sum(ch.isalnum() for ch in line.text) >= _MIN_ALNUM
    covered = any(_shared(line.bbox, other.bbox) > COVERED * area for other in lines)
    return sure and text and not covered


_STRAIGHT = 0.2
"""Quantile of the lines' box heights taken as the height of one line of the text: a slanted
line's box is taller than its glyphs, and the straightest lines are the shortest boxes."""


def _straight_height(heights: list[float]) -> float:
    ordered = sorted(heights)
    return ordered[int(_STRAIGHT * (len(ordered) - 1))]


ROUNDS = 2
"""Areas detected again at most: a line found in the first may leave its end to the second."""


def add_missed_lines(
    page: RenderedPage,
    lines: list[TextLine],
    script: Script,
    engines: Capabilities,
    options: RapidOCREngineOptions,
) -> list[TextLine]:
    """``lines`` (page units) with the lines further detections find where the page shows
    glyph-sized marks outside every one of them."""
    for _ in range(ROUNDS):
        more = _missed_lines(page, lines, script, engines, options)
        if len(more) == len(lines):
            break
        lines = more
    return lines


def _missed_lines(
    page: RenderedPage,
    lines: list[TextLine],
    script: Script,
    engines: Capabilities,
    options: RapidOCREngineOptions,
) -> list[TextLine]:
    heights = [ln.bbox[3] - ln.bbox[1] for ln in lines if ln.text.strip()]
    if script in STRIP_SCRIPTS or not heights:
        return lines
    gray, unit_scale = analysis_copy(page)
    height = _straight_height(heights)
    boxes = [ln.bbox for ln in lines]
    missed = marks_outside(gray, unit_scale, boxes, height, (LEAST_MARKS, LEAST_SHARE))
    if missed is None:
        return lines
    pad = height
    x0, y0, x1, y1 = missed.bbox
    box: BBox = (
        max(0.0, x0 - pad),
        max(0.0, y0 - pad),
        min(page.width, x1 + pad),
        min(page.height, y1 + pad),
    )
    if _area(box) > MAX_AREA_SHARE * page.width * page.height:
        return lines
    k = page.scale
    crop = page.image.crop((int(box[0] * k), int(box[1] * k), int(box[2] * k), int(box[3] * k)))
    side = min(MAX_SIDE, max(options.det_limit_side_len, 32 * math.ceil(max(crop.size) / 32)))
    detector = engines.line_detector(options.model_copy(update={"det_limit_side_len": side}))
    reader = engines.script_reader(script, options)
    detection = detector.detect(crop)
    found = detected_lines(detection, reader.read(detector.crop(crop, detection.quads)))
    left, top = int(box[0] * k) / k, int(box[1] * k) / k
    placed = [
        ln.model_copy(
            update={
                "bbox": (
                    left + ln.bbox[0] / k,
                    top + ln.bbox[1] / k,
                    left + ln.bbox[2] / k,
                    top + ln.bbox[3] / k,
                )
            }
        )
        for ln in found
    ]
    new = [ln for ln in placed if _new(ln, lines)]
    return sort_lines([*lines, *new]) if new else lines
