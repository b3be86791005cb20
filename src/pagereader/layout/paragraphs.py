"""Lines to paragraph blocks, with a guess of each block's kind.

Text-layer and OCR lines arrive one per visual line. Paragraphs are rebuilt from geometry alone:
a line joins the paragraph right above it when the vertical gap is small relative to the line
height, the two overlap horizontally or share a left edge, and the font size stays the same.
Kinds (title, list, caption, header, footer, text) are guessed from the text and its place on the
page, because neither the text layer nor OCR says what a line is.
"""

from __future__ import annotations

import logging
import re
import statistics
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagereader.types import BBox, Block, BlockKind, TextLine

logger = logging.getLogger(__name__)

BAND = 0.07
"""Share of the page height at the top and bottom where running headers and footers live."""

_BULLET = r"[•◦▪▫●○■□◆◇►▸‣⁃∙·※➢✓✔]"
_LIST_RE = re.compile(
    rf"^(?:{_BULLET}\s*"
    r"|[-*–—+]\s+"
    r"|\(?\d{1,3}[.)]\s+"
    r"|\(\d{1,3}\)\s*"
    r"|\([A-Za-z]\)\s*"
    r"|[a-z][.)]\s+"
    r"|\(?[ivxIVX]{1,4}\)\s+"
    r"|[一二三四五六七八九十百]+[、．]"
    r"|[（(][一二三四五六七八九十百\d]+[）)]"
    r"|\d{1,3}[、．]"
    r"|[①-⑳㉑-㉟㈠-㈩㉠-㉻㈀-㈍]"
    r"|[가나다라마바사아자차카타파하][.)]\s*"
    r")"
)
_CAPTION_RE = re.compile(
    r"^(?:(?i:figure|fig\.|table|tab\.|chart|exhibit)\s*(?P<n1>[\dIVX]+(?:[.-]\d+)*[a-z]?)"
    r"|(?:圖|图|表|그림|표)\s*(?P<n2>[\d一二三四五六七八九十]+(?:[.-]\d+)*))"
)
_PAGE_NUMBER_RE = re.compile(
    r"^(?:(?i:page|p\.)\s*)?[-–—(]?\s*\d{1,4}\s*(?:(?i:of|/)\s*\d{1,4})?\s*[-–—)]?$"
    r"|^第\s*\d{1,4}\s*頁$|^-\s*\d+\s*-$|^\d{1,4}\s*(?:쪽|페이지|頁)$"
)


def size_of(line: TextLine) -> float:
    """Font size when the source knows it, else the line's box height (OCR lines)."""
    return line.font_size if line.font_size > 0 else line.bbox[3] - line.bbox[1]


def union(boxes: Sequence[BBox]) -> BBox:
    """Smallest box holding all the given boxes."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def is_cjk(ch: str) -> bool:
    """Han, kana and CJK punctuation: scripts written without spaces between words."""
    if not ch:
        return False
    code = ord(ch)
    return (
        0x3000 <= code <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFF60  # full-width forms
        or 0x20000 <= code <= 0x2FA1F
    )


def _is_latin_letter(ch: str) -> bool:
    return ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN")


def _is_spaced(ch: str) -> bool:
    """Letters of scripts that put spaces between words (Latin, Hangul, Cyrillic, ...)."""
    return ch.isalpha() and not is_cjk(ch)


def join_lines(lines: Sequence[TextLine]) -> str:
    """Join lines as running text: no space next to CJK text, a space between other words.

    A Latin word broken by a hyphen at line end is put back together when the next line starts in
    lower case; Hangul keeps its spaces since Korean separates words.
    """
    out = ""
    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        if not out:
            out = text
            continue
        last, first = out[-1], text[0]
        if (
            last in "-\u00ad"
            and len(out) >= 2
            and _is_latin_letter(out[-2])
            and _is_latin_letter(first)
            and first.islower()
        ) or last == "\u00ad":
            out = out[:-1] + text
        elif (is_cjk(last) and not _is_spaced(first)) or (is_cjk(first) and not _is_spaced(last)):
            out += text
        else:
            out += " " + text
    return out


def block_text(block: Block) -> str:
    """The running text of a block's lines."""
    return join_lines(block.lines)


def is_list_item(text: str) -> bool:
    """True when the text starts like a bullet or numbered list item."""
    return bool(_LIST_RE.match(text.strip()))


def is_caption(text: str, line_count: int = 1) -> bool:
    """True for 'Figure 3: ...', '表 2 ...', '그림 1. ...' and the like.

    'Table 1 shows ...' opens many body sentences, so a caption needs punctuation after its
    number or must be short.
    """
    text = text.strip()
    match = _CAPTION_RE.match(text)
    if not match:
        return False
    after = text[match.end() :]
    rest = after.lstrip()
    if not rest or rest[0] in ":.：。-–—|、":
        return True
    if match.group("n2") is not None and after[:1].isspace():
        return True
    return line_count <= 2 and len(text) <= 100


def is_page_number(text: str) -> bool:
    """True for '12', '- 3 -', 'Page 2 of 9', '第 3 頁'."""
    return bool(_PAGE_NUMBER_RE.match(text.strip()))


def body_font_size(lines: Sequence[TextLine]) -> float:
    """Median size over the page's lines, weighted by characters: the body text's size."""
    sizes: list[float] = []
    for line in lines:
        sizes.extend([size_of(line)] * max(1, min(len(line.text.strip()), 200)))
    return statistics.median(sizes) if sizes else 0.0


def guess_kind(
    lines: Sequence[TextLine],
    body_size: float,
    page_height: float,
    *,
    has_body: bool = True,
) -> BlockKind:
    """Guess a paragraph's kind from its text, size and place on the page."""
    text = join_lines(lines)
    box = union([line.bbox for line in lines])
    size = statistics.median(size_of(line) for line in lines)
    short = len(text) <= 80 and len(lines) <= 2
    in_top = box[3] <= page_height * BAND
    in_bottom = box[1] >= page_height * (1 - BAND)
    looks_title = body_size > 0 and size >= 1.25 * body_size and not is_page_number(text)
    if (in_top or in_bottom) and short and (has_body or is_page_number(text)) and not looks_title:
        return "header" if in_top else "footer"
    if is_caption(text, len(lines)):
        return "caption"
    if is_list_item(join_lines(lines[:2])):
        return "list"
    if body_size > 0 and size >= 1.25 * body_size and len(lines) <= 3 and len(text) <= 200:
        return "title"
    return "text"


@dataclass
class _Para:
    """A paragraph being built: rows of lines, each row one visual line."""

    rows: list[list[TextLine]] = field(default_factory=list)
    band: int = 0
    gaps: list[float] = field(default_factory=list)

    @property
    def lines(self) -> list[TextLine]:
        return [line for row in self.rows for line in sorted(row, key=lambda ln: ln.bbox[0])]

    @property
    def last_box(self) -> BBox:
        return union([line.bbox for line in self.rows[-1]])

    @property
    def left(self) -> float:
        return min(line.bbox[0] for row in self.rows for line in row)

    @property
    def right(self) -> float:
        return max(line.bbox[2] for row in self.rows for line in row)

    @property
    def size(self) -> float:
        return size_of(self.rows[-1][0])


def _band(line: TextLine, page_height: float) -> int:
    if line.bbox[3] <= page_height * BAND:
        return -1
    if line.bbox[1] >= page_height * (1 - BAND):
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


def _same_row(para: _Para, line: TextLine) -> bool:
    """The line continues the paragraph's last row (a line cut in two, a bullet and its item)."""
    row = para.rows[-1]
    box, lb = para.last_box, line.bbox
    low = min(box[3] - box[1], lb[3] - lb[1])
    high = max(box[3] - box[1], lb[3] - lb[1])
    v_overlap = min(box[3], lb[3]) - max(box[1], lb[1])
    if low <= 0 or v_overlap < 0.6 * low:
        return False
    gap = max(lb[0] - box[2], box[0] - lb[2])
    left = row[0] if lb[0] > box[0] else line
    limit = 3.0 * high if _is_marker(left.text) else 1.2 * min(high, 2 * low)
    return gap <= limit


def _attach_markers(lines: list[TextLine]) -> list[TextLine]:
    """Join each lone list marker to the text right of it on the same row."""
    used: set[int] = set()
    out: list[TextLine] = []
    for i, marker in enumerate(lines):
        if i in used or not _is_marker(marker.text):
            continue
        mb, height = marker.bbox, size_of(marker)
        best, best_gap = -1, 3.0 * max(height, 1.0)
        for j, other in enumerate(lines):
            ob = other.bbox
            low = min(mb[3] - mb[1], ob[3] - ob[1])
            v_overlap = min(mb[3], ob[3]) - max(mb[1], ob[1])
            gap = ob[0] - mb[2]
            if j != i and j not in used and v_overlap >= 0.6 * low and -1 <= gap < best_gap:
                best, best_gap = j, gap
        if best < 0:
            continue
        other = lines[best]
        used.update((i, best))
        boxes: tuple[BBox, ...] = ()
        if len(marker.char_boxes) == len(marker.text) and len(other.char_boxes) == len(other.text):
            space = (mb[2], other.bbox[1], other.bbox[0], other.bbox[3])
            boxes = (*marker.char_boxes, space, *other.char_boxes)
        update = {"text": f"{marker.text} {other.text}", "bbox": union([mb, other.bbox])}
        out.append(other.model_copy(update={**update, "char_boxes": boxes}))
    return out + [line for k, line in enumerate(lines) if k not in used]


def _inside(para: _Para, line: TextLine) -> bool:
    """The line lies within the paragraph's box: a stray glyph such as a dash or an accent."""
    box, lb = union([ln.bbox for row in para.rows for ln in row]), line.bbox
    return (
        box[0] - 1 <= lb[0] and box[1] - 1 <= lb[1] and lb[2] <= box[2] + 1 and lb[3] <= box[3] + 1
    )


def _put_inside(para: _Para, line: TextLine) -> None:
    """Add a stray line to the row it overlaps most."""

    def overlap(row: list[TextLine]) -> float:
        rb = union([ln.bbox for ln in row])
        return min(rb[3], line.bbox[3]) - max(rb[1], line.bbox[1])

    max(para.rows, key=overlap).append(line)


def _continues(para: _Para, line: TextLine) -> float | None:
    """The vertical gap if the line continues the paragraph below its last row, else None."""
    box, lb = para.last_box, line.bbox
    height = min(box[3] - box[1], lb[3] - lb[1])
    if height <= 0:
        return None
    gap = lb[1] - box[3]
    limit = 0.8 * height
    if para.gaps:
        limit = min(limit, max(para.gaps) + 0.35 * height)
    if gap < -0.3 * height or gap > limit:
        return None
    overlap = min(box[2], lb[2]) - max(box[0], lb[0])
    narrow = min(box[2] - box[0], lb[2] - lb[0])
    aligned = abs(lb[0] - para.left) <= height
    if overlap < 0.3 * narrow and not aligned:
        return None
    font_known = line.font_size > 0 and para.rows[-1][0].font_size > 0
    if not _same_size(para.size, size_of(line), font_known):
        return None
    first = para.rows[0][0]
    if is_list_item(line.text) or (is_caption(line.text, 99) and not is_caption(first.text)):
        return None
    indent = lb[0] - para.left
    if (
        not is_list_item(first.text)
        and 0.8 * height <= indent <= 4 * height
        and abs(box[0] - para.left) <= 0.5 * height
        and abs(lb[2] - para.right) <= 1.5 * height
        and len(para.rows) >= 2
    ):
        return None
    return gap


def paragraph_lines(lines: Sequence[TextLine], page_height: float) -> list[list[TextLine]]:
    """Greedy top-down grouping of lines into paragraphs (each a list of lines in order)."""
    paras: list[_Para] = []
    kept = _attach_markers([line for line in lines if line.text.strip()])
    ordered = sorted(kept, key=lambda ln: (ln.bbox[1], ln.bbox[0]))
    for line in ordered:
        band = _band(line, page_height)
        best: tuple[float, int, bool] | None = None
        for index, para in enumerate(paras):
            if para.band != band:
                continue
            if len(para.rows) > 1 and _inside(para, line):
                best = (-2e9, index, True)
                break
            if _same_row(para, line):
                best = (-1e9, index, True)
                break
            gap = _continues(para, line)
            if gap is not None and (best is None or gap < best[0]):
                best = (gap, index, False)
        if best is None:
            paras.append(_Para(rows=[[line]], band=band))
            continue
        gap, index, same_row = best
        para = paras[index]
        if gap == -2e9:
            _put_inside(para, line)
        elif same_row:
            para.rows[-1].append(line)
        else:
            para.gaps.append(max(gap, 0.0))
            para.rows.append([line])
    return [para.lines for para in paras]


def group_lines(
    lines: Sequence[TextLine],
    page_width: float,
    page_height: float,
    *,
    source: str = "textlayer",
) -> list[Block]:
    """Merge a page's lines into paragraph blocks with guessed kinds, top to bottom.

    ``order`` is left at 0: reading order is decided later over all of a page's blocks.
    """
    del page_width
    groups = paragraph_lines(lines, page_height)
    if not groups:
        return []
    body = [line for group in groups for line in group if _band(line, page_height) == 0]
    body_size = body_font_size(body or [line for group in groups for line in group])
    blocks = [
        Block(
            kind=guess_kind(group, body_size, page_height, has_body=bool(body)),
            bbox=union([line.bbox for line in group]),
            lines=tuple(group),
            source=source,
        )
        for group in groups
    ]
    blocks.sort(key=lambda b: (b.bbox[1], b.bbox[0]))
    logger.debug("grouped %d lines into %d blocks", len(lines), len(blocks))
    return blocks
