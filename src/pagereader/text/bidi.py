"""Right-to-left text of a PDF text layer put back into logical (reading) order.

PDFium reorders each line itself: it takes glyphs drawn left to right as visual order and
turns right-to-left runs around. A producer that writes Hebrew or Arabic in logical order but
draws it left to right (no bidi support of its own) therefore comes out with every line
reversed (שלום עולם read as םלוע םולש). The glyph order alone cannot tell the two apart, so the
letters do: Hebrew final forms (ך ם ן ף ץ) and Arabic ة and ى only end a word, and the Arabic
article ال only opens one. When a page's words start with what can only end a word, its
right-to-left lines are reordered by the Unicode bidi classes (``unicodedata.bidirectional``):
right-to-left runs reversed, numbers and Latin runs inside them kept left to right.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from pagereader.types import TextLine

_RTL = frozenset({"R", "AL"})
_LTR = frozenset({"L"})
_NUMBER = frozenset({"EN", "AN"})
_NUMBER_JOINERS = frozenset({"CS", "ES", "ET"})  # 1,000.5  +3  25%
_MARK = frozenset({"NSM"})
_HEBREW_WORD = re.compile(r"[\u05d0-\u05ea]{2,}")
_ARABIC_WORD = re.compile(r"[\u0621-\u064a]{2,}")
_HEBREW_FINALS = "ךםןףץ"
_ARABIC_FINALS = "ةى"


def _cls(ch: str) -> str:
    return unicodedata.bidirectional(ch)


def has_rtl(text: str) -> bool:
    """Whether the text holds any Hebrew, Arabic or other right-to-left letter."""
    return any(_cls(ch) in _RTL for ch in text)


def word_order_evidence(texts: Iterable[str]) -> tuple[int, int]:
    """Words that read as logical order and words that read as reversed: a letter that only
    ends a word (or an article that only opens one) found at the end or at the start."""
    logical = reversed_ = 0
    for text in texts:
        for word in _HEBREW_WORD.findall(text):
            first, last = word[0] in _HEBREW_FINALS, word[-1] in _HEBREW_FINALS
            logical += last and not first
            reversed_ += first and not last
        for word in _ARABIC_WORD.findall(text):
            first, last = word[0] in _ARABIC_FINALS, word[-1] in _ARABIC_FINALS
            logical += (last and not first) or (len(word) > 3 and word.startswith("ال"))
            reversed_ += (first and not last) or (len(word) > 3 and word.endswith("لا"))
    return logical, reversed_


def _clusters(text: str) -> list[list[int]]:
    """Indices grouped as base character plus the combining marks drawn after it, so that a
    reversal keeps each mark behind its letter."""
    out: list[list[int]] = []
    for i, ch in enumerate(text):
        if out and _cls(ch) in _MARK:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _kind(text: str, cluster: list[int]) -> str:
    """``r`` (right-to-left letter), ``l`` (Latin and other left-to-right letters), ``n``
    (digit), ``j`` (what joins a number: 1,000.5, +3, 25%) or ``w`` (spaces and other
    punctuation, which take the direction around them)."""
    cls = _cls(text[cluster[0]])
    if cls in _RTL:
        return "r"
    if cls in _LTR:
        return "l"
    if cls in _NUMBER:
        return "n"
    if cls in _NUMBER_JOINERS:
        return "j"
    return "w"


def _runs(kinds: Sequence[str], start: str, inside: str, glue: str) -> list[tuple[int, int]]:
    """Maximal spans [a, b) that begin with a kind in ``start``, end with one in ``start`` or
    ``inside``, and hold only those or ``glue`` kinds between."""
    spans: list[tuple[int, int]] = []
    ends, allowed = start + inside, start + inside + glue
    i = 0
    while i < len(kinds):
        if kinds[i] not in start:
            i += 1
            continue
        end = last = i
        while end < len(kinds) and kinds[end] in allowed:
            if kinds[end] in ends:
                last = end
            end += 1
        spans.append((i, last + 1))
        i = last + 1
    return spans


def _turn_back(
    order: list[int], kinds: Sequence[str], start: str, inside: str, glue: str
) -> set[int]:
    """Reverse, in place, each run of ``order`` that reads left to right (kinds indexed by
    cluster); the positions turned."""
    turned: set[int] = set()
    for a, b in _runs([kinds[i] for i in order], start, inside, glue):
        order[a:b] = order[a:b][::-1]
        turned.update(range(a, b))
    return turned


def logical_permutation(text: str) -> list[int]:
    """The order in which to read the characters of a visual-order line (indices into text).

    A line mostly right-to-left is reversed as a whole, then its left-to-right runs (Latin
    words with the numbers after them, then numbers on their own) are turned back; in a line
    mostly left-to-right only the right-to-left runs (with the numbers and spaces between their
    words) are reversed, and the numbers inside them turned back.
    """
    clusters = _clusters(text)
    kinds = [_kind(text, c) for c in clusters]
    rtl = kinds.count("r")
    if not rtl:
        return list(range(len(text)))
    order = list(range(len(clusters)))
    if rtl >= kinds.count("l"):
        order.reverse()
        turned = _turn_back(order, kinds, "l", "n", "wj")
        masked = list(kinds)
        for position in turned:
            masked[order[position]] = "x"
        _turn_back(order, masked, "n", "", "j")
    else:
        for a, b in _runs(kinds, "r", "", "wnj"):
            span = order[a:b][::-1]
            _turn_back(span, kinds, "n", "", "j")
            order[a:b] = span
    return [i for cluster_index in order for i in clusters[cluster_index]]


def _reordered(line: TextLine) -> TextLine:
    order = logical_permutation(line.text)
    boxes = line.char_boxes
    return line.model_copy(
        update={
            "text": "".join(line.text[i] for i in order),
            "char_boxes": tuple(boxes[i] for i in order) if len(boxes) == len(order) else boxes,
        }
    )


def logical_lines(lines: Sequence[TextLine]) -> list[TextLine]:
    """A page's text-layer lines in reading order: its right-to-left lines reordered when
    their words read reversed (the page is one producer's, so the evidence is pooled)."""
    rtl = [line.text for line in lines if has_rtl(line.text)]
    if not rtl:
        return list(lines)
    logical, reversed_ = word_order_evidence(rtl)
    if reversed_ <= logical:
        return list(lines)
    return [_reordered(line) if has_rtl(line.text) else line for line in lines]
