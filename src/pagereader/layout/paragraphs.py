"""Lines to paragraph blocks.

Text-layer and OCR lines arrive one per visual line. Paragraphs are rebuilt from geometry alone:
a line joins the paragraph right above it when the vertical gap is small relative to the line
height, the two overlap horizontally or share a left edge, and the font size stays the same;
each block's kind is then guessed (block_kinds.py) and its lines joined (line_text.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagereader.layout.block_kinds import (
    BAND,
    body_font_size,
    guess_kind,
    is_caption,
    is_caption_label,
    is_list_item,
    is_page_number,
    is_section_heading,
)
from pagereader.layout.gutters import crosses, cut_at_gutters
from pagereader.layout.line_text import join_lines, size_of, union
from pagereader.layout.table_words import BULLETS
from pagereader.text.chars import ends_sentence, opens_article_heading, starts_with_article_number
from pagereader.types import BBox, Block, TextLine

logger = logging.getLogger(__name__)


def _row_box(row: Sequence[TextLine]) -> BBox:
    return union([line.bbox for line in row])


def _main(row: Sequence[TextLine]) -> TextLine:
    """The row's longest fragment, whose size stands for the row's (not a bullet's)."""
    return max(row, key=lambda line: len(line.text.strip()))


def _row_text(row: Sequence[TextLine]) -> str:
    return join_lines(row)


@dataclass
class _Para:
    """A paragraph being built: rows, each one visual line of fragments left to right."""

    rows: list[list[TextLine]] = field(default_factory=list)
    band: int = 0
    gaps: list[float] = field(default_factory=list)

    @property
    def box(self) -> BBox:
        return union([_row_box(row) for row in self.rows])


def _band(box: BBox, page_height: float) -> int:
    if box[3] <= page_height * BAND:
        return -1
    if box[1] >= page_height * (1 - BAND):
        return 1
    return 0


def _same_size(a: float, b: float, font_known: bool) -> bool:
    if a <= 0 or b <= 0:
        return True
    tolerance = 1.15 if font_known else 1.35
    return max(a, b) / min(a, b) <= tolerance


def _is_marker(text: str) -> bool:
    """A list marker standing alone ('•', '1.', '(a)'), set apart from its item's text."""
    text = text.strip()
    return len(text) <= 4 and is_list_item(text + " x")


def _joins_row(
    box: BBox, row: Sequence[TextLine], line: TextLine, walls: Sequence[BBox] = ()
) -> float | None:
    """Vertical overlap if the line continues the row to its right (or sits inside it) and no
    column gutter lies between them."""
    lb = line.bbox
    if walls and crosses(box, lb, walls):
        return None
    low = min(box[3] - box[1], lb[3] - lb[1])
    high = max(box[3] - box[1], lb[3] - lb[1])
    overlap = min(box[3], lb[3]) - max(box[1], lb[1])
    if low <= 0 or overlap < 0.6 * low:
        return None
    marker = len(row) == 1 and (_is_marker(row[0].text) or is_caption_label(row[0].text))
    limit = 3.0 * high if marker else 1.2 * min(high, 2 * low)
    gap = lb[0] - box[2]
    if not marker and gap > low and _other_type(_main(row), line):
        return None  # a column beside, set in another size: an abstract's line and a heading
    return overlap if gap <= limit else None


def _other_type(a: TextLine, b: TextLine) -> bool:
    """Two text-layer fragments set in clearly different sizes."""
    return a.font_size > 0 and b.font_size > 0 and not _same_size(a.font_size, b.font_size, True)


def split_lines_into_rows(
    lines: Sequence[TextLine], walls: Sequence[BBox] = ()
) -> list[list[TextLine]]:
    """Join fragments of one visual line (a bullet and its text, a word set in bold) into rows.

    Rows come top to bottom, each left to right; fragments far apart on the same height (two
    columns, table cells) or on either side of a column gutter (``walls``, gutters.py) stay in
    separate rows.
    """
    rows: list[list[TextLine]] = []
    boxes: list[BBox] = []
    for line in sorted(lines, key=lambda ln: ln.bbox[0]):
        best, best_overlap = -1, 0.0
        for index, box in enumerate(boxes):
            overlap = _joins_row(box, rows[index], line, walls)
            if overlap is not None and overlap > best_overlap:
                best, best_overlap = index, overlap
        if best < 0:
            rows.append([line])
            boxes.append(line.bbox)
        else:
            rows[best].append(line)
            boxes[best] = union([boxes[best], line.bbox])
    order = sorted(range(len(rows)), key=lambda i: (boxes[i][1], boxes[i][0]))
    return [rows[i] for i in order]


def _continues(para: _Para, row: list[TextLine]) -> float | None:
    """The vertical gap if the row continues the paragraph below its last row, else None."""
    box, lb = _row_box(para.rows[-1]), _row_box(row)
    height = min(box[3] - box[1], lb[3] - lb[1])
    if height <= 0 or any(line.starts_paragraph for line in row):
        return None
    gap = lb[1] - box[3]
    limit = 0.8 * height
    if para.gaps:
        limit = min(limit, max(para.gaps) + 0.35 * height)
    if gap < -0.3 * height or gap > limit:
        return None
    left, right = para.box[0], para.box[2]
    overlap = min(box[2], lb[2]) - max(box[0], lb[0])
    narrow = min(box[2] - box[0], lb[2] - lb[0])
    if overlap < 0.3 * narrow and abs(lb[0] - left) > height:
        return None
    last, this = _main(para.rows[-1]), _main(row)
    if not _same_size(size_of(last), size_of(this), last.font_size > 0 and this.font_size > 0):
        return None
    text, first = _row_text(row), _row_text(para.rows[0])
    if len(para.rows) == 1 and is_section_heading(para.rows[0]) and not all(ln.bold for ln in row):
        return None  # a numbered heading on its own line, at the body's size
    if is_list_item(text) or (is_caption(text, 99) and not is_caption(first)):
        return None
    if starts_with_article_number(text) and (
        ends_sentence(_row_text(para.rows[-1])) or opens_article_heading(text)
    ):
        return None  # a statute's next article, however tight the line spacing
    if _leaves_item(para, lb, height):
        return None
    indent = lb[0] - left
    first_line_indent = (
        not is_list_item(first)
        and 0.8 * height <= indent <= 4 * height
        and abs(box[0] - left) <= 0.5 * height
        and abs(lb[2] - right) <= 1.5 * height
        and len(para.rows) >= 2
    )
    return None if first_line_indent else gap


def _leaves_item(para: _Para, box: BBox, height: float) -> bool:
    """A row without a marker that starts where the bulleted item above has its bullet (not
    further in, where a wrapped item's text goes on under a hanging indent) is no part of
    the item: an agenda's ``Reports`` under ``- Business arising ...``. Numbered items are
    left alone: Chinese ones (一、) wrap back to their number's edge."""
    items = [row for row in para.rows if is_list_item(_row_text(row))]
    if not items or _row_text(items[-1]).lstrip()[:1] not in BULLETS:
        return False
    return box[0] <= _row_box(items[-1])[0] + 0.3 * height


def _runs_on(para: _Para, row: list[TextLine], band: int, body_size: float) -> bool:
    """A body paragraph whose sentence runs on into the bottom band (a slide's last bullet
    wrapped over the footer's height): the row is set at the body's size, the paragraph's last
    line ends no sentence, and the row is no page number (an address or a registration number
    in small type under the last column stays furniture). Whether the row is close enough to
    the paragraph is _continues' part."""
    return (
        para.band == 0
        and band == 1
        and _same_size(size_of(_main(row)), body_size, True)
        and not ends_sentence(_row_text(para.rows[-1]))
        and not is_page_number(_row_text(row))
    )


def _usable(line: TextLine) -> bool:
    """A line with text, or a detected line box whose text is still to be read."""
    box = line.bbox
    return bool(line.text.strip()) or (line.text == "" and box[2] > box[0] and box[3] > box[1])


def paragraph_lines(lines: Sequence[TextLine], page_height: float) -> list[list[TextLine]]:
    """Greedy top-down grouping of lines into paragraphs (each a list of lines in order)."""
    paras: list[_Para] = []
    usable, walls = cut_at_gutters([line for line in lines if _usable(line)])
    body_size = body_font_size([ln for ln in usable if _band(ln.bbox, page_height) == 0])
    for row in split_lines_into_rows(usable, walls):
        band = _band(_row_box(row), page_height)
        best: tuple[float, int] | None = None
        for index, para in enumerate(paras):
            gap = (
                _continues(para, row)
                if para.band == band or _runs_on(para, row, band, body_size)
                else None
            )
            if gap is not None and (best is None or gap < best[0]):
                best = (gap, index)
        if best is None:
            paras.append(_Para(rows=[row], band=band))
        else:
            paras[best[1]].gaps.append(max(best[0], 0.0))
            paras[best[1]].rows.append(row)
    return [[line for row in para.rows for line in row] for para in paras]


def group_lines(
    lines: Sequence[TextLine],
    page_height: float,
    *,
    source: str = "textlayer",
    page_width: float = 0.0,
) -> list[Block]:
    """Merge a page's lines into paragraph blocks with guessed kinds, top to bottom.

    ``order`` is left at 0: reading order is decided later over all of a page's blocks.
    """
    groups = paragraph_lines(lines, page_height)
    if not groups:
        return []
    body = [line for group in groups for line in group if _band(line.bbox, page_height) == 0]
    body_size = body_font_size(body or [line for group in groups for line in group])
    blocks = [
        Block(
            kind=guess_kind(
                group, body_size, page_height, has_body=bool(body), page_width=page_width
            ),
            bbox=union([line.bbox for line in group]),
            lines=tuple(group),
            source=source,
        )
        for group in groups
    ]
    blocks.sort(key=lambda b: (b.bbox[1], b.bbox[0]))
    logger.debug("grouped %d lines into %d blocks", len(lines), len(blocks))
    return blocks
