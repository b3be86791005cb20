"""Image input: PNG, JPEG, TIFF (every frame a page), WebP, BMP.

Image pages have no text layer; their page unit is the pixel (scale 1). The size is checked
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
        return RenderedPage(
            file=str(self.path),
            index=index,
            width=float(rgb.width),
            height=float(rgb.height),
            scale=1.0,
            image=rgb,
            units_per_inch=_dpi(self._image),
        )

    def close(self) -> None:
        self._image.close()


def _dpi(image: Image.Image, default: float = 200.0) -> float:
    """The image's resolution from its metadata, else a typical scan's 200 DPI."""
    dpi = image.info.get("dpi")
    try:
        value = float(dpi[0]) if dpi else default
    except (TypeError, ValueError, IndexError):
        value = default
    return value if 50 <= value <= 1200 else default


def _to_rgb(image: Image.Image) -> Image.Image:
    """Flatten transparency onto white (OCR models expect dark text on light paper)."""
    if image.mode in ("RGBA", "LA", "P"):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, "white")
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")
