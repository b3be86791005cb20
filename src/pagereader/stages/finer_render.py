"""A block's region rendered afresh with more pixels, for verify's retry.

A crop already under its request's pixel budget reaches a served model at the same visual tokens
whatever the budget, so a retry "with more pixels" of the page raster's crop would repeat the
request. A PDF page (and a converted Office page) can be rendered again: the retry then sends
the block's region at about the raised budget's pixels, from a fresh render at a finer scale,
never past ``MAX_RETRY_DPI`` nor the pixel budget. Scans and images have no finer pixels.
"""

from __future__ import annotations

import asyncio
import math

from PIL import Image

from pagereader.stages.recognize import lines_over, paint_out
from pagereader.stages.state import PageState
from pagereader.types import BBox, Block

MAX_RETRY_DPI = 600.0
"""The finest render a retry asks for: past it a crop only grows."""
_MIN_GAIN = 1.05


def region_of(box_px: tuple[int, int, int, int], scale: float) -> BBox:
    """A crop box of the page raster in page units."""
    x0, y0, x1, y1 = box_px
    return (x0 / scale, y0 / scale, x1 / scale, y1 / scale)


def finer_scale(
    state: PageState, box_px: tuple[int, int, int, int], pixels: int, max_pixels: int
) -> float | None:
    """The scale (pixels per page unit) at which the crop's region has about ``pixels``
    pixels, where a fresh render gives more than the page raster's crop; else None."""
    page = state.rendered
    if page.region is None:
        return None
    x0, y0, x1, y1 = region_of(box_px, page.scale)
    area = max(1e-6, (x1 - x0) * (y1 - y0))
    wanted = math.sqrt(pixels / area)
    cap = min(MAX_RETRY_DPI / page.units_per_inch, math.sqrt(max_pixels / area))
    scale = min(wanted, cap)
    return scale if scale > page.scale * _MIN_GAIN else None


def finer_size(
    box_px: tuple[int, int, int, int], page_scale: float, scale: float
) -> tuple[int, int]:
    """The pixel size of the crop's region rendered at ``scale``."""
    x0, y0, x1, y1 = box_px
    k = scale / page_scale
    return max(1, round((x1 - x0) * k)), max(1, round((y1 - y0) * k))


async def finer_crop(
    state: PageState, block: Block, box_px: tuple[int, int, int, int], scale: float
) -> Image.Image:
    """The block's region rendered at ``scale``; a figure's with the trusted text layer's lines
    painted out, as its first crop was (recognize.block_image)."""
    page = state.rendered
    assert page.region is not None
    region = region_of(box_px, page.scale)
    image = await asyncio.to_thread(page.region, region, scale)
    over = lines_over(state, block)
    origin = (round(region[0] * scale), round(region[1] * scale))
    return paint_out(image, origin, over, scale) if over else image
