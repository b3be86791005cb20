"""PDF input through pypdfium2: rendering, and the text layer with character boxes.

PDFium is not thread-safe, so one process-wide lock serialises every call into it; rendering a
page takes milliseconds, so this costs the concurrent pipeline nothing that matters.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import math
import re
import threading
import unicodedata
from functools import partial
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from pagereader.errors import CorruptFileError, PasswordRequiredError
from pagereader.sources.base import RenderedPage
from pagereader.sources.limits import BUDGET_KEY, InflateLimits, InflateMeter, fit_scale
from pagereader.sources.pdf_accents import ACCENTS, Accents, compose_accents
from pagereader.sources.pdf_streams import check_streams
from pagereader.text.bidi import logical_lines
from pagereader.text.chars import is_cjk, is_hangul
from pagereader.text.mojibake import mojibake_chars
from pagereader.types import BBox, TextLayerStats, TextLine

logger = logging.getLogger(__name__)

PDFIUM_LOCK = threading.RLock()
_UNSEEN_MODES = frozenset({3, 7})
"""Text render modes that paint nothing: invisible, and invisible added to the clip path."""
_FILLED_MODES = frozenset({0, 2, 4, 6})
_STROKED_MODES = frozenset({1, 2, 5, 6})
_PASSWORD_ERROR = 4
_PDFIUM_HYPHEN = "\x02"  # PDFium's code for a hyphen it found in the content (e.g. U+2011)
# PDFium's code for a hyphen that ends a line (it joins the two lines and marks the hyphen);
# the hyphen is drawn on the page, so the text keeps it ("dense-page", never "densepage")
_PDFIUM_LINE_END_HYPHEN = "\ufffe"
_DOUBLED = {"\u2018": "\u201c", "\u2019": "\u201d"}
"""Two single quotation marks side by side, as TeX sets a double one in fonts without the
ligature (‘‘term’’): the double quotation mark they print."""


def is_garbage_char(ch: str) -> bool:
    """Private-use, replacement, or control glyphs: signs of a text layer without a Unicode map."""
    if ch in "\r\n\t ":
        return False
    code = ord(ch)
    if 0xE000 <= code <= 0xF8FF or code == 0xFFFD or code >= 0xF0000:
        return True
    return unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn")


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
        return _read_text_layer(textpage, height)

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


def _char_box(textpage: pdfium.PdfTextPage, i: int, height: float) -> BBox:
    """The loose box of a character (font ascent to descent): uniform along a line."""
    rect = pdfium_c.FS_RECTF()
    pdfium_c.FPDFText_GetLooseCharBox(textpage.raw, i, ctypes.byref(rect))
    return (rect.left, height - rect.top, rect.right, height - rect.bottom)


def _read_text_layer(
    textpage: pdfium.PdfTextPage, height: float
) -> tuple[list[TextLine], TextLayerStats]:
    """Characters grouped into lines: break at PDFium's line ends, big gaps and baseline jumps."""
    count = textpage.count_chars()
    lines: list[TextLine] = []
    chars: list[str] = []
    boxes: list[BBox] = []
    sizes: list[float] = []
    indices: list[int] = []
    garbage = map_errors = real = 0

    def flush() -> None:
        start, end = 0, len(chars)
        while start < end and chars[start].isspace():
            start += 1
        while end > start and chars[end - 1].isspace():
            end -= 1
        solid = [
            b
            for b, c in zip(boxes[start:end], chars[start:end], strict=True)
            if not c.isspace() and b[2] > b[0]
        ]
        if solid:
            bbox = _line_box(solid)
            size = sorted(sizes)[len(sizes) // 2] if sizes else 0.0
            lines.append(
                TextLine(
                    text="".join(chars[start:end]),
                    bbox=bbox,
                    font_size=round(size, 2),
                    char_boxes=tuple(boxes[start:end]),
                    bold=_bold(textpage, indices[start]) and _bold(textpage, indices[end - 1]),
                )
            )
        chars.clear()
        boxes.clear()
        sizes.clear()
        indices.clear()

    units = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i)) for i in range(count))
    accents = Accents() if ACCENTS.isdisjoint(units) else compose_accents(textpage, units)
    pair_end = -1
    for i in range(count):
        if i == pair_end or i in accents.absorbed:
            continue
        code = ord(units[i])
        if 0xD800 <= code < 0xDC00 and i + 1 < count:
            # PDFium gives a character outside the BMP as two UTF-16 units: join them
            low = ord(units[i + 1])
            if 0xDC00 <= low < 0xE000:
                code, pair_end = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), i + 1
        ch = accents.letters.get(i) or chr(code)
        if ch in "\r\n":
            flush()
            continue
        if ch in (_PDFIUM_HYPHEN, _PDFIUM_LINE_END_HYPHEN) and _is_hyphen(textpage, i):
            ch = "-"  # otherwise a glyph mapped to the control character: unicode.py drops it
        if ch == " " and _spurious_space(textpage, i, count, height):
            continue
        box = _char_box(textpage, i, height)
        if not ch.isspace():
            real += 1
            if is_garbage_char(ch):
                garbage += 1
            if pdfium_c.FPDFText_HasUnicodeMapError(textpage.raw, i) == 1:
                map_errors += 1
            size = (box[3] - box[1]) / 1.2
            if boxes and _starts_new_line(boxes, sizes, box, size):
                flush()
            sizes.append(size)
            if ch in _DOUBLED and chars and chars[-1] == ch and box[0] - boxes[-1][2] < 0.2 * size:
                chars[-1] = _DOUBLED[ch]  # two single quotation marks set as one double
                boxes[-1] = (boxes[-1][0], boxes[-1][1], box[2], boxes[-1][3])
                continue
        chars.append(ch)
        boxes.append(box)
        indices.append(i)
    flush()
    garbage += sum(mojibake_chars(line.text) for line in lines)  # valid glyphs, wrong code page
    stats = TextLayerStats(chars=real, garbage_chars=garbage, unicode_map_errors=map_errors)
    return logical_lines(lines), stats


_BOLD_FONT = re.compile(r"bold|black|heavy|demi|(?<![a-z])bx\d|cmbx|sfbx", re.IGNORECASE)
"""Font names of bold faces (``Arial-BoldMT``, ``HelveticaNeue-BoldCond``, TeX's ``CMBX10``):
many PDFs give no weight (PDFium answers 0 or 400) and name the face instead."""


def _bold(textpage: pdfium.PdfTextPage, i: int) -> bool:
    """Whether character ``i`` is set in a bold face: its font's weight, else its name."""
    if pdfium_c.FPDFText_GetFontWeight(textpage.raw, i) >= 600:
        return True
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(textpage.raw, i, name, len(name), ctypes.byref(flags))
    return bool(_BOLD_FONT.search(name.value.decode("latin-1")))


def _is_hyphen(textpage: pdfium.PdfTextPage, i: int) -> bool:
    """Whether PDFium marked character ``i`` as a hyphen it found (its codes for one are also
    what a ToUnicode map may give for a control glyph)."""
    return bool(pdfium_c.FPDFText_IsHyphen(textpage.raw, i) == 1)


def _spaceless(ch: str) -> bool:
    """Han, kana, Hangul or CJK punctuation: glyphs an Office export sets in their own font."""
    return is_cjk(ch) or is_hangul(ch)


def _spurious_space(textpage: pdfium.PdfTextPage, i: int, count: int, height: float) -> bool:
    """A space PDFium invented between a CJK character and its neighbour set in another font.

    Office exports set digits and Hangul/Han in different fonts; PDFium then generates a space
    at the font change although the glyphs nearly touch (under half an em).
    """
    if not 0 < i < count - 1 or pdfium_c.FPDFText_IsGenerated(textpage.raw, i) != 1:
        return False
    before = chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i - 1))
    after = chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i + 1))
    if not (_spaceless(before) or _spaceless(after)) or before.isspace() or after.isspace():
        return False
    left, right = _char_box(textpage, i - 1, height), _char_box(textpage, i + 1, height)
    em = max(1.0, (left[3] - left[1]) / 1.2)
    return right[0] - left[2] < 0.5 * em


_DROP_CAP = 2.5
"""A glyph this many times the line's usual height is a drop cap (or a big operator): it
stays in the line's text and width but not in its height, which would reach over the next
lines and join the column beside them to its row."""


def _line_box(solid: list[BBox]) -> BBox:
    """A line's box from its glyphs' boxes, its height that of its usual glyphs."""
    heights = sorted(b[3] - b[1] for b in solid)
    usual = heights[len(heights) // 2]
    level = [b for b in solid if b[3] - b[1] <= _DROP_CAP * usual] or solid
    return (
        min(b[0] for b in solid),
        min(b[1] for b in level),
        max(b[2] for b in solid),
        max(b[3] for b in level),
    )


def _starts_new_line(boxes: list[BBox], sizes: list[float], box: BBox, size: float) -> bool:
    """A character far right of the previous one, or on another baseline, starts a new line."""
    prev = next((b for b in reversed(boxes) if b[2] > b[0]), None)
    if prev is None:
        return False
    em = max(size, sizes[-1] if sizes else size, 1.0)
    gap = box[0] - prev[2]
    prev_mid = (prev[1] + prev[3]) / 2
    mid = (box[1] + box[3]) / 2
    return gap > 2.5 * em or gap < -4 * em or abs(mid - prev_mid) > 0.8 * em


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
