"""A PPTX deck read natively: every slide's shapes become answered blocks in reading order.

The text is the deck's own (python-pptx), boxes come from shape offsets scaled from EMU onto
the rendered page (LibreOffice's PDF has one page a slide, sized as the slide), and a picture
whose image recurs on most slides is deck furniture: one entry of the deck's metadata and a
header or footer block on each slide, never prose.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagereader.sources.base import NativeSlide
from pagereader.sources.pptx_order import reading_order
from pagereader.sources.pptx_shapes import ShapeItem, shape_items
from pagereader.types import (
    Attempt,
    BBox,
    Block,
    BlockKind,
    BlockResult,
    DeckInfo,
    DeckPicture,
    SlideInfo,
)

logger = logging.getLogger(__name__)

PPTX_ENGINE = "pptx"
"""The engine name of every block read from the deck's XML."""
_RECURRING_SHARE = 0.5
"""A picture on more than this share of the slides (and on two at least) is furniture."""


@dataclass(frozen=True)
class SlideShapes:
    """One slide's items in reading order, and what the deck says of the slide."""

    items: tuple[ShapeItem, ...]
    info: SlideInfo


@dataclass(frozen=True)
class NativeDeck:
    """A deck's slides as items, its size in EMU and its metadata."""

    slides: tuple[SlideShapes, ...]
    size: tuple[float, float]
    info: DeckInfo

    def slide_of_page(self, page: int, page_count: int) -> SlideShapes | None:
        """The slide rendered as ``page`` (1-based): one page a slide, or one a shown slide
        when the export left hidden slides out; None when the two cannot be matched."""
        if page_count == len(self.slides):
            return self.slides[page - 1]
        shown = [s for s in self.slides if not s.info.hidden]
        if page_count == len(shown):
            return shown[page - 1]
        return None

    def native(self, page: int, page_count: int, width: float, height: float) -> NativeSlide | None:
        """Page ``page``'s blocks in the page's units (``width`` x ``height``)."""
        slide = self.slide_of_page(page, page_count)
        if slide is None:
            return None
        factor = (width / self.size[0], height / self.size[1])
        furniture = {p.sha1 for p in self.info.recurring_pictures}
        results = slide_results(slide.items, factor, (width, height), furniture)
        return NativeSlide(results=tuple(results), info=slide.info)


def _walk(items: tuple[ShapeItem, ...] | list[ShapeItem]) -> list[ShapeItem]:
    out: list[ShapeItem] = []
    for item in items:
        out.extend(_walk(item.children) if item.is_group else [item])
    return out


def _recurring(slides: list[SlideShapes]) -> tuple[DeckPicture, ...]:
    seen: dict[str, set[int]] = defaultdict(set)
    alt: dict[str, str] = {}
    for slide in slides:
        for item in _walk(slide.items):
            if item.picture_hash:
                seen[item.picture_hash].add(slide.info.number)
                alt.setdefault(item.picture_hash, item.text)
    limit = max(2.0, _RECURRING_SHARE * len(slides))
    return tuple(
        DeckPicture(sha1=sha, slides=tuple(sorted(numbers)), alt_text=alt.get(sha, ""))
        for sha, numbers in sorted(seen.items())
        if len(numbers) >= limit and len(numbers) > _RECURRING_SHARE * len(slides)
    )


def _slide(slide: Any, number: int, size: tuple[float, float]) -> SlideShapes:
    items = shape_items(slide.shapes, slide.part)
    try:
        layout = str(slide.slide_layout.name or "")
    except Exception:  # a slide without a readable layout
        layout = ""
    info = SlideInfo(
        number=number,
        hidden=slide._element.get("show") in ("0", "false"),
        layout=layout,
        shapes=len(_walk(items)),
    )
    return SlideShapes(items=tuple(reading_order(items, size)), info=info)


def read_deck(path: Path) -> NativeDeck | None:
    """The deck's slides and metadata; None (logged) when python-pptx cannot read it, so the
    pages are read from the PDF render instead."""
    try:
        from pptx import Presentation

        deck = Presentation(str(path))
        size = (float(deck.slide_width or 9144000), float(deck.slide_height or 6858000))
        slides = [_slide(s, n, size) for n, s in enumerate(deck.slides, start=1)]
    except Exception as exc:  # python-pptx raises many types for a damaged package
        logger.warning("%s: shapes not readable (%s); reading the rendered pages", path, exc)
        return None
    info = DeckInfo(
        slides=len(slides),
        hidden_slides=tuple(s.info.number for s in slides if s.info.hidden),
        recurring_pictures=_recurring(slides),
    )
    return NativeDeck(slides=tuple(slides), size=size, info=info)


def _scaled(box: BBox, factor: tuple[float, float], page: tuple[float, float]) -> BBox:
    """An EMU box on the page, clipped to it (a box partly off the slide keeps its text)."""
    x0 = min(max(0.0, box[0] * factor[0]), page[0])
    y0 = min(max(0.0, box[1] * factor[1]), page[1])
    x1 = min(max(x0, box[2] * factor[0]), page[0])
    y1 = min(max(y0, box[3] * factor[1]), page[1])
    return (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))


def _answered(kind: BlockKind, box: BBox, order: int, item: ShapeItem, text: str) -> BlockResult:
    block = Block(kind=kind, bbox=box, order=order, source=item.source)
    html = item.html() if kind == "table" else None
    attempt = Attempt(engine=PPTX_ENGINE, ok=True)
    return BlockResult(
        block=block, text=text, html=html, engine=PPTX_ENGINE, confidence=1.0, attempts=(attempt,)
    )


def slide_results(
    items: tuple[ShapeItem, ...],
    factor: tuple[float, float],
    page: tuple[float, float],
    furniture: set[str],
) -> list[BlockResult]:
    """The slide's items as answered blocks in reading order: a chart's title as a caption
    before its data table, a recurring picture as an empty header or footer."""
    results: list[BlockResult] = []
    for item in items:
        box = _scaled(item.box, factor, page)
        if item.picture_hash and item.picture_hash in furniture:
            kind: BlockKind = "header" if box[1] + box[3] < page[1] else "footer"
            results.append(_answered(kind, box, len(results), item, ""))
            continue
        if item.caption:
            results.append(_answered("caption", box, len(results), item, item.caption))
        results.append(_answered(item.kind, box, len(results), item, item.markdown()))
    return results
