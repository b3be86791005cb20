"""The one pixel budget (``render.max_image_pixels``) every raster is checked against.

A page raster is the largest image pagereader makes; crops, OCR inputs and overlays are cut from
it or shrunk from it, so bounding the page bounds them all. The check reads sizes from headers
(PDF page boxes, image headers) and happens before any pixel is allocated: a 100 KB PNG that
declares 13000x13000 pixels, or a 1 KB PDF with a 14400-point page, costs nothing to refuse or
to render smaller. Pillow's own decompression-bomb limit is set from the same budget, so a
configured budget above Pillow's default is honoured and a lower one is enforced by Pillow too.
"""

from __future__ import annotations

import io
import math
import warnings
from pathlib import Path
from typing import IO

from PIL import Image, UnidentifiedImageError

from pagereader.errors import CorruptFileError, ImageTooLargeError

BUDGET_KEY = "render.max_image_pixels"


def apply_pillow_limit(budget: int) -> None:
    """Make Pillow's bomb guard agree with the budget (Pillow refuses above twice its limit and
    warns above it; every raster pagereader asks of it is already within the budget)."""
    Image.MAX_IMAGE_PIXELS = budget


def check_pixels(
    width: int,
    height: int,
    budget: int,
    *,
    file: str | Path = "",
    page: int | None = None,
    what: str = "image",
) -> None:
    """Raise ImageTooLargeError when a ``width`` x ``height`` raster would exceed ``budget``."""
    pixels = max(0, width) * max(0, height)
    if pixels > budget:
        raise ImageTooLargeError(
            f"{what} is {width}x{height} = {pixels:,} pixels, over the limit of {budget:,} "
            f"({BUDGET_KEY})",
            file=file or None,
            page=page,
        )


def check_image_pixels(image: Image.Image, budget: int, *, file: str | Path = "") -> None:
    """Check an opened (not yet decoded) image's header size against the budget."""
    check_pixels(image.width, image.height, budget, file=file)


def fit_scale(width: float, height: float, scale: float, budget: int) -> float:
    """The largest scale not above ``scale`` at which a ``width`` x ``height`` page (in page
    units) rasterises to at most ``budget`` pixels, counting the rounding up of each side."""
    if width <= 0 or height <= 0:
        return scale
    if math.ceil(width * scale) * math.ceil(height * scale) <= budget:
        return scale
    low, high = 0.0, min(scale, math.sqrt(budget / (width * height)))
    for _ in range(60):  # bisection: the pixel count only grows with the scale
        middle = (low + high) / 2
        if math.ceil(width * middle) * math.ceil(height * middle) <= budget:
            low = middle
        else:
            high = middle
    return low


def open_bounded_image(
    source: bytes | Path | IO[bytes], budget: int, *, file: str = ""
) -> Image.Image:
    """Open an image, check its header size against the budget, and only then decode it.

    Raises ImageTooLargeError (over the budget) or CorruptFileError (not a readable image); the
    returned image is decoded and no longer needs ``source``.
    """
    label = file or (str(source) if isinstance(source, Path) else "")
    image = open_image_header(source, budget, file=label)
    try:
        check_image_pixels(image, budget, file=label)
        image.load()
    except ImageTooLargeError:
        image.close()
        raise
    except Exception as exc:  # Pillow's decoders raise many types for damaged data
        image.close()
        raise CorruptFileError(f"cannot decode image ({exc})", file=label or None) from exc
    return image


def open_image_header(
    source: bytes | Path | IO[bytes], budget: int, *, file: str = ""
) -> Image.Image:
    """Read an image's header (no pixels yet) with Pillow's bomb guard set to the budget."""
    apply_pillow_limit(budget)
    stream: Path | IO[bytes] = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        # Pillow warns between its limit and twice it; the caller's own check refuses those
        # with a clearer message, so the warning is noise (if threads race here, the worst
        # outcome is that this one warning stays silenced)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(stream)
    except Image.DecompressionBombError as exc:
        raise ImageTooLargeError(
            f"image too large to decode: {exc} ({BUDGET_KEY} is {budget:,})",
            file=file or None,
        ) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise CorruptFileError(f"not a readable image ({exc})", file=file or None) from exc
    except Exception as exc:  # a damaged header can trip any of the format plugins
        raise CorruptFileError(f"not a readable image ({exc})", file=file or None) from exc
