"""Han characters in brackets inside Korean lines (가사(家事), 성(性)), read by the reader of Han.

Korean statutes print Hanja in brackets to fix a word's sense. Tesseract's Korean model knows
few Han characters: it reads 家事 as "※뿌" and 性 as a backslash, and sometimes drops a bracket,
so the law's words change without a sign. Each Korean line's round brackets are found by their
shape (:mod:`pagereader.layout.parentheses`), what they hold is read by PP-OCR, which reads Han,
and where PP-OCR reads Han surely, as many characters as the span holds, and Tesseract does not
read Hangul there surely, that reading stands in the line: the parts of the line around
it are read again by the line reader (Tesseract), all of a page's parts in one call, and joined
with a space only where the print has a gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pagereader.layout.parentheses import Bracket, bracket_spans, find_brackets, ink
from pagereader.protocols import LineRead, LineReader
from pagereader.text.chars import is_han, is_hangul
from pagereader.text.variants import traditional_form

HAN_SURE = 0.9
"""PP-OCR must read a bracketed span as Han characters this surely (on Hangul it reads blanks
or junk at 0.5-0.9; on printed Hanja 0.99 and more)."""
PAD = 0.15
"""White kept around a bracketed span's crop, in line heights (PP-OCR reads a glyph cut at the
crop's edge as nothing)."""
FIT = (0.6, 1.45)
"""Width of each Han character read in a span, in bracket heights (a printed Han character is
about one em wide and a bracket about one em tall; 0.9-1.1 on the scans measured)."""
HANGUL_SURE = 0.7
"""The line reader reading a span as Hangul this surely settles it as Hangul (on scans measured
it reads Hangul spans 0.75-0.97, Hanja as junk at 0.0-0.6)."""
SPACE_GAP = 0.33
"""An ink gap wider than this share of the line's height between two parts is a space (as
Tesseract's Korean words are joined, :mod:`pagereader.engines.tesseract`)."""


@dataclass(frozen=True)
class HanSpan:
    """A bracketed span of a line crop read as Han: its columns and its text with brackets."""

    left: int
    right: int
    text: str
    confidence: float


def _han_reading(text: str) -> str | None:
    """The Han characters of a bracketed span's reading, in the forms Korean prints them, or
    None when it holds anything else (Hangul read as junk, digits, nothing)."""
    inner = text.strip().removeprefix("(").removesuffix(")").strip()
    if not inner or not all(is_han(ch) for ch in inner):
        return None
    return "".join(traditional_form(ch) for ch in inner)


def _fits(text: str, opening: Bracket, closing: Bracket) -> bool:
    """Whether ``text``'s characters fill the span between the brackets as Han characters do,
    about one bracket height each (two Hangul syllables read as one Han character do not)."""
    inner = text.removeprefix("(").removesuffix(")")
    height = max(opening.height, closing.height)
    each = (closing.left - opening.right) / max(1, len(inner)) / max(1, height)
    return FIT[0] <= each <= FIT[1]


def _hangul(reading: LineRead) -> bool:
    """Whether the line reader read a span surely as Hangul (Hanja it reads as junk)."""
    return reading.confidence >= HANGUL_SURE and any(is_hangul(ch) for ch in reading.text)


def find_han_spans(
    crops: Sequence[np.ndarray],
    darks: Sequence[np.ndarray],
    han: LineReader,
    reader: LineReader,
) -> list[list[HanSpan]]:
    """Per line crop, its bracketed spans that ``han`` reads surely as Han characters filling
    the span, and that ``reader`` (the line reader) does not read surely as Hangul: PP-OCR
    reads a Hangul word in brackets as a Han character now and then ((신고) as (卫), 0.98). All
    the page's spans are read in one call of each."""
    where: list[tuple[int, Bracket, Bracket]] = []
    pieces: list[np.ndarray] = []
    for index, (crop, dark) in enumerate(zip(crops, darks, strict=True)):
        height = crop.shape[0]
        pad = int(PAD * height)
        for opening, closing in bracket_spans(find_brackets(dark), height):
            where.append((index, opening, closing))
            piece = crop[:, max(0, opening.left - pad) : closing.right + pad]
            pieces.append(np.ascontiguousarray(piece))
    found: list[list[HanSpan]] = [[] for _ in crops]
    if not pieces:
        return found
    candidates: list[tuple[int, HanSpan, np.ndarray]] = []
    for (index, opening, closing), piece, reading in zip(
        where, pieces, han.read(pieces), strict=True
    ):
        text = _han_reading(reading.text)
        if text is None or reading.confidence < HAN_SURE or not _fits(text, opening, closing):
            continue
        span = HanSpan(opening.left, closing.right, f"({text})", reading.confidence)
        candidates.append((index, span, piece))
    if not candidates:
        return found
    second = reader.read([piece for _, _, piece in candidates])
    for (index, span, _), reading in zip(candidates, second, strict=True):
        if not _hangul(reading):
            found[index].append(span)
    return found


def _parts(width: int, spans: Sequence[HanSpan]) -> list[tuple[int, int]]:
    """The column ranges of a line around its spans."""
    edges = [0, *(x for s in spans for x in (s.left, s.right)), width]
    return [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)]


def _inked(dark: np.ndarray, left: int, right: int) -> tuple[int, int] | None:
    cols = np.flatnonzero(dark[:, left:right].any(axis=0))
    return (left + int(cols[0]), left + int(cols[-1]) + 1) if len(cols) else None


def _trimmed(text: str, left: int, right: int, spans: Sequence[HanSpan]) -> str:
    """A part's reading without the edge of a neighbouring span's bracket that its crop took
    in (its faint outer pixels read as a bracket of their own)."""
    text = text.strip()
    if any(span.left >= right for span in spans):
        text = text.rstrip("(（").rstrip()
    if any(span.right <= left for span in spans):
        text = text.lstrip(")）").lstrip()
    return text


def _joined(pieces: list[tuple[str, int, int]], height: int) -> str:
    """Texts with their ink's columns, left to right, spaced where the print has a gap."""
    out = ""
    last_right: int | None = None
    for text, left, right in pieces:
        if not text:
            continue
        if out and last_right is not None and left - last_right > SPACE_GAP * height:
            out += " "
        out += text
        last_right = right
    return out


def read_han_spans(
    crops: Sequence[np.ndarray], read: list[LineRead], reader: LineReader, han: LineReader
) -> list[LineRead]:
    """``read`` (the line reader's readings of ``crops``) with the Han in each line's brackets
    read by ``han``: a line with such a span is read again around it by ``reader`` and the parts
    joined. A line whose reading already holds the span's text is left as it is."""
    darks = [ink(crop) for crop in crops]
    spans = find_han_spans(crops, darks, han, reader)
    todo = [
        i
        for i, line_spans in enumerate(spans)
        if any(span.text not in read[i].text.replace(" ", "") for span in line_spans)
    ]
    jobs: list[tuple[int, int, int]] = []
    for index in todo:
        for left, right in _parts(crops[index].shape[1], spans[index]):
            inked = _inked(darks[index], left, right)
            if inked is not None:
                jobs.append((index, *inked))
    parts = reader.read([np.ascontiguousarray(crops[i][:, a:b]) for i, a, b in jobs])
    pieces: dict[int, list[tuple[str, int, int, float]]] = {i: [] for i in todo}
    for (index, left, right), part in zip(jobs, parts, strict=True):
        text = _trimmed(part.text, left, right, spans[index])
        pieces[index].append((text, left, right, part.confidence))
    out = list(read)
    for index in todo:
        texts = pieces[index] + [(s.text, s.left, s.right, s.confidence) for s in spans[index]]
        texts.sort(key=lambda p: p[1])
        text = _joined([(t, a, b) for t, a, b, _ in texts], crops[index].shape[0])
        sure = [c for t, _, _, c in texts if t]
        out[index] = LineRead(text, sum(sure) / len(sure), read[index].lead)
    return out
