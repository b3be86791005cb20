"""The Qwen-VL image processors' resize rule, shared by the planner (visual-token counts) and
the openai engine (which shrinks a crop before upload so the server never gets more pixels than
the request's ``max_pixels``): one rule, so the two never disagree."""

from __future__ import annotations

import math

from PIL import Image

from pagereader.errors import ConfigError

#: transformers' Qwen2-VL image processor resamples with bicubic (``resample: 3``).
RESAMPLE = Image.Resampling.BICUBIC


def smart_resize(
    height: int, width: int, factor: int, min_pixels: int, max_pixels: int
) -> tuple[int, int]:
    """The Qwen2-VL image processor's resize rule, as transformers implements it.

    Round each side to the nearest multiple of factor; if the area is above max_pixels scale
    both sides down by sqrt(area / max) and floor to the factor, if below min_pixels scale up
    and ceil. Python's round() (half to even) is what transformers uses.
    """
    if height <= 0 or width <= 0:
        raise ConfigError(f"image size must be positive, got {width}x{height}")
    if max(height, width) / min(height, width) > 200:
        raise ConfigError(f"aspect ratio of {width}x{height} is above 200")
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def image_tokens(width: int, height: int, factor: int, min_pixels: int, max_pixels: int) -> int:
    """Visual tokens of one image: H'W' / factor^2 after :func:`smart_resize`."""
    h, w = smart_resize(height, width, factor, min_pixels, max_pixels)
    return (h // factor) * (w // factor)


def fit_for_upload(
    image: Image.Image, factor: int, min_pixels: int, max_pixels: int
) -> Image.Image:
    """The image the server would see after its own resize, when that is smaller than what we
    have: resized here, the upload is smaller and the server's resize of it is a no-op (its
    sides are already multiples of ``factor`` within the bounds), so the visual tokens are the
    same. Images the server would enlarge, and those it cannot take at all (aspect ratio above
    200), are left as they are."""
    try:
        h, w = smart_resize(image.height, image.width, factor, min_pixels, max_pixels)
    except ConfigError:
        return image
    if h * w >= image.height * image.width:
        return image
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    return image.resize((w, h), RESAMPLE, reducing_gap=3.0)
