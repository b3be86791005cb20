"""A slide's title, found by its place and type size, read before the slide's body.

A slide printed to PDF (or scanned) carries no placeholder saying which text is its title. The
title is the short text set clearly larger than everything else of the slide's body, in its
upper half; a date or a number is no title however large it is set. The XY-cut reads a left
column first, so a list beside a title set to the right would come before it: the title is read
first, as a person reads a slide, and it is a title block even when it wraps over two or three
lines (the layout names a title by its size against the page's body, which a cover slide with
nothing but a title and a date does not have)."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from pagereader.layout.block_kinds import is_page_number
from pagereader.layout.line_text import join_lines, size_of
from pagereader.types import Block

SLIDE_ASPECT = 1.2
"""A page this much wider than high is a slide."""
LARGER = 1.08
"""The title's type is at least this much larger than every other text of the slide."""
TITLE_SIZED = 1.3
"""A subtitle or kicker set up to this much larger than the title beside it leaves the topmost
of the two the title (a line further below the largest is a label or a breadcrumb)."""
MAX_TITLE_LINES = 3
MAX_TITLE_CHARS = 120
_CANDIDATE_KINDS = frozenset({"text", "title"})
_BODY_KINDS = frozenset({"text", "title", "list", "caption"})
_STOPS = ".。!?！？;；,，、:："
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"  # English months
_DATE = re.compile(
    rf"^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?"
    rf"(?:{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS},?\s+\d{{4}}"
    rf"|{_MONTHS}\s+\d{{4}}"
    r"|\d{4}[-/.年]\s*\d{1,2}[-/.月]\s*\d{1,2}[日]?"
    r"|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}"
    r"|\d{4}\s*년\s*\d{1,2}\s*월\s*\d{1,2}\s*일)$",
    re.IGNORECASE,
)


def is_date(text: str) -> bool:
    """A line that is nothing but a date: ``November 24, 2011``, ``2024-03-05``, ``2024年3月5日``,
    ``2024년 3월 5일``."""
    return bool(_DATE.match(" ".join(text.split())))


def is_slide_page(width: float, height: float) -> bool:
    return width > height * SLIDE_ASPECT


def _size(block: Block) -> float:
    lines = [line for line in block.lines if line.text.strip()]
    return statistics.median(size_of(line) for line in lines) if lines else 0.0


def _is_stamp(block: Block) -> bool:
    """A date or a page number: set in any size, never the title, nor the text it outranks."""
    text = " ".join(join_lines(block.lines).split())
    return is_date(text) or is_page_number(text)


def _could_be_title(block: Block, height: float) -> bool:
    lines = [line for line in block.lines if line.text.strip()]
    text = " ".join(join_lines(lines).split())
    return (
        block.kind in _CANDIDATE_KINDS
        and 0 < len(lines) <= MAX_TITLE_LINES
        and len(text) <= MAX_TITLE_CHARS
        and sum(ch.isalpha() for ch in text) >= 2
        and text[-1] not in _STOPS
        and not is_page_number(text)
        and not is_date(text)
        and block.bbox[1] < height / 2
    )


def slide_title(blocks: Sequence[Block], width: float, height: float) -> int | None:
    """Index of the slide's title among ``blocks``, or None (not a slide, a slide of one text,
    no text set clearly larger than the rest of its body, or two texts set alike).

    The title is the topmost of the title-sized texts: a subtitle or a kicker set larger than
    the title below it (at most ``TITLE_SIZED`` times) does not take its place, and text set
    larger still below the title leaves it the title; a text of the title's own size elsewhere
    on the slide makes the choice a guess, so none is made."""
    if not is_slide_page(width, height):
        return None
    texts = [b for b in blocks if b.kind in _BODY_KINDS and _size(b) > 0]
    if len(texts) < 2:  # a lone word on a slide is as likely body text as a title
        return None
    body = [
        (i, b)
        for i, b in enumerate(blocks)
        if b.kind in _BODY_KINDS and _size(b) > 0 and not _is_stamp(b)
    ]
    candidates = [(i, b) for i, b in body if _could_be_title(b, height)]
    if not candidates:
        return None
    largest = max(_size(b) for _, b in candidates)
    sized = [(i, b) for i, b in candidates if _size(b) * TITLE_SIZED >= largest]
    index, title = min(sized, key=lambda p: p[1].bbox[1])
    size = _size(title)
    for i, b in body:
        if i == index or _size(b) * LARGER <= size:
            continue
        below = b.bbox[1] >= title.bbox[3] and b.bbox[1] < height / 2
        if _size(b) < size * LARGER or not below:  # a peer, or larger text above the title
            return None
    return index


def title_first(blocks: Sequence[Block], width: float, height: float) -> list[Block]:
    """``blocks`` (in reading order) with the slide's title a title block, read first after
    the running headers; ``order`` renumbered."""
    index = slide_title(blocks, width, height)
    if index is None:
        return list(blocks)
    title = blocks[index].model_copy(update={"kind": "title"})
    rest = [b for i, b in enumerate(blocks) if i != index]
    at = next((i for i, b in enumerate(rest) if b.kind != "header"), len(rest))
    ordered = [*rest[:at], title, *rest[at:]]
    return [b.model_copy(update={"order": i}) for i, b in enumerate(ordered)]
