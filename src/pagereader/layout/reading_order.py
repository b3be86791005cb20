"""Reading order of a page's blocks: headers, then the body by recursive XY-cut, then footers.

The body is cut on whitespace. A vertical cut (between columns) is tried first, so two columns
are read one after the other; when no vertical gap runs through the whole region (a title or a
footnote spans the columns) the region is cut into horizontal strips instead, and strips that
only together show a column gutter are joined again so that a coincidental horizontal gap in
both columns does not interleave them. Strips are joined too where a gutter through both
bounds sections that each hold text of both and a headline spans several columns below: a
newspaper's headlines over groups of its columns, so each story is read down its columns before
the next (the spanning-headline case of column detection). Strips that are rows of single-line
cells, three or more side by side, are a table's rows and stay apart: a grid is read across. Only
text shows columns here: a logo beside a slide's title is not a column, and joining on it would read
the lines under the logo before the title. A picture behind text (a slide's backdrop, a
watermark) takes no part in the cuts: spanning the rows, it would leave no whitespace to cut on.
It is read just before the first block it holds. A picture with its caption beside an article's
title is a float (floats.py): it does not carry the column under it ahead of the title.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import pairwise

from pagereader.layout.floats import float_groups, put_back, title_read_late
from pagereader.layout.numbered_cards import by_numbered_rows
from pagereader.types import Block

logger = logging.getLogger(__name__)

_MIN_GAP = 0.004
"""Smallest gap, as a share of the page side, that counts as whitespace between blocks."""


def _intervals(blocks: Sequence[Block], axis: int, shrink: float) -> list[tuple[float, float]]:
    """Extent of each block on one axis (0: x, 1: y), trimmed so touching edges do not bridge."""
    out = []
    for block in blocks:
        lo, hi = block.bbox[axis], block.bbox[axis + 2]
        cut = min(shrink, 0.25 * max(hi - lo, 0.0))
        out.append((lo + cut, hi - cut))
    return out


def _split(blocks: Sequence[Block], axis: int, min_gap: float, shrink: float) -> list[list[Block]]:
    """Split blocks into groups separated by gaps along an axis, in ascending order."""
    spans = _intervals(blocks, axis, shrink)
    order = sorted(range(len(blocks)), key=lambda i: spans[i])
    groups: list[list[Block]] = []
    reach = float("-inf")
    for i in order:
        lo, hi = spans[i]
        if not groups or lo - reach > min_gap:
            groups.append([])
        groups[-1].append(blocks[i])
        reach = max(reach, hi)
    return groups


def _has_columns(blocks: Sequence[Block], min_gap: float, shrink: float) -> bool:
    return len(blocks) > 1 and len(_split(blocks, 0, min_gap, shrink)) > 1


def _gutters(blocks: Sequence[Block], min_gap: float, shrink: float) -> list[tuple[float, float]]:
    """The whitespace between neighbouring columns of blocks, as (left, right) x-extents. A gap
    is a gutter only when it is ``min_gap`` wide untrimmed (not a heading ending just short of
    a centred formula under it) and half a line of the blocks either side of it (not the gap
    between a formula's parts: ``∇ · E =`` and its fraction ``ρ/ε0``)."""
    columns = _split(blocks, 0, min_gap, shrink)
    gutters = []
    for left, right in pairwise(columns):
        before = max(left, key=lambda b: b.bbox[2])
        after = min(right, key=lambda b: b.bbox[0])
        lo, hi = before.bbox[2], after.bbox[0]
        if hi - lo >= max(min_gap, 0.5 * min(_line_height(before), _line_height(after))):
            gutters.append((lo, hi))
    return gutters


def _line_height(block: Block) -> float:
    """A block's height per line (its whole height while its lines are not known)."""
    return (block.bbox[3] - block.bbox[1]) / max(1, len(block.lines))


def _crosses(
    block: Block, gutters: list[tuple[float, float]], shrink: float, columned: bool
) -> bool:
    """Whether the block runs over the left edge of a column after a gutter (a line ending
    short of the gutter's right side is ragged text of the column before). When the block's
    own strip has columns too, a block starting inside the gutter is text of the column after,
    set narrower (centred in its box, indented): it crosses only when it runs from the column
    before."""
    return any(
        block.bbox[0] + shrink < (lo if columned else hi) and hi < block.bbox[2] - shrink
        for lo, hi in gutters
    )


def _shared_sections(above: list[Block], below: list[Block], min_gap: float, shrink: float) -> bool:
    """Whether both strips have columns, every section that a gutter through both of them
    bounds holds text of each, and text above spans several columns below in one of them:
    side-by-side stories under their own headlines, each read down its columns before the next
    one. Cards in a grid (one column under each heading) are not stories; they stay in rows."""
    if not (_has_columns(above, min_gap, shrink) and _has_columns(below, min_gap, shrink)):
        return False
    ids = {id(b) for b in above}
    sections = _split(above + below, 0, min_gap, shrink)
    lower = [[b for b in section if id(b) not in ids] for section in sections]
    return (
        len(sections) > 1
        and all(part and len(part) < len(s) for part, s in zip(lower, sections, strict=True))
        and any(_has_columns(part, min_gap, shrink) for part in lower)
    )


_GRID_CELLS = 3
"""Blocks side by side, each a single line, from which a strip is a row of a grid."""


def _grid_row(strip: list[Block]) -> bool:
    """Whether the strip is a row of single-line cells side by side (a table the layout did not
    box): rows of a grid are read across, a row at a time, never down its columns."""
    text = [b for b in strip if b.kind != "figure"]
    return len(text) >= _GRID_CELLS and all(len(b.lines) == 1 for b in text)


def _continues(prev: list[Block], strip: list[Block], min_gap: float, shrink: float) -> bool:
    """Whether the text of two strips runs on in the same columns: never two rows of a grid
    (``_grid_row``); both have columns and each
    section between gutters through both holds text of each (``_shared_sections``), or one of
    them has columns, no text of the other runs over the left edge of their columns, and their
    union keeps a gutter."""
    above = [b for b in prev if b.kind != "figure"]
    below = [b for b in strip if b.kind != "figure"]
    if _grid_row(above) and _grid_row(below):
        return False
    if _shared_sections(above, below, min_gap, shrink):
        return True
    columned = {id(side): _has_columns(side, min_gap, shrink) for side in (above, below)}
    for side, other in ((above, below), (below, above)):
        if columned[id(side)]:
            gutters = _gutters(side, min_gap, shrink)
            if any(_crosses(b, gutters, shrink, columned[id(other)]) for b in other):
                return False
    return any(columned.values()) and _has_columns(prev + strip, min_gap, shrink)


def _join_column_strips(
    strips: list[list[Block]], min_gap: float, shrink: float
) -> list[list[Block]]:
    """Join neighbouring strips whose text runs on in columns (see ``_continues``)."""
    out: list[list[Block]] = [strips[0]]
    for strip in strips[1:]:
        prev = out[-1]
        if _continues(prev, strip, min_gap, shrink):
            out[-1] = prev + strip
        else:
            out.append(strip)
    return out


def _xy_cut(blocks: list[Block], width: float, height: float) -> list[Block]:
    if len(blocks) <= 1:
        return blocks
    x_gap, y_gap = _MIN_GAP * width, 0.0
    x_shrink, y_shrink = _MIN_GAP * width, _MIN_GAP * height
    columns = _split(blocks, 0, x_gap, x_shrink)
    if len(columns) > 1:
        read = [_xy_cut(column, width, height) for column in columns]
        return by_numbered_rows(read) or [b for column in read for b in column]
    strips = _split(blocks, 1, y_gap, y_shrink)
    if len(strips) > 1:
        strips = _join_column_strips(strips, x_gap, x_shrink)
    if len(strips) > 1:
        return [b for strip in strips for b in _xy_cut(strip, width, height)]
    return sorted(blocks, key=lambda b: (b.bbox[1], b.bbox[0]))


def _holds(picture: Block, block: Block) -> bool:
    """Whether the block's centre lies inside the picture."""
    x, y = (block.bbox[0] + block.bbox[2]) / 2, (block.bbox[1] + block.bbox[3]) / 2
    return picture.bbox[0] <= x <= picture.bbox[2] and picture.bbox[1] <= y <= picture.bbox[3]


def _title_first(blocks: list[Block], width: float, height: float) -> list[Block]:
    """The XY-cut order, or, where it reads text beside a picture before the title that opens
    the article, the text alone read band by band down the page (each band by XY-cut) with each
    picture and its captions put back before what lies under it (floats.py). Without a band
    across the text the XY-cut order stands."""
    ordered = _xy_cut(blocks, width, height)
    groups = float_groups(blocks, width, height)
    floating = {id(b) for group in groups for b in group}
    if not groups or not title_read_late(ordered, floating):
        return ordered
    text = [b for b in blocks if id(b) not in floating]
    bands = _split(text, 1, 0.0, _MIN_GAP * height)
    if len(bands) < 2:
        return ordered
    return put_back([b for band in bands for b in _xy_cut(band, width, height)], groups)


def _with_backdrops(body: list[Block], width: float, height: float) -> list[Block]:
    """The XY-cut order of the body, pictures behind text left out of the cuts and put back
    before the first block they hold."""
    text = [b for b in body if b.kind != "figure"]
    backdrops = [b for b in body if b.kind == "figure" and any(_holds(b, t) for t in text)]
    ordered = _title_first([b for b in body if b not in backdrops], width, height)
    for picture in backdrops:
        at = next((i for i, b in enumerate(ordered) if b is not picture and _holds(picture, b)))
        ordered.insert(at, picture)
    return ordered


def order_blocks(blocks: Sequence[Block], page_width: float, page_height: float) -> list[Block]:
    """Return the blocks in reading order with ``order`` set to 0..n-1."""
    headers = sorted((b for b in blocks if b.kind == "header"), key=lambda b: b.bbox[1::-1])
    footers = sorted((b for b in blocks if b.kind == "footer"), key=lambda b: b.bbox[1::-1])
    body = [b for b in blocks if b.kind not in ("header", "footer")]
    ordered = headers + _with_backdrops(body, page_width, page_height) + footers
    return [b.model_copy(update={"order": i}) for i, b in enumerate(ordered)]
