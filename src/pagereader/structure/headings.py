"""Heading levels and heading paths, from what the page shows.

A heading is a title block; a body block that opens a statute heading (``第二章 總則``,
``제2장 국민의 권리와 의무``, ``Chapter 3``: numbering.py), which a page often sets in body type;
or a text block of one short line that the text layer sets apart from the body (larger type, or
bold where the body is not) and that is not a date.
Each heading has a *style*: its numbering (the statute's units, ``Section 4``, ``1`` / ``1.1`` /
``1.1.1``, ``I.``, ``A.``, ``一、``, ``（一）``, ``가.``, ``(1)``) or, unnumbered, its type size
(the text layer's font size; a scan's line height). Headings nest as an outline is read:

- a heading whose style is open above it closes everything down to it and takes its place;
- within one numbering the units say who is outer (a chapter closes sections, ``2`` closes
  ``1.1``); a heading in clearly larger type closes the smaller ones open above it; an
  unnumbered heading closes open headings of its own size or smaller (``References`` after
  ``3.2 Results`` goes back to the top);
- any other heading opens below the one open above it (``A.`` under ``I.``, a chapter under the
  document's title).

The document's title (an unnumbered heading, the first of its first page) stays above every
numbered heading set smaller. A slide's first title is that slide's top heading (level 1); the
outline starts anew on each slide. Levels run 1..6 (deeper nesting stays at 6). Running headers
and footers have no heading path; every other block has the texts of the headings open above
it, outermost first.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from pagereader.layout.block_kinds import body_font_size, is_page_number
from pagereader.layout.line_text import size_of
from pagereader.layout.slide_title import is_date
from pagereader.structure.numbering import LEVELS, MAX_HEADING_CHARS, opening
from pagereader.structure.tree import block_parts
from pagereader.types import BlockResult, PageResult, TextLine

MAX_LEVEL = 6
SIZE_TOLERANCE = 0.12
"""Type sizes within this share of each other are one size (rounding, bold faces, OCR boxes)."""
SAME_SIZE = 0.02
"""A numbered heading closes the document's title only in the title's own size or larger (an
``Abstract`` opening a paper is no title over ``1 Introduction``); a scan's line heights differ
by more than this between a title and a chapter heading set a little smaller."""
FURNITURE = frozenset({"header", "footer"})
_STATUTE_BODY = frozenset({"text", "list"})
"""Body kinds a statute heading is often read as when set in body type."""
LARGER = 1.08
"""A line this much larger than the body type is set apart (a 12 pt heading over 11 pt text);
the layout calls only 1.25 times the page's body size a title."""
MAX_SET_APART_CHARS = 100
MAX_BODY_BOLD = 0.3
"""Bold sets a line apart only where most of the body is not bold."""
_STOPS = ".。!?！？;；,，、"
"""A line ending so is a sentence or a clause, not a heading (a heading may end in ``)``)."""

_OUTLINE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("section", re.compile(r"^(?:SECTION|Section|§)\s*\d+[A-Za-z]?\b(?![.]\d)")),
    ("decimal", re.compile(r"^(?P<n>\d{1,3}(?:\.\d{1,3}){0,5})\.?(?:\s+|$)(?=\D|$)")),
    ("roman", re.compile(r"^(?:[IVX]{1,5}|[Ⅰ-Ⅻ])[.)．]\s*\S")),
    ("upper", re.compile(r"^[A-Z][.)]\s+\S")),
    ("han", re.compile(r"^[一二三四五六七八九十壹貳參肆伍陸柒捌玖拾]{1,3}[、．]")),
    ("han-paren", re.compile(r"^[（(][一二三四五六七八九十]{1,3}[）)]")),
    ("hangul", re.compile(r"^[가나다라마바사아자차카타파하][.)]\s*\S")),
    ("lower", re.compile(r"^[a-z][.)]\s+\S")),
    ("paren", re.compile(r"^[（(](?:\d{1,2}|[a-z])[）)]\s*\S")),
    ("circled", re.compile(r"^[①-⑳]\s*\S")),
)


@dataclass(frozen=True)
class Style:
    """How a heading is set: its numbering family and rank within it (``decimal`` 2 for
    ``1.1``, ``statute`` 2 for a chapter), or ``size`` for an unnumbered one; and its type
    size."""

    family: str
    rank: int
    size: float

    @property
    def numbered(self) -> bool:
        return self.family != "size"

    def same(self, other: Style) -> bool:
        if self.family != other.family or self.rank != other.rank:
            return False
        return self.numbered or _similar(self.size, other.size)


def _similar(a: float, b: float) -> bool:
    return abs(a - b) <= SIZE_TOLERANCE * max(a, b, 1e-6)


def heading_text(result: BlockResult) -> str:
    """A heading's text on one line, as its path names it."""
    return " ".join(result.text.split())


def numbering_style(text: str) -> tuple[str, int] | None:
    """The numbering family of a heading's text and its rank within the family, or None:
    ``第二章 總則`` -> (statute, 2), ``1.2.3 Scope`` -> (decimal, 3), ``II. Methods`` ->
    (roman, 1)."""
    opened = opening(text)
    if opened is not None and opened.kind != "article":
        return "statute", LEVELS[opened.kind]
    for family, pattern in _OUTLINE:
        match = pattern.match(text)
        if match is None:
            continue
        if family == "decimal":
            return family, match.group("n").count(".") + 1
        if family == "section":
            return "statute", LEVELS["section"]
        return family, 1
    return None


@dataclass(frozen=True)
class Body:
    """The document's body type from its text layer: the character-weighted median size of its
    text and list lines (0 when no line knows its size, as on a scan), and the share of those
    characters set in bold."""

    size: float
    bold_share: float


def body_type(pages: Sequence[PageResult]) -> Body:
    lines = [
        line
        for page in pages
        for b in page.blocks
        if b.block.kind in _STATUTE_BODY
        for line in b.block.lines
        if line.font_size > 0 and line.text.strip()
    ]
    chars = sum(len(line.text) for line in lines)
    bold = sum(len(line.text) for line in lines if line.bold)
    return Body(body_font_size(lines), bold / chars if chars else 0.0)


def set_apart(result: BlockResult, body: Body) -> bool:
    """A text block of one short line with no sentence ending that the text layer sets apart:
    larger type than the body, or bold where the body is not. A heading the layout, judging a
    page alone, read as text. (Two-line blocks so set are as often a cover's or a sidebar's
    bold phrases as wrapped headings.)"""
    lines = [line for line in result.block.lines if line.text.strip()]
    text = heading_text(result)
    if result.block.kind != "text" or len(lines) != 1 or body.size <= 0:
        return False
    if len(text) > MAX_SET_APART_CHARS or text[-1] in _STOPS or is_page_number(text):
        return False
    if is_date(text):  # a cover's or a letter's date, however large: no heading
        return False
    opened = opening(text)
    if opened is not None and opened.kind == "article":  # an article's label is no heading
        return False
    return _apart(lines[0], body)


def slide_body(page: PageResult, index: int, deck: Body) -> Body:
    """The body type a slide's block is set apart from: the size most of the slide's other
    text and list lines are set in, line by line (a deck sets each slide's body in its own
    size: an agenda's 32 pt items are its body even where most slides are set in 20 pt, and one
    long item set smaller does not outweigh them), or the deck's where the block is the slide's
    only text."""
    lines = [
        line
        for n, b in enumerate(page.blocks)
        if n != index and b.block.kind in _STATUTE_BODY
        for line in b.block.lines
        if line.font_size > 0 and line.text.strip()
    ]
    if not lines:
        return deck
    return Body(statistics.median(line.font_size for line in lines), deck.bold_share)


def _apart(line: TextLine, body: Body) -> bool:
    if line.font_size <= 0:
        return False
    if line.font_size >= LARGER * body.size:
        return True
    bold = line.bold and body.bold_share < MAX_BODY_BOLD
    return bold and line.font_size >= body.size * (1 - SIZE_TOLERANCE)


def heading_parts(result: BlockResult, body: Body | None = None) -> tuple[list[str], bool]:
    """The headings a block opens, in order, and whether the block is nothing but headings.
    A title block is one heading. A body block is cut where its lines open headings or
    articles (tree.block_parts: OCR reads a statute's title with its first chapter heading as
    one block); each short part that opens a statute heading is a heading, and so is a short
    unnumbered part before one (the title above a chapter)."""
    text = heading_text(result)
    if not text:
        return [], False
    if result.block.kind == "title" or (body is not None and set_apart(result, body)):
        return [text], True
    if result.block.kind not in _STATUTE_BODY:
        return [], False
    parts = [" ".join(part.split()) for part in block_parts(result)]
    marks = [_opens_heading(part) for part in parts]
    if not any(marks):
        return [], False
    last = max(i for i, mark in enumerate(marks) if mark)
    short = all(len(part) <= MAX_HEADING_CHARS for part in parts[: last + 1])
    if not short:
        return [], False
    found = [part for part in parts[: last + 1] if opening(part) is None or _opens_heading(part)]
    return found, last == len(parts) - 1 and len(found) == last + 1


def _opens_heading(text: str) -> bool:
    opened = opening(text) if len(text) <= MAX_HEADING_CHARS else None
    return opened is not None and opened.kind != "article"


def style_of(result: BlockResult, text: str) -> Style:
    """The style of a heading ``text`` read from ``result``: its numbering, or its type size
    (the median of the block's lines)."""
    lines = [line for line in result.block.lines if line.text.strip()]
    size = statistics.median(size_of(line) for line in lines) if lines else 0.0
    numbered = numbering_style(text)
    if numbered is None:
        return Style("size", 0, size)
    return Style(numbered[0], numbered[1], size)


@dataclass
class _Open:
    style: Style
    text: str
    pinned: bool = False


def _closes(new: Style, above: _Open) -> bool:
    """Whether a heading of style ``new`` closes the open heading ``above`` (is its peer or
    outer to it) when ``new``'s style is not open itself."""
    old = above.style
    if above.pinned:  # the title: only a heading as large closes it (a numbered one: no smaller)
        tolerance = SAME_SIZE if new.numbered else SIZE_TOLERANCE
        return new.size >= old.size * (1 - tolerance)
    if new.numbered and old.family == new.family:
        return old.rank >= new.rank
    if not new.numbered or not old.numbered:
        return old.size <= new.size * (1 + SIZE_TOLERANCE)
    return old.size < new.size * (1 - SIZE_TOLERANCE)


class Outline:
    """The headings open at a point of the document, outermost first."""

    def __init__(self) -> None:
        self.stack: list[_Open] = []

    def path(self) -> tuple[str, ...]:
        return tuple(entry.text for entry in self.stack)

    def open(self, style: Style, text: str, pinned: bool = False) -> int:
        """Open a heading; its level (1 for the outermost)."""
        same = [i for i, entry in enumerate(self.stack) if entry.style.same(style)]
        if same and not self.stack[same[-1]].pinned:
            del self.stack[same[-1] :]
        else:
            while self.stack and _closes(style, self.stack[-1]):
                self.stack.pop()
        self.stack.append(_Open(style, text, pinned))
        return min(len(self.stack), MAX_LEVEL)


def is_slide(page: PageResult) -> bool:
    """A slide of a deck (its own XML says so) or a landscape page, read as one."""
    return page.slide is not None or page.width > page.height * 1.2


def with_headings(pages: Sequence[PageResult]) -> list[PageResult]:
    """``pages`` with every heading's ``level`` and every body block's ``heading_path``.
    A deck (every page a slide) starts its outline anew on each slide."""
    deck = bool(pages) and all(is_slide(page) for page in pages)
    body = body_type(pages)
    outline = Outline()
    first = True
    out: list[PageResult] = []
    for page in pages:
        if deck:
            outline = Outline()
        blocks: dict[int, BlockResult] = {}
        for index, result in sorted(enumerate(page.blocks), key=lambda p: p[1].block.order):
            if result.block.kind in FURNITURE:
                blocks[index] = _updated(result, None, ())
                continue
            texts, whole = heading_parts(result, slide_body(page, index, body) if deck else body)
            level = None
            for n, text in enumerate(texts):
                style = style_of(result, text)
                top = deck and not outline.stack
                pinned = top or (first and not style.numbered and not outline.stack)
                if top or (pinned and n + 1 < len(texts)):
                    # nothing on its slide closes a slide's title; nor anything a title read
                    # in one block with the chapter below it (one block, one size for both)
                    style = Style("slide" if top else "size", 0, math.inf)
                level = outline.open(style, text, pinned)
                first = False
            if whole and level is not None:
                blocks[index] = _updated(result, level, outline.path()[:-1])
            else:
                blocks[index] = _updated(result, None, outline.path())
        first = first and not page.blocks
        updated = tuple(blocks[i] for i in range(len(page.blocks)))
        out.append(page.model_copy(update={"blocks": updated}))
    return out


def _updated(result: BlockResult, level: int | None, path: tuple[str, ...]) -> BlockResult:
    if result.level == level and result.heading_path == path:
        return result
    return result.model_copy(update={"level": level, "heading_path": path})
