"""What a block is, guessed from its text, size and place on the page: title, list, caption,
header, footer or text (neither the text layer nor OCR says what a line is)."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from pagereader.layout.line_text import join_lines, size_of, union
from pagereader.types import BlockKind, TextLine

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
    r"|^第\s*\d{1,4}\s*[頁页]\s*[,，.、;；]?\s*共\s*\d{1,4}\s*[頁页]$"
    r"|^\d{1,4}\s*/\s*\d{1,4}\s*(?:쪽|페이지)$"
)


_SECTION_RE = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z](?:\.\d{1,2}){1,3})\.?\s+[^\W\d_]")


def is_section_heading(lines: Sequence[TextLine]) -> bool:
    """One bold line (its fragments) that opens with a section number and ends no sentence
    ('5.1 Hyper Parameter Optimization', 'A.2 Proofs'): a heading at the body's own size,
    which only its face and its number set apart."""
    if not lines or not all(line.bold for line in lines):
        return False
    box = union([line.bbox for line in lines])
    if box[3] - box[1] > 1.5 * max(line.bbox[3] - line.bbox[1] for line in lines):
        return False  # more than one line
    text = join_lines(lines).strip()
    return len(text) <= 80 and bool(_SECTION_RE.match(text)) and text[-1] not in ".:;,!?"


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
    """True for '12', '- 3 -', 'Page 2 of 9', '第 3 頁', '第 1 頁，共 2 頁', '1 / 2 쪽'."""
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
    if is_section_heading(lines):
        return "title"
    if is_list_item(join_lines(lines[:2])):
        return "list"
    if body_size > 0 and size >= 1.25 * body_size and len(lines) <= 3 and len(text) <= 200:
        return "title"
    return "text"


def is_caption_label(text: str) -> bool:
    """A caption's label standing alone ('Table 1.', '圖 2'), often set apart in bold."""
    match = _CAPTION_RE.match(text.strip())
    return bool(match) and len(text.strip()) - match.end() <= 1 if match else False
