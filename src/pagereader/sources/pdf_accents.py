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

import bisect
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
    """A letter's index -> the letter with its accents, one precomposed character (NFC)."""
    absorbed: set[int] = field(default_factory=set)
    """Indices of accents now part of a letter, and of the spaces made around them."""


_NEAR = 4
"""Letters either side, in x order, an accent's letter is looked for among (glyphs of one
line barely overlap, so the letter under an accent is among its nearest in x)."""

_WALK = 4
"""Characters stepped over (accents, spaces) to reach an accent's neighbour: a displaced
accent sits among a few of them, and a crafted run of thousands costs no more."""

Box = tuple[float, float, float, float]


@dataclass
class _Line:
    """The letters of one text-layer line, ordered by their left edge."""

    lefts: list[float]
    letters: list[tuple[Box, int]]


def compose_accents(textpage: pdfium.PdfTextPage, text: str) -> Accents:
    """The accents of the page (``text``: its characters, index for index) composed with the
    letters their glyphs lie on."""
    found = Accents()
    lines: dict[int, _Line] = {}
    breaks = [index for index, ch in enumerate(text) if ch in "\r\n"]
    for index, ch in enumerate(text):
        if ch not in ABOVE and ch not in BELOW:
            continue
        span = _line_of(breaks, index, len(text))
        if span.start not in lines:
            lines[span.start] = _letters(textpage, text, span)
        letter = _letter_under(textpage.get_charbox(index), lines[span.start], ch in ABOVE)
        if letter is None:
            continue
        base = found.letters.get(letter) or _DOTLESS.get(text[letter], text[letter])
        accented = unicodedata.normalize("NFC", base + (ABOVE.get(ch) or BELOW[ch]))
        if len(accented) == 1:  # a letter Unicode composes (ǘ); a pile of accents stays
            found.letters[letter] = accented
            found.absorbed.add(index)
    found.absorbed |= _made_spaces(textpage, text, found.absorbed)
    return found


def _letters(textpage: pdfium.PdfTextPage, text: str, span: range) -> _Line:
    """The letters of a line with their glyph boxes, ordered by left edge."""
    letters = sorted(
        (
            (box, index)
            for index in span
            if text[index].isalpha() and text[index] not in ABOVE
            for box in (textpage.get_charbox(index),)
            if box[2] > box[0] and box[3] > box[1]
        ),
        key=lambda item: item[0][0],
    )
    return _Line(lefts=[box[0] for box, _ in letters], letters=letters)


def _letter_under(accent: Box, line: _Line, above: bool) -> int | None:
    """The letter of the accent's line whose glyph the accent sits on, the nearest in x, or
    None. The whole line is looked at: an accent drawn last is placed at its line's end,
    after every letter of the line."""
    left, bottom, right, top = accent
    if right <= left or top <= bottom:
        return None
    centre = (left + right) / 2
    at = bisect.bisect_right(line.lefts, centre)
    best: tuple[float, int] | None = None
    for (x0, y0, x1, y1), other in line.letters[max(0, at - _NEAR) : at + _NEAR]:
        height, width = y1 - y0, x1 - x0
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


def _line_of(breaks: list[int], index: int, size: int) -> range:
    """The indices of the text-layer line holding ``index``; ``breaks``: where the page's
    line ends (CR, LF) are."""
    at = bisect.bisect_left(breaks, index)
    start = breaks[at - 1] + 1 if at else 0
    return range(start, breaks[at] if at < len(breaks) else size)


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
    other, steps = index + step, 0
    while 0 <= other < len(text) and other in skipped and steps < _WALK:
        other, steps = other + step, steps + 1
    return other if 0 <= other < len(text) else None


def _neighbour(text: str, index: int, step: int, skipped: set[int]) -> int | None:
    """The nearest letter from ``index`` in direction ``step``, past ``skipped`` characters and
    spaces; None when something else comes first."""
    other, steps = index + step, 0
    while 0 <= other < len(text) and (other in skipped or text[other] == " ") and steps < _WALK:
        other, steps = other + step, steps + 1
    if 0 <= other < len(text) and text[other].isalpha():
        return other
    return None
