"""Where a whole-page answer's boxes land: the coordinate convention of a served engine and the
frame of one request.

A dialect's prompt gets boxes back in one convention (``SCALES``), but the same prompt answers
differently by model generation: Qwen2.5-VL writes absolute pixels of its resized input,
Qwen3-VL a 0-1000 grid. The rule, in one place: ``coordinates`` set in the engine's options wins;
else a model whose name holds ``Qwen3-VL`` (any case) answers the pixel dialects on the 0-1000
grid; else the dialect's own convention.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pagereader.config.options import OpenAIEngineOptions
from pagereader.errors import ConfigError

if TYPE_CHECKING:  # the dialects are imported by a served page engine's run, not every run
    from pagereader.engines.dialects import Frame

QWEN3_GRID = 1000
"""Qwen3-VL's grid: every coordinate from 0 to 1000 across the image it saw."""


def page_scale(options: OpenAIEngineOptions) -> int | None:
    """The engine's coordinate convention: None for absolute pixels, N for a 0-N grid."""
    if options.dialect is None:
        raise ConfigError("a whole-page answer needs the engine's dialect")
    if options.coordinates == "pixels":
        return None
    if options.coordinates is not None:
        return options.coordinates
    from pagereader.engines.dialects import SCALES

    scale = SCALES[options.dialect]
    if scale is None and "qwen3-vl" in options.model.lower():
        return QWEN3_GRID
    return scale


def page_frame(
    options: OpenAIEngineOptions,
    page_size: tuple[float, float],
    image_size: tuple[int, int],
    min_pixels: int,
    max_pixels: int,
) -> Frame:
    """The frame of a request that sent a page image of ``image_size`` (width, height) under
    these pixel bounds: the server's exact resize (the engine's ``image_factor``) and the
    engine's convention."""
    from pagereader.engines.dialects import Frame

    return Frame.for_request(
        page_size,
        image_size,
        factor=options.image_factor,
        min_pixels=min_pixels,
        max_pixels=max_pixels,
        scale=page_scale(options),
    )
