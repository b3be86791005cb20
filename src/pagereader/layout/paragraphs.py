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
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagereader.hyphens import keeps_hyphen, vocabulary
from pagereader.layout.gutters import crosses, cut_at_gutters
from pagereader.text import ends_sentence, is_cjk, starts_with_article_number
from pagereader.types import BBox, Block, BlockKind, TextLine

logger = logging.getLogger(__name__)

BAND = 0.07
EDGE = 0.035
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


def _is_spaced(ch: str) -> bool:
    """Letters of scripts that put spaces between words (Latin, Hangul, Cyrillic, ...)."""
    return ch.isalpha() and not is_cjk(ch)


def join_lines(lines: Sequence[TextLine], context: Sequence[TextLine] = ()) -> str:
    """Join lines as running text: no space next to CJK text, a space between other words.

    A hyphen at a line's end joins the next line without a space; it stays unless the word was
    broken (hyphens.py decides, from the words of ``lines`` and ``context``, e.g. the page's
    other lines); a soft hyphen always goes. Hangul keeps its spaces since Korean separates
    words.
    """
    out = ""
    words: frozenset[str] | None = None

    def known() -> frozenset[str]:
        nonlocal words
        if words is None:
            words = vocabulary(line.text for line in (*lines, *context))
        return words

    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        if not out:
            out = text
            continue
        last, first = out[-1], text[0]
        if last == "\u00ad":
            out = out[:-1] + text
        elif last == "-" and _wraps_word(out, first):
            out = (out if keeps_hyphen(out, text, known) else out[:-1]) + text
        elif (is_cjk(last) and not _is_spaced(first)) or (is_cjk(first) and not _is_spaced(last)):
            out += text
        else:
            out += " " + text
    return out


def _wraps_word(out: str, first: str) -> bool:
    """A hyphen right after a letter or digit, and the next line going on with one."""
    before = out[-2] if len(out) >= 2 else ""
    return before.isalnum() and first.isalnum() and not (is_cjk(before) or is_cjk(first))


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


_FOOTNOTE_RE = re.compile(r"^(?:\*{1,3}|[†‡§¶]{1,2}|[¹²³⁴⁵⁶⁷⁸⁹⁰]{1,3})\s*[^\W\d_]")


def is_footnote(text: str) -> bool:
    """True for '** Codified in NIST SP 800-63', '† Estimated', '¹ See above': a note the page
    marks as its own, never a running footer, however close to the edge."""
    return bool(_FOOTNOTE_RE.match(text.strip()))


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
    page_width: float = 0.0,
) -> BlockKind:
    """Guess a paragraph's kind from its text, size and place on the page. On a landscape
    page (a slide) a footnote in the bottom band is the slide's text; on a document page that
    band is the running footer's, and a reader's reference leaves the note there out too."""
    text = join_lines(lines)
    box = union([line.bbox for line in lines])
    size = statistics.median(size_of(line) for line in lines)
    short = len(text) <= 80 and len(lines) <= 2
    in_top = box[3] <= page_height * BAND
    in_bottom = box[1] >= page_height * (1 - BAND)
    looks_title = body_size > 0 and size >= 1.25 * body_size and not is_page_number(text)
    if in_bottom and page_width > page_height and is_footnote(text):
        return "text"
    if (in_top or in_bottom) and short and (has_body or is_page_number(text)) and not looks_title:
        return "header" if in_top else "footer"
    on_edge = box[3] <= page_height * EDGE or box[1] >= page_height * (1 - EDGE)
    if on_edge and len(lines) == 1 and has_body and not looks_title:
        # a single line in the outermost margin: a download stamp or a running title, however long
        return "header" if in_top else "footer"
    if is_caption(text, len(lines)):
        return "caption"
    if is_list_item(join_lines(lines[:2])):
        return "list"
    if body_size > 0 and size >= 1.25 * body_size and len(lines) <= 3 and len(text) <= 200:
        return "title"
    return "text"


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


def _is_label(text: str) -> bool:
    """A caption's label standing alone ('Table 1.', '圖 2'), often set apart in bold."""
    match = _CAPTION_RE.match(text.strip())
    return bool(match) and len(text.strip()) - match.end() <= 1 if match else False


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
    marker = len(row) == 1 and (_is_marker(row[0].text) or _is_label(row[0].text))
    limit = 3.0 * high if marker else 1.2 * min(high, 2 * low)
    return overlap if lb[0] - box[2] <= limit else None


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
    if is_list_item(text) or (is_caption(text, 99) and not is_caption(first)):
        return None
    if starts_with_article_number(text) and ends_sentence(_row_text(para.rows[-1])):
        return None  # a statute's next article, however tight the line spacing
    indent = lb[0] - left
    first_line_indent = (
        not is_list_item(first)
        and 0.8 * height <= indent <= 4 * height
        and abs(box[0] - left) <= 0.5 * height
        and abs(lb[2] - right) <= 1.5 * height
        and len(para.rows) >= 2
    )
    return None if first_line_indent else gap


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
