"""Image input: PNG, JPEG, TIFF (every frame a page), WebP, BMP.

Image pages have no text layer; their page unit is the image's pixel, and images under 150 DPI
are enlarged for OCR (``scale`` then says by how much), never past the pixel budget. Each
frame's size is checked from the header before any pixel is decoded, so a decompression bomb
costs nothing; the file is reopened per page, so no decoded frame outlives its page.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageOps

from pagereader.errors import CorruptFileError, ImageTooLargeError
from pagereader.sources.base import RenderedPage
from pagereader.sources.limits import BUDGET_KEY, check_pixels, fit_scale, open_image_header


class ImageSource:
    """An image file; multi-frame TIFFs give one page per frame."""

    warnings: tuple[str, ...] = ()

    def __init__(self, path: Path, max_pixels: int) -> None:
        self.path = path
        self.max_pixels = max_pixels
        with open_image_header(path, max_pixels, file=str(path)) as image:
            check_pixels(*image.size, max_pixels, file=path)
            try:
                self.page_count = max(1, int(getattr(image, "n_frames", 1)))
            except Exception as exc:  # counting frames walks a damaged file's directory
                raise CorruptFileError(f"not a readable image ({exc})", file=path) from exc

    def render(self, index: int, dpi: int) -> RenderedPage:
        """Decode frame ``index`` (1-based); ``dpi`` does not apply to images."""
        frame, resolution = self._decode(index)
        width, height = frame.size
        wanted = _upscale_factor(resolution)
        factor = fit_scale(width, height, wanted, self.max_pixels)
        notes: tuple[str, ...] = ()
        if factor < wanted:
            done = f"enlarged {factor:.2f}x" if factor > 1.0 else "not enlarged"
            notes = (
                f"image {done} for OCR instead of {wanted:.2f}x, to stay within {BUDGET_KEY} "
                f"({self.max_pixels:,} pixels)",
            )
        if factor > 1.0:
            size = (max(1, int(width * factor)), max(1, int(height * factor)))
            frame = frame.resize(size, Image.Resampling.LANCZOS)
        rgb = frame if frame.mode == "RGB" else frame.convert("RGB")
        del frame
        return RenderedPage(
            file=str(self.path),
            index=index,
            width=float(width),
            height=float(height),
            scale=factor if factor > 1.0 else 1.0,
            image=rgb,
            units_per_inch=resolution,
            render_notes=notes,
        )

    def _decode(self, index: int) -> tuple[Image.Image, float]:
        """Frame ``index`` upright, grey or RGB, and its resolution; its size is checked first."""
        with open_image_header(self.path, self.max_pixels, file=str(self.path)) as image:
            try:
                image.seek(index - 1)
                check_pixels(*image.size, self.max_pixels, file=self.path, page=index)
                image.load()
                resolution = _dpi(image, image.width, image.height)
                ImageOps.exif_transpose(image, in_place=True)
                return _flatten(image), resolution
            except ImageTooLargeError:
                raise
            except Exception as exc:  # Pillow's decoders raise many types for damaged data
                raise CorruptFileError(
                    f"cannot decode image ({exc})", file=self.path, page=index
                ) from exc

    def close(self) -> None:
        """Nothing is held open between pages."""


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


def _flatten(image: Image.Image) -> Image.Image:
    """Grey or RGB, with transparency flattened onto white (OCR models expect dark text on
    light paper). Grey stays grey, a quarter of RGB's memory, until after any enlargement."""
    if image.mode in ("RGB", "L"):
        return image
    if image.mode in ("RGBA", "LA", "P", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, "white")
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    if image.mode == "1":
        return image.convert("L")
    return image.convert("RGB")
