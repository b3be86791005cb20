"""The size a scan's text lines are detected at: one detection a page, made in classify for
the orientation and script probe, then reused by layout and recognition.

Small body text at the detector's default input size gets loose line boxes, and their crops
turn characters into other forms (條 read as 条, 規 as 规), so a page of small print is detected
finer. The decision layer's features say the type size (from ink rows on scans), so the size is
known before the first detection, and no page is detected twice for it.
"""

from __future__ import annotations

import math

from pagereader.config.options import RapidOCREngineOptions
from pagereader.sources.base import RenderedPage

MAX_DETECTION_SIDE = 1600
"""The detector's working memory grows with the square of its input side: 1600 keeps a page at
the pixel budget within the per-page memory bound (2400 took it past 1.5 GB)."""
MIN_DETECTED_TEXT_PX = 18.0
"""Body text smaller than this in the detector's input gets loose line boxes. Sizes are the
decision layer's (from ink rows on scans, which run above the glyphs): A4 print at 10-11 pt
comes to 14-18 pixels at the default detection size, slide type to 24 and more."""


def detection_options(
    page: RenderedPage, font_size_pt: float, base: RapidOCREngineOptions | None = None
) -> RapidOCREngineOptions:
    """The embedded OCR's settings for a scan whose body text is ``font_size_pt`` (0 when
    unknown): its default detection size, or the size at which the body text keeps
    ``MIN_DETECTED_TEXT_PX`` (print on A4 at 200 DPI needs about 1400; slides with their
    large type keep the default). ``base``: the configured embedded OCR."""
    default = base or RapidOCREngineOptions()
    long_px = max(page.image.size)
    if font_size_pt <= 0 or long_px <= default.det_limit_side_len:
        return default
    text_px = font_size_pt / 72.0 * page.units_per_inch * page.scale
    side = math.ceil(MIN_DETECTED_TEXT_PX * long_px / text_px / 32) * 32
    if side <= default.det_limit_side_len:
        return default
    return default.model_copy(update={"det_limit_side_len": min(side, long_px, MAX_DETECTION_SIDE)})
