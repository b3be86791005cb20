"""Accents set as glyphs of their own, composed with the letters they sit on.

TeX (and other typesetters with fonts of the 1980s) prints an accented letter as two glyphs:
the letter, and a spacing accent (´ ˇ ¨ ...) moved over it. The text layer then holds the
accent as a character of its own, often out of order: "Mináč" comes out as "Min ´ a´c" with a
"ˇ" at the line's end. Like poppler's text output, an accent whose glyph lies over (or, for a
cedilla or ogonek, under) a letter of the same line is read as that letter's combining mark,
and the spaces PDFium made around the displaced accent are dropped. An accent over no letter (a
prime after a symbol, a tilde between words) stays as printed.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

ABOVE = {
    "\u00b4": "\u0301",  # ´ acute
    "\u0060": "\u0300",  # ` grave
    "\u02c6": "\u0302",  # ˆ circumflex
    "\u005e": "\u0302",
    "\u02dc": "\u0303",  # ˜ tilde
    "\u007e": "\u0303",
    "\u00a8": "\u0308",  # ¨ diaeresis
    "\u02c7": "\u030c",  # ˇ caron
    "\u02d8": "\u0306",  # ˘ breve
    "\u02d9": "\u0307",  # ˙ dot above
    "\u02da": "\u030a",  # ˚ ring above
    "\u00af": "\u0304",  # ¯ macron
    "\u02dd": "\u030b",  # ˝ double acute
}
BELOW = {
    "\u00b8": "\u0327",  # ¸ cedilla
    "\u02db": "\u0328",  # ˛ ogonek
}
_DOTLESS = {"\u0131": "i", "\u0237": "j"}
"""Typesetters put an accent over a dotless i or j; the accented letter is the dotted one's."""
ACCENTS = frozenset(ABOVE) | frozenset(BELOW)


@dataclass
class Accents:
    """What composing does to the page's characters, by PDFium's character index."""

    letters: dict[int, str] = field(default_factory=dict)
    """A letter's index -> the letter with its accents (NFC)."""
    absorbed: set[int] = field(default_factory=set)
    """Indices of accents now part of a letter, and of the spaces made around them."""


def compose_accents(textpage: pdfium.PdfTextPage, text: str) -> Accents:
    """The accents of the page (``text``: its characters, index for index) composed with the
    letters their glyphs lie on."""
    found = Accents()
    marks: dict[int, list[str]] = {}
    for index, ch in enumerate(text):
        if ch not in ABOVE and ch not in BELOW:
            continue
        letter = _letter_under(textpage, text, index, above=ch in ABOVE)
        if letter is not None:
            marks.setdefault(letter, []).append(ABOVE.get(ch) or BELOW[ch])
            found.absorbed.add(index)
    for index, combining in marks.items():
        base = text[index]
        base = _DOTLESS.get(base, base)
        found.letters[index] = unicodedata.normalize("NFC", base + "".join(combining))
    found.absorbed |= _made_spaces(textpage, text, found.absorbed)
    return found


def _letter_under(textpage: pdfium.PdfTextPage, text: str, index: int, above: bool) -> int | None:
    """The letter of the accent's line whose glyph the accent at ``index`` sits on, the
    nearest in x, or None. The whole line is searched: an accent drawn last is placed at its
    line's end, after every letter of the line."""
    left, bottom, right, top = textpage.get_charbox(index)
    if right <= left or top <= bottom:
        return None
    centre = (left + right) / 2
    best: tuple[float, int] | None = None
    for other in _line_of(text, index):
        ch = text[other]
        if other == index or not ch.isalpha():
            continue
        x0, y0, x1, y1 = textpage.get_charbox(other)
        height, width = y1 - y0, x1 - x0
        if height <= 0 or width <= 0:
            continue
        slack = 0.15 * width
        if not x0 - slack <= centre <= x1 + slack:
            continue
        reach = 0.6 * height + 1.0
        if above:
            placed = bottom >= y0 + 0.5 * height and bottom - y1 <= reach
        else:
            placed = top <= y0 + 0.5 * height and y0 - top <= reach
        if placed and (best is None or abs(centre - (x0 + x1) / 2) < best[0]):
            best = (abs(centre - (x0 + x1) / 2), other)
    return None if best is None else best[1]


def _line_of(text: str, index: int) -> range:
    """The indices of the text-layer line holding ``index`` (PDFium ends lines with CR LF)."""
    start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    ends = [e for e in (text.find("\r", index), text.find("\n", index)) if e >= 0]
    return range(start, min(ends, default=len(text)))


def _made_spaces(textpage: pdfium.PdfTextPage, text: str, accents: set[int]) -> set[int]:
    """Spaces PDFium made beside a displaced accent inside a word: the letters either side,
    the accent left out, touch."""
    spaces: set[int] = set()
    for index in accents:
        for step in (-1, 1):
            space = index + step
            if not 0 < space < len(text) - 1 or text[space] != " ":
                continue
            if pdfium_c.FPDFText_IsGenerated(textpage.raw, space) != 1:
                continue
            before = _neighbour(text, space, -1, accents)
            after = _neighbour(text, space, 1, accents)
            if before is None or after is None:
                continue
            left, right = textpage.get_charbox(before), textpage.get_charbox(after)
            em = max(1.0, left[3] - left[1], right[3] - right[1])
            if abs(right[0] - left[2]) < 0.15 * em:
                spaces.add(space)
    for index in accents:  # an accent between two words: one space stays
        before, after = _beside(text, index, -1, accents), _beside(text, index, 1, accents)
        if before is not None and after is not None and text[before] == text[after] == " ":
            spaces.add(after)
    return spaces


def _beside(text: str, index: int, step: int, skipped: set[int]) -> int | None:
    """The nearest character from ``index`` in direction ``step`` that is not ``skipped``."""
    other = index + step
    while 0 <= other < len(text) and other in skipped:
        other += step
    return other if 0 <= other < len(text) else None


def _neighbour(text: str, index: int, step: int, skipped: set[int]) -> int | None:
    """The nearest letter from ``index`` in direction ``step``, past ``skipped`` characters and
    spaces; None when something else comes first."""
    other = index + step
    while 0 <= other < len(text) and (other in skipped or text[other] == " "):
        other += step
    if 0 <= other < len(text) and text[other].isalpha():
        return other
    return None
