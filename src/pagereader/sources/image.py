"""Image input: PNG, JPEG, TIFF (every frame a page), WebP, BMP.

Image pages have no text layer; their page unit is the image's pixel, and images under 150 DPI
are enlarged for OCR (``scale`` then says by how much). The size is checked
from the header before any pixel is decoded, so a decompression bomb costs nothing.
"""

from __future__ import annotations

import threading
import warnings
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from pagereader.errors import CorruptFileError, ImageTooLargeError
from pagereader.sources.base import RenderedPage

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp"})


class ImageSource:
    """An opened image file; multi-frame TIFFs give one page per frame."""

    def __init__(self, path: Path, max_pixels: int) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                self._image = Image.open(path)
                width, height = self._image.size
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageTooLargeError(
                f"image too large to decode safely ({exc})", file=path
            ) from exc
        except (UnidentifiedImageError, OSError, SyntaxError) as exc:
            raise CorruptFileError(f"not a readable image ({exc})", file=path) from exc
        if width * height > max_pixels:
            self._image.close()
            raise ImageTooLargeError(
                f"image is {width}x{height} = {width * height:,} pixels, over the limit of "
                f"{max_pixels:,}",
                file=path,
            )
        self.page_count = getattr(self._image, "n_frames", 1)

    def render(self, index: int, dpi: int) -> RenderedPage:
        """Decode frame ``index`` (1-based); ``dpi`` does not apply to images."""
        with self._lock:
            try:
                self._image.seek(index - 1)
                frame = ImageOps.exif_transpose(self._image.copy()) or self._image.copy()
                rgb = _to_rgb(frame)
            except (OSError, ValueError, EOFError) as exc:
                raise CorruptFileError(
                    f"cannot decode image ({exc})", file=self.path, page=index
                ) from exc
        width, height = rgb.size
        resolution = _dpi(self._image, width, height)
        factor = _upscale_factor(resolution)
        if factor > 1.0:
            rgb = rgb.resize(
                (round(width * factor), round(height * factor)), Image.Resampling.LANCZOS
            )
        return RenderedPage(
            file=str(self.path),
            index=index,
            width=float(width),
            height=float(height),
            scale=factor,
            image=rgb,
            units_per_inch=resolution,
        )

    def close(self) -> None:
        self._image.close()


def _dpi(image: Image.Image, width: int, height: int) -> float:
    """The image's resolution from its metadata, else estimated as that of a letter or A4 page
    (its long side about 11 inches)."""
    dpi = image.info.get("dpi")
    try:
        value = float(dpi[0]) if dpi else 0.0
    except (TypeError, ValueError, IndexError):
        value = 0.0
    if 50 <= value <= 1200:
        return value
    return min(600.0, max(50.0, max(width, height) / 11.0))


_MIN_OCR_DPI = 150.0
_TARGET_OCR_DPI = 200.0


def _upscale_factor(resolution: float) -> float:
    """Low-resolution images (a page saved at 72 DPI) are enlarged for OCR, up to 3x: the
    detection and recognition models lose small print below about 150 DPI."""
    if resolution >= _MIN_OCR_DPI:
        return 1.0
    return min(3.0, _TARGET_OCR_DPI / resolution)


def _to_rgb(image: Image.Image) -> Image.Image:
    """Flatten transparency onto white (OCR models expect dark text on light paper)."""
    if image.mode in ("RGBA", "LA", "P"):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, "white")
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")
