"""What a retry with more pixels would change, told before it is sent.

A served model sees a crop as visual tokens; a crop already under its request's pixel budget
gives the same tokens at any higher budget, so a retry of the same crop would repeat the request.
The verifier retries only when the tokens would grow: from the page raster's crop, or from the
block's region rendered afresh at a finer scale (finer_render.py), and says which.
"""

from __future__ import annotations

import dataclasses

from pagereader.config.options import VerifyOptions
from pagereader.engines.base import crop_box
from pagereader.errors import PagereaderError
from pagereader.protocols import ServedEngine
from pagereader.runtime import Runtime
from pagereader.stages.finer_render import MAX_RETRY_DPI, finer_scale, finer_size
from pagereader.stages.state import PageState
from pagereader.types import Block, Finding


def raised_pixels(options: VerifyOptions, max_pixels: int) -> int:
    """The pixel budget of a retry after one at ``max_pixels``."""
    return min(options.retry_max_pixels, int(max_pixels * options.retry_pixel_factor))


@dataclasses.dataclass(frozen=True)
class Gain:
    """The crop's visual tokens now and at the raised budget, and the scale of the fresh
    render that gives the latter (None: the page raster's own crop)."""

    before: int
    after: int
    scale: float | None = None


def pixel_gain(
    ctx: Runtime, state: PageState, block: Block, max_pixels: int, name: str
) -> Gain | None:
    """The gain of retrying ``block`` on served engine ``name`` after a request at
    ``max_pixels``; None when the engine cannot count its tokens."""
    engine = ctx.engines.get(name)
    if not isinstance(engine, ServedEngine) or state.decision is None:
        return None
    page = state.rendered
    box = crop_box(block.bbox, page.scale, page.image.size)
    width, height = box[2] - box[0], box[3] - box[1]
    low = state.decision.min_pixels
    raised = raised_pixels(ctx.options.verify, max_pixels)
    try:
        before = engine.visual_tokens(width, height, min(low, max_pixels), max_pixels)
        after = engine.visual_tokens(width, height, min(low, raised), raised)
        if after > before:
            return Gain(before, after)
        scale = finer_scale(state, box, raised, ctx.options.render.max_image_pixels)
        if scale is None:
            return Gain(before, after)
        finer = engine.visual_tokens(*finer_size(box, page.scale, scale), min(low, raised), raised)
    except PagereaderError:
        return None
    return Gain(before, finer, scale) if finer > before else Gain(before, after)


def no_gain(name: str, max_pixels: int, gain: Gain) -> Finding:
    """Why a retry with more pixels was not chosen: the model would see the same crop."""
    return Finding(
        check="remedy",
        severity="info",
        message=(
            f"retry with more pixels not chosen: the crop is {gain.before:,} visual tokens for "
            f"{name} at {max_pixels:,} pixels and would be {gain.after:,} with more "
            "(it is already under its budget, and the page has no finer render: a scan, or "
            f"already at {MAX_RETRY_DPI:.0f} DPI or the pixel budget)"
        ),
    )
