"""Boxes of a whole-page answer that hold nothing to read.

A model that reads a whole page says where each block is; a box that lies outside the page (all
of it clipped away) or over blank paper holds text the page does not print (an invented line, a
block placed on the wrong page half). Such a block is flagged for review and its text kept in
the finding, not printed.
"""

from __future__ import annotations

import numpy as np

from pagereader.engines.base import crop_box
from pagereader.stages.state import PageState
from pagereader.types import BlockResult, Finding, Verdict

INK_LEVEL = 160
"""A pixel darker than this (0-255 grey) is print."""

MIN_INK_SHARE = 0.001
"""A box with less print than this share of its pixels (and fewer than MIN_INK_PIXELS) is
blank paper: a line of small type covers a few percent of its box."""

MIN_INK_PIXELS = 12

_SHOWN = 300


def _outside(result: BlockResult) -> bool:
    x0, y0, x1, y1 = result.block.bbox
    return x1 - x0 <= 0 or y1 - y0 <= 0


def blank_box(state: PageState, result: BlockResult) -> bool:
    """Whether the block's box on the page raster holds no print."""
    page = state.rendered
    box = crop_box(result.block.bbox, page.scale, page.image.size, pad_px=0)
    gray = np.asarray(page.image.crop(box).convert("L"))
    ink = int((gray < INK_LEVEL).sum())
    return ink < max(MIN_INK_PIXELS, MIN_INK_SHARE * gray.size)


def unsupported_box(state: PageState, result: BlockResult) -> BlockResult | None:
    """The block flagged and its text moved into the finding when its box lies outside the
    page or on blank paper; None when the box holds print."""
    if _outside(result):
        why = "its box lies outside the page"
    elif not state.rendered.blank and blank_box(state, result):
        why = "its box holds no print (blank paper)"
    else:
        return None
    text = " ".join((result.text or result.html or "").split())
    shown = text if len(text) <= _SHOWN else text[:_SHOWN] + "..."
    finding = Finding(
        check="page-box",
        severity="warn",
        message=f"{why}; the answer's text is kept here, not printed: {shown!r}",
    )
    return result.model_copy(
        update={"text": "", "html": None, "verdict": Verdict(outcome="review", findings=(finding,))}
    )


def both_readings(source: str, text: str) -> Finding:
    """The reference's own reading of a whole-page answer's block flagged for review, so a
    person sees both (the answer's is the block's text)."""
    return Finding(
        check="reference",
        severity="info",
        message=f"the {source} reads: {' '.join(text.split())!r}",
    )
