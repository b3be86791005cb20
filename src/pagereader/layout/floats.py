"""Pictures with their captions as floats: what a cut through a picture's column must not carry.

A magazine sets a photo and its caption beside the article's title: a vertical cut through the
gutter next to the photo reads the whole column under it (the caption and the body below) before
the title. A picture and its caption are read together, and the title opens the article: where
the page's first title starts above every other text block and yet is read after one, the
pictures and captions are taken out, the text is read band by band down the page (the title's
band first), and each picture is put back with its captions before the first block under it.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from pagereader.types import Block

_CAPTION_GAP = 0.03
"""Largest gap, as a share of the page height, between a picture and its caption."""
_CAPTION_LINES = 3
"""Most lines of a caption set under or over a picture without a 'Figure N' label."""
_SLACK = 0.01
"""Share of the page width a caption may run past its picture's side."""


def _line_count(block: Block) -> int:
    return len(block.lines) or 1


def caption_of(picture: Block, block: Block, width: float, height: float) -> bool:
    """Whether the block is the picture's caption: a caption block, or a short text block set
    within the picture's width just under or over it."""
    if block.kind not in ("caption", "text") or block is picture:
        return False
    slack = _SLACK * width
    inside = picture.bbox[0] - slack <= block.bbox[0] and block.bbox[2] <= picture.bbox[2] + slack
    gap = max(block.bbox[1] - picture.bbox[3], picture.bbox[1] - block.bbox[3])
    near = -_SLACK * height <= gap <= _CAPTION_GAP * height
    short = block.kind == "caption" or _line_count(block) <= _CAPTION_LINES
    return inside and near and short


def float_groups(body: Sequence[Block], width: float, height: float) -> list[list[Block]]:
    """Each picture of the body with the captions under or over it, top down."""
    groups = []
    for picture in (b for b in body if b.kind == "figure"):
        captions = [b for b in body if caption_of(picture, b, width, height)]
        groups.append(sorted([picture, *captions], key=lambda b: b.bbox[1]))
    return groups


_TITLE_SCALE = 1.5
"""How many times the body's line height an article's title is set at, at least (a section
heading at the body's size or a little over opens no article)."""


def _line_heights(block: Block) -> list[float]:
    return [ln.bbox[3] - ln.bbox[1] for ln in block.lines] or [block.bbox[3] - block.bbox[1]]


def title_read_late(ordered: Sequence[Block], floating: set[int]) -> bool:
    """Whether the page's first title opens the article (it starts above every other text
    block and is set well above the body's size) but some text block that is no picture's
    caption is read before it."""
    text = [b for b in ordered if b.kind != "figure" and id(b) not in floating]
    titles = [b for b in text if b.kind == "title"]
    if not titles:
        return False
    title = min(titles, key=lambda b: b.bbox[1])
    if any(b.bbox[1] < title.bbox[1] for b in text if b is not title):
        return False
    body = [h for b in text if b.kind != "title" for h in _line_heights(b)]
    if not body or statistics.median(_line_heights(title)) < _TITLE_SCALE * statistics.median(body):
        return False
    return text[0] is not title


def put_back(ordered: list[Block], groups: Sequence[list[Block]]) -> list[Block]:
    """The floats put back in the order, each before the first block that starts under the
    float's top within its width (after the last block when none does)."""
    out = list(ordered)
    for group in groups:
        x0 = min(b.bbox[0] for b in group)
        x1 = max(b.bbox[2] for b in group)
        top = min(b.bbox[1] for b in group)
        at = next(
            (i for i, b in enumerate(out) if b.bbox[1] > top and b.bbox[0] < x1 and x0 < b.bbox[2]),
            len(out),
        )
        out[at:at] = group
    return out
