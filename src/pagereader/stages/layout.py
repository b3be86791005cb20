"""Layout stage: a page's blocks with kinds, boxes and reading order.

Digital pages: text-layer lines grouped into paragraphs, figures from the PDF's image objects,
ruled tables found on the raster, and tables without column rules found by word alignment.
Scans: OCR line detection plus the embedded layout model, reconciled by regions.py. Both end
in the same reading-order pass.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from pagereader.layout.block_kinds import is_page_number
from pagereader.layout.detector import detect_regions
from pagereader.layout.label_columns import attach_labels
from pagereader.layout.paragraphs import group_lines
from pagereader.layout.reading_order import order_blocks
from pagereader.layout.regions import merge_layout_regions
from pagereader.layout.slide_title import title_first
from pagereader.layout.table_detect import find_word_tables
from pagereader.layout.table_words import WORDS_SOURCE
from pagereader.runtime import Runtime
from pagereader.stages.detection_size import detection_options
from pagereader.stages.missed_lines import add_missed_lines
from pagereader.stages.native import native_blocks
from pagereader.stages.page_budget import cap_blocks
from pagereader.stages.page_ocr import drop_noise, read_page_lines
from pagereader.stages.state import PageState
from pagereader.types import BBox, Block, BlockKind, TextLine

_MIN_FIGURE_SHARE = 0.01
_MARGIN_BAND = 0.1


def _center_in(line: TextLine, box: BBox) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def _scaled(box: BBox, factor: float) -> BBox:
    return (box[0] / factor, box[1] / factor, box[2] / factor, box[3] / factor)


def _table_boxes(state: PageState, lines: Sequence[TextLine] = ()) -> list[BBox]:
    """Ruled tables found by the decision layer (page units), less those inside one text line:
    the strokes of a big glyph (中, 體) can look like a ruled grid on a small image."""
    return [box for box in state.table_boxes if not _inside_a_line(box, lines)]


def _inside_a_line(box: BBox, lines: Sequence[TextLine]) -> bool:
    slack = 0.1 * (box[3] - box[1])
    return any(
        ln.bbox[0] - slack <= box[0]
        and box[2] <= ln.bbox[2] + slack
        and ln.bbox[1] - slack <= box[1]
        and box[3] <= ln.bbox[3] + slack
        for ln in lines
    )


def _image_kind(box: BBox, page_height: float) -> BlockKind:
    """A small picture in the top or bottom margin is a logo: page furniture, not a figure."""
    if box[3] - box[1] > _MARGIN_BAND * page_height:
        return "figure"
    if box[3] <= _MARGIN_BAND * page_height:
        return "header"
    if box[1] >= (1 - _MARGIN_BAND) * page_height:
        return "footer"
    return "figure"


def _figure_boxes(state: PageState) -> list[tuple[BBox, BlockKind]]:
    """The page's pictures, clipped to the page, with their kinds (figure, header, footer)."""
    page = state.rendered
    area = page.width * page.height
    out: list[tuple[BBox, BlockKind]] = []
    for box in page.image_boxes:
        clipped = (
            max(0.0, box[0]),
            max(0.0, box[1]),
            min(page.width, box[2]),
            min(page.height, box[3]),
        )
        share = max(0.0, clipped[2] - clipped[0]) * max(0.0, clipped[3] - clipped[1]) / area
        if _MIN_FIGURE_SHARE <= share < 0.95:
            out.append((clipped, _image_kind(clipped, page.height)))
    return out


def digital_blocks(state: PageState) -> list[Block]:
    """Paragraphs from the text layer, figures from image objects, ruled and unruled tables."""
    page = state.rendered
    figures = _figure_boxes(state)
    ruled = [
        t for t in _table_boxes(state, page.lines) if any(_center_in(ln, t) for ln in page.lines)
    ]
    unruled = [
        box
        for box, _table in find_word_tables(
            page.lines, page.width, ruled + [box for box, _ in figures]
        )
    ]
    state.budget.check("layout")
    tables = [(box, "grid") for box in ruled] + [(box, WORDS_SOURCE) for box in unruled]
    lines = [ln for ln in page.lines if not any(_center_in(ln, t) for t, _ in tables)]
    lines = attach_labels(lines, [box for box, _ in figures])
    blocks = group_lines(lines, page.height, source="textlayer", page_width=page.width)
    for box, source in tables:
        inside = tuple(ln for ln in page.lines if _center_in(ln, box))
        blocks.append(Block(kind="table", bbox=box, lines=inside, source=source))
    for box, kind in figures:
        blocks.append(Block(kind=kind, bbox=box, source="pdf-image"))
    return blocks


def scan_blocks(state: PageState, ctx: Runtime) -> list[Block]:
    """OCR lines and layout-model regions, reconciled; ruled tables from the raster.

    The page's lines are read once here (page_ocr.py: PP-OCR over the decision layer's own
    detection, made at the size detection_size.py gives, or Tesseract's Korean model on Hangul
    pages), so the kinds can be guessed from
    the text and the embedded engines reuse them instead of reading every crop again.
    """
    page = state.rendered
    scale = page.scale
    script = state.decision.script if state.decision is not None else "unknown"
    size_pt = state.decision.features.median_font_size if state.decision else 0.0
    options = detection_options(page, size_pt, ctx.options.ocr)
    with ThreadPoolExecutor(max_workers=1) as pool:  # the layout model runs meanwhile
        reading = pool.submit(
            read_page_lines, page, script, state.detection, ctx.capabilities, options
        )
        found = detect_regions(page.image)
        lines = reading.result()
    lines = add_missed_lines(page, lines, script, ctx.capabilities, options)
    state.budget.check("layout")
    regions = [(label, _scaled(box, scale), score) for label, box, score in found]
    lines = drop_noise(lines, regions, script)
    tables = _table_boxes(state, lines)
    regions = [r for r in regions if r[0] != "table"] + [("table", t, 1.0) for t in tables]
    lines = attach_labels(lines, [box for label, box, _ in regions if label in ("table", "figure")])
    return merge_layout_regions(regions, lines, page.width, page.height, source="ocr")


_OUTER = 0.2
"""Share of the page height, at the top and at the bottom, where a page number may be printed
below or above the running bands (a journal's small type area)."""


def outer_page_numbers(blocks: list[Block], page_height: float) -> list[Block]:
    """A page number that is the page's first or last text, in its outer fifth, is a header or
    footer even below the top band (a journal page's title and number on one row)."""
    text = [b for b in blocks if b.kind in ("text", "title", "header", "footer", "list")]
    if not text:
        return blocks
    top, bottom = min(b.bbox[1] for b in text), max(b.bbox[3] for b in text)
    out = []
    for block in blocks:
        if block.kind in ("text", "title") and len(block.lines) == 1:
            number = is_page_number(block.lines[0].text)
            height = block.bbox[3] - block.bbox[1]
            if number and block.bbox[3] <= _OUTER * page_height and block.bbox[1] - top < height:
                block = block.model_copy(update={"kind": "header"})
            elif (
                number
                and block.bbox[1] >= (1 - _OUTER) * page_height
                and bottom - block.bbox[3] < height
            ):
                block = block.model_copy(update={"kind": "footer"})
        out.append(block)
    return out


def furniture_rows(blocks: list[Block]) -> list[Block]:
    """One-line blocks on the same row as a running header or footer share its kind (the page
    number and chapter beside a centred running title). A picture in the margin (a logo, a
    slide's coloured band) is furniture of its own: the footnote printed over a slide's band is
    the slide's text."""
    marks = [b for b in blocks if b.kind in ("header", "footer") and b.source != "pdf-image"]
    out = []
    for block in blocks:
        if block.kind in ("text", "title") and len(block.lines) <= 1:
            for mark in marks:
                top, bottom = max(block.bbox[1], mark.bbox[1]), min(block.bbox[3], mark.bbox[3])
                height = min(block.bbox[3] - block.bbox[1], mark.bbox[3] - mark.bbox[1])
                if height > 0 and bottom - top > 0.5 * height:
                    block = block.model_copy(update={"kind": mark.kind})
                    break
        out.append(block)
    return out


def _layout(state: PageState, ctx: Runtime) -> list[Block]:
    page = state.rendered
    state.budget.check("layout")
    blocks = digital_blocks(state) if state.trusted_text else scan_blocks(state, ctx)
    state.budget.check("layout")
    blocks = outer_page_numbers(blocks, page.height)
    ordered = order_blocks(furniture_rows(blocks), page.width, page.height)
    return title_first(ordered, page.width, page.height)


async def run_layout(ctx: Runtime, state: PageState) -> PageState:
    """Fill ``state.blocks`` in reading order."""
    if state.rendered.native is not None:
        state.blocks = native_blocks(state.rendered.native)
        return state
    if state.read_whole:  # the blocks of a whole-page answer (page_read.py)
        return state
    blocks = await asyncio.to_thread(_layout, state, ctx)
    state.blocks, cut = cap_blocks(blocks, ctx.options.budget, state.file, state.index)
    if cut is not None:
        state.errors.append(cut)
    return state
