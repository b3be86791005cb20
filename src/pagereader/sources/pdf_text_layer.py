"""A PDF page's text layer as lines with character boxes, through pypdfium2.

Characters come one by one from PDFium and are grouped into lines: a line ends at PDFium's
line end, a big gap or a baseline jump. On the way, a space PDFium invented between CJK glyphs
and their neighbours in another font is dropped, PDFium's hyphen codes become hyphens, accents
set as glyphs of their own join their letters (pdf_accents.py), and doubled single quotes are
the double quote they print. The caller holds the PDFium lock.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pagereader.sources.pdf_accents import ACCENTS, Accents, compose_accents
from pagereader.text.bidi import logical_lines
from pagereader.text.chars import is_cjk, is_hangul
from pagereader.text.mojibake import mojibake_chars
from pagereader.types import BBox, TextLayerStats, TextLine

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


def _char_box(textpage: pdfium.PdfTextPage, i: int, height: float) -> BBox:
    """The loose box of a character (font ascent to descent): uniform along a line."""
    rect = pdfium_c.FS_RECTF()
    pdfium_c.FPDFText_GetLooseCharBox(textpage.raw, i, ctypes.byref(rect))
    return (rect.left, height - rect.top, rect.right, height - rect.bottom)


def read_text_layer(
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
