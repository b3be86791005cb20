"""Blocks of a scanned page from layout-model regions and OCR line boxes.

The embedded layout model (CDLA labels) gives rough boxes with labels and scores; OCR detection
gives tight line boxes. Lines decide what a text region really holds: each line goes to the
region that covers most of it, text regions shrink to their lines, empty ones go, and lines no
region claims are grouped into paragraphs on their own. Labels are only a hint: the model calls
Korean body text "reference" and sometimes a whole paragraph "title", so the kind of a text region
is guessed again from its lines.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pagereader.layout.block_kinds import BAND, body_font_size, guess_kind
from pagereader.layout.line_text import join_lines, union
from pagereader.layout.paragraphs import paragraph_lines
from pagereader.types import BBox, Block, BlockKind, TextLine

logger = logging.getLogger(__name__)

LABELS: dict[str, BlockKind] = {
    "text": "text",
    "title": "title",
    "figure": "figure",
    "figure_caption": "caption",
    "table": "table",
    "table_caption": "caption",
    "header": "header",
    "footer": "footer",
    "reference": "text",
    "equation": "formula",
}
_VISUAL: frozenset[str] = frozenset({"figure", "table", "formula"})
_MIN_SHARE = 0.5
"""Share of a line's area a region must cover to claim it."""


def area(box: BBox) -> float:
    """Area of a box (0 for an empty one)."""
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def intersection(a: BBox, b: BBox) -> float:
    """Area shared by two boxes."""
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _overlaps(a: BBox, b: BBox, iou: float = 0.5, contain: float = 0.85) -> bool:
    """Same thing twice: high IoU, or the smaller box lies almost wholly in the larger."""
    inter = intersection(a, b)
    if inter <= 0:
        return False
    smaller = min(area(a), area(b))
    return inter / (area(a) + area(b) - inter) >= iou or (
        smaller > 0 and inter / smaller >= contain
    )


def _family(kind: BlockKind) -> str:
    return "visual" if kind in _VISUAL else "text"


def _suppress(regions: list[tuple[BlockKind, BBox, float]]) -> list[tuple[BlockKind, BBox, float]]:
    """Non-maximum suppression: a region that repeats a better-scored one is dropped.

    Text regions inside a table or figure are dropped too: that text belongs to the table or
    figure and is read with it.
    """
    kept: list[tuple[BlockKind, BBox, float]] = []
    for kind, box, score in sorted(regions, key=lambda r: -r[2]):
        duplicate = any(_family(k) == _family(kind) and _overlaps(b, box) for k, b, _ in kept)
        inside_visual = _family(kind) == "text" and any(
            _family(k) == "visual" and intersection(b, box) >= 0.8 * area(box) for k, b, _ in kept
        )
        if not (duplicate or inside_visual):
            kept.append((kind, box, score))
    return kept


def _assign(lines: Sequence[TextLine], boxes: Sequence[BBox]) -> list[int]:
    """Index of the box claiming each line, or -1 when none covers enough of it."""
    owners = []
    for line in lines:
        line_area = area(line.bbox) or 1e-9
        best, best_share = -1, _MIN_SHARE
        for index, box in enumerate(boxes):
            share = intersection(line.bbox, box) / line_area
            if share > best_share or (
                share == best_share and best >= 0 and area(box) < area(boxes[best])
            ):
                best, best_share = index, share
        owners.append(best)
    return owners


def _text_kind(
    label: BlockKind, lines: Sequence[TextLine], body_size: float, page_height: float
) -> BlockKind:
    """The kind of a text region, judged from its lines with the label as a hint."""
    guessed = guess_kind(lines, body_size, page_height)
    if guessed != "text":
        return guessed
    if label == "title":
        size = max(line.bbox[3] - line.bbox[1] for line in lines)
        if len(lines) <= 2 and len(join_lines(lines)) <= 120 and size >= 0.9 * body_size:
            return "title"
    if label in ("header", "footer"):
        box = union([line.bbox for line in lines])
        near = box[3] <= 2 * BAND * page_height or box[1] >= (1 - 2 * BAND) * page_height
        if near and len(join_lines(lines)) <= 120:
            return label
    if label == "caption":
        return "caption"
    return "text"


def _merge_overlapping(blocks: list[Block]) -> list[Block]:
    """Merge text blocks whose line-snapped boxes still overlap heavily."""
    out: list[Block] = []
    for block in sorted(blocks, key=lambda b: -area(b.bbox)):
        for index, other in enumerate(out):
            if _family(other.kind) == _family(block.kind) == "text" and _overlaps(
                other.bbox, block.bbox, iou=0.5, contain=0.5
            ):
                lines = sorted(other.lines + block.lines, key=lambda ln: ln.bbox[1::-1])
                out[index] = other.model_copy(
                    update={"lines": tuple(lines), "bbox": union([other.bbox, block.bbox])}
                )
                break
        else:
            out.append(block)
    return out


def _reads_like_prose(lines: Sequence[TextLine]) -> bool:
    """A "figure" holding many long text lines is a page of text the model misread (a text
    page over a background picture): its lines are laid out as text instead."""
    texts = [line.text.strip() for line in lines if line.text.strip()]
    long_lines = [t for t in texts if len(t) >= 25]
    return len(long_lines) >= 6 and sum(len(t) for t in texts) >= 300


_WHOLE_PAGE = 0.8
"""Share of the page's area above which a "figure" is the page itself (a photo of notes)."""


def _page_of_lines(box: BBox, lines: Sequence[TextLine], page_area: float) -> bool:
    """A "figure" as large as the page with lines of text on it is a page of text: notes
    written on paper, read line by line like any page, not a picture whose text is set aside."""
    texts = [line.text.strip() for line in lines if len(line.text.strip()) >= 3]
    return area(box) >= _WHOLE_PAGE * page_area and len(texts) >= 6


def merge_layout_regions(
    regions: Sequence[tuple[str, BBox, float]],
    lines: Sequence[TextLine],
    page_width: float,
    page_height: float,
    *,
    min_score: float = 0.3,
    source: str = "ocr",
) -> list[Block]:
    """Blocks of a scanned page from ``(label, bbox, score)`` regions and OCR lines.

    Tables, figures and formulas keep the model's box (with the lines inside them attached);
    text regions become the union of their lines. Order is left at 0 for the reading-order pass.
    """
    candidates = [
        (LABELS.get(label, "text"), box, score)
        for label, box, score in regions
        if score >= min_score and area(box) > 0
    ]
    kept = _suppress(candidates)
    lines = [line for line in lines if line.text.strip() or area(line.bbox) > 0]
    owners = _assign(lines, [box for _, box, _ in kept])
    body_size = body_font_size(lines)
    blocks: list[Block] = []
    for index, (kind, box, _score) in enumerate(kept):
        own = [line for line, owner in zip(lines, owners, strict=True) if owner == index]
        own.sort(key=lambda ln: (ln.bbox[1], ln.bbox[0]))
        text_page = _reads_like_prose(own) or _page_of_lines(box, own, page_width * page_height)
        if kind in _VISUAL and not (kind == "figure" and text_page):
            blocks.append(Block(kind=kind, bbox=box, lines=tuple(own), source=source))
            continue
        for group in paragraph_lines(own, page_height):
            blocks.append(
                Block(
                    kind=_text_kind(kind, group, body_size, page_height),
                    bbox=union([line.bbox for line in group]),
                    lines=tuple(group),
                    source=source,
                )
            )
    leftovers = [line for line, owner in zip(lines, owners, strict=True) if owner < 0]
    for group in paragraph_lines(leftovers, page_height):
        blocks.append(
            Block(
                kind=guess_kind(group, body_size, page_height),
                bbox=union([line.bbox for line in group]),
                lines=tuple(group),
                source=source,
            )
        )
    blocks = _merge_overlapping(blocks)
    blocks.sort(key=lambda b: (b.bbox[1], b.bbox[0]))
    logger.debug(
        "%d regions (%d kept) and %d lines gave %d blocks",
        len(regions),
        len(kept),
        len(lines),
        len(blocks),
    )
    return blocks
