"""PDF input through pypdfium2: rendering, the page's objects, and its text layer (read by
pdf_text_layer.py).

PDFium is not thread-safe, so one process-wide lock serialises every call into it; rendering a
page takes milliseconds, so this costs the concurrent pipeline nothing that matters.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import math
import threading
from functools import partial
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from pagereader.errors import CorruptFileError, PasswordRequiredError
from pagereader.sources.base import RenderedPage
from pagereader.sources.limits import BUDGET_KEY, InflateLimits, InflateMeter, fit_scale
from pagereader.sources.pdf_streams import check_streams
from pagereader.sources.pdf_text_layer import read_text_layer
from pagereader.types import BBox, TextLayerStats, TextLine

logger = logging.getLogger(__name__)

PDFIUM_LOCK = threading.RLock()
_UNSEEN_MODES = frozenset({3, 7})
"""Text render modes that paint nothing: invisible, and invisible added to the clip path."""
_FILLED_MODES = frozenset({0, 2, 4, 6})
_STROKED_MODES = frozenset({1, 2, 5, 6})
_PASSWORD_ERROR = 4
_MIN_LONG_SIDE_PX = 1600
_MAX_DPI = 600


def raster_scale(dpi: int, width: float, height: float) -> float:
    """Pixels per point: ``dpi``, raised for small pages (a pocket book, a label) so that the
    long side has at least 1600 pixels and small print stays readable to OCR."""
    wanted = max(dpi / 72.0, _MIN_LONG_SIDE_PX / max(1.0, width, height))
    return min(wanted, _MAX_DPI / 72.0)


class PdfSource:
    """An opened PDF; every page raster stays within ``max_pixels``, and no stream was let
    inflate past ``inflate_limits`` (the streams are counted before PDFium reads the file)."""

    warnings: tuple[str, ...] = ()

    def __init__(
        self,
        path: Path,
        password: str | None,
        max_pixels: int,
        inflate_limits: InflateLimits | None = None,
        *,
        name: str | Path | None = None,
        max_text_chars: int | None = None,
    ) -> None:
        self.path = path
        self.max_pixels = max_pixels
        self.max_text_chars = max_text_chars
        meter = InflateMeter(inflate_limits or InflateLimits(), file=name or path, parts="streams")
        try:
            check_streams(path, meter)
        except OSError as exc:
            raise CorruptFileError(f"cannot read the file ({exc})", file=name or path) from exc
        with PDFIUM_LOCK:
            try:
                self._pdf = pdfium.PdfDocument(str(path), password=password)
            except pdfium.PdfiumError as exc:
                if getattr(exc, "err_code", None) == _PASSWORD_ERROR or "password" in str(exc):
                    given = "wrong password" if password else "no password given"
                    message = f"the PDF is encrypted: {given}"
                    raise PasswordRequiredError(message, file=path) from exc
                raise CorruptFileError(f"not a readable PDF ({exc})", file=path) from exc
            self.page_count = len(self._pdf)
        if self.page_count == 0:
            raise CorruptFileError("the PDF has no pages", file=path)

    def render(self, index: int, dpi: int) -> RenderedPage:
        """Render page ``index`` (1-based) at ``dpi`` and read its text layer."""
        with PDFIUM_LOCK:
            try:
                page = self._pdf[index - 1]
                width, height = page.get_size()
                scale, notes = self._scale(index, dpi, width, height)
                image = _render_rgb(page, scale)
                textpage = page.get_textpage()
                lines, stats = self._text_layer(textpage, height)
                invisible, image_boxes, image_digests = _read_objects(page, height)
                textpage.close()
                page.close()
            except pdfium.PdfiumError as exc:
                raise CorruptFileError(
                    f"cannot render ({exc})", file=self.path, page=index
                ) from exc
        return RenderedPage(
            file=str(self.path),
            index=index,
            width=float(width),
            height=float(height),
            scale=scale,
            image=image,
            lines=tuple(lines),
            stats=stats,
            invisible_text_share=invisible,
            image_boxes=tuple(image_boxes),
            image_digests=tuple(image_digests),
            render_notes=notes,
            region=partial(self.render_region, index),
        )

    def render_region(self, index: int, box: BBox, scale: float) -> Image.Image:
        """The region ``box`` (points, from the top left) of page ``index`` rendered at
        ``scale`` pixels per point, within the pixel budget: the crop a retry with more pixels
        sends when the page raster's own crop has no more to give."""
        x0, y0, x1, y1 = box
        scale = fit_scale(x1 - x0, y1 - y0, scale, self.max_pixels)
        with PDFIUM_LOCK:
            try:
                page = self._pdf[index - 1]
                width, height = page.get_size()
                left, top = max(0.0, x0), max(0.0, y0)
                right, bottom = max(0.0, width - x1), max(0.0, height - y1)
                bitmap = page.render(
                    scale=scale,
                    crop=(left, bottom, right, top),
                    may_draw_forms=True,
                    rev_byteorder=True,
                )
                image: Image.Image = bitmap.to_pil()
                del bitmap
                page.close()
            except pdfium.PdfiumError as exc:
                raise CorruptFileError(
                    f"cannot render a region ({exc})", file=self.path, page=index
                ) from exc
        return image if image.mode == "RGB" else image.convert("RGB")

    def _text_layer(
        self, textpage: pdfium.PdfTextPage, height: float
    ) -> tuple[list[TextLine], TextLayerStats]:
        """The page's lines; none, and only the count, for a layer past ``max_text_chars``
        (reading costs tens of microseconds a character, and the page is read as a scan)."""
        count = textpage.count_chars()
        if self.max_text_chars is not None and count > self.max_text_chars:
            return [], TextLayerStats(chars=count, garbage_chars=0, unicode_map_errors=0)
        return read_text_layer(textpage, height)

    def _scale(
        self, index: int, dpi: int, width: float, height: float
    ) -> tuple[float, tuple[str, ...]]:
        """Pixels per point for the page, lowered until the raster fits the pixel budget."""
        if not (0 < width < 1e6 and 0 < height < 1e6):
            raise CorruptFileError(
                f"the page's size ({width:g} x {height:g} pt) is not a real size",
                file=self.path,
                page=index,
            )
        wanted = raster_scale(dpi, width, height)
        scale = fit_scale(width, height, wanted, self.max_pixels)
        if math.ceil(width * scale) < 1 or math.ceil(height * scale) < 1:
            raise CorruptFileError(
                f"the page ({width:g} x {height:g} pt) is too elongated to render",
                file=self.path,
                page=index,
            )
        if scale >= wanted:
            return scale, ()
        note = (
            f"page of {width:.0f}x{height:.0f} pt rendered at {scale * 72:.0f} DPI instead of "
            f"{wanted * 72:.0f}, to stay within {BUDGET_KEY} ({self.max_pixels:,} pixels)"
        )
        logger.info("%s page %d: %s", self.path, index, note)
        return scale, (note,)

    def close(self) -> None:
        with PDFIUM_LOCK:
            self._pdf.close()


def _render_rgb(page: pdfium.PdfPage, scale: float) -> Image.Image:
    """The page as an RGB image; the PDFium bitmap is released as soon as Pillow holds the
    pixels, so the peak is one bitmap and one image."""
    bitmap = page.render(scale=scale, may_draw_forms=True, rev_byteorder=True)
    image: Image.Image = bitmap.to_pil()
    del bitmap
    return image if image.mode == "RGB" else image.convert("RGB")


def _image_digest(obj: pdfium.PdfImage) -> str:
    """The SHA-1 of an image object's stored bytes: the same logo on every page matches."""
    try:
        return hashlib.sha1(obj.get_data(decode_simple=False)).hexdigest()
    except pdfium.PdfiumError:
        return ""


def _unseen(obj: pdfium.PdfObject) -> bool:
    """A text object nobody sees: drawn in an invisible or clip-only mode, or painted in fully
    transparent colour (how note-taking apps and some scanners hide their OCR's text)."""
    mode = pdfium_c.FPDFTextObj_GetTextRenderMode(obj.raw)
    if mode in _UNSEEN_MODES:
        return True
    fills, strokes = mode in _FILLED_MODES, mode in _STROKED_MODES
    return (not fills or _alpha(obj, fill=True) == 0) and (
        not strokes or _alpha(obj, fill=False) == 0
    )


def _alpha(obj: pdfium.PdfObject, fill: bool) -> int:
    """The object's fill or stroke alpha (0-255); 255 when PDFium cannot tell."""
    channels = [ctypes.c_uint() for _ in range(4)]
    read = pdfium_c.FPDFPageObj_GetFillColor if fill else pdfium_c.FPDFPageObj_GetStrokeColor
    if not read(obj.raw, *(ctypes.byref(c) for c in channels)):
        return 255
    return channels[3].value


def _read_objects(page: pdfium.PdfPage, height: float) -> tuple[float, list[BBox], list[str]]:
    """Share of invisible text objects (a previous OCR's layer), the boxes of images and the
    digests of their bytes."""
    invisible = texts = 0
    images: list[BBox] = []
    digests: list[str] = []
    for obj in page.get_objects(max_depth=3):
        if obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT:
            texts += 1
            invisible += _unseen(obj)
        elif obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            left, bottom, right, top = obj.get_bounds()
            images.append((left, height - top, right, height - bottom))
            digests.append(_image_digest(obj))
    return (invisible / texts if texts else 0.0), images, digests
