"""Markdown of pages and documents. Headers and footers stay in the JSON, out of the prose.

Text read inside a picture (a screenshot's dialog, a logo's lettering, a chart's labels) belongs
to the picture, not to the page's prose: it stays with the figure in document.json and in the
chunks, and document.md prints it after the figure's marker only when ``picture_text`` asks for
it (``output.picture_text_in_markdown``, off by default, as in docling: a screenshot's dialog
chrome or a logo's lettering is not the page's prose). That holds for the file's own image
objects; a
region a layout model took for a figure on a scan may be text it misread, and its text stays in
the prose. A deck picture's alt
text is the author's description of the picture, not text the slide shows, so it goes inside
the marker (``<!-- figure: a map of the sites -->``), where a reader of the source finds it and a
rendered page does not show it as slide text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagereader.render.list_nesting import list_depths, marker_indents, nested
from pagereader.render.md_escape import escape_html
from pagereader.render.review import review_marker
from pagereader.text.tables import html_to_table
from pagereader.types import BlockResult, DocumentResult, PageResult

_BULLET = re.compile(r"^\s*[•●○◦▪▫■□◆◇►▶‣⁃∙·\-\*–—]\s*")
_ORDERED = re.compile(r"^\s*\d+[.)](\s|$)")
"""A Markdown ordered list item's marker."""
_NUMBERED = re.compile(r"^\s*(\d+[.)]|\(\w\)|[a-z][.)]|[一二三四五六七八九十]+、|[가-하][.)])\s*")


DEFAULT_TITLE_LEVEL = 2
"""A title's level before the document's headings are known (a page read on its own)."""
DESCRIBED_SOURCES = frozenset({"pptx-picture", "pptx-object", "docx-picture"})
"""Figure sources whose text is the alt text of the picture (a deck's or a DOCX's pictures are
not OCRed)."""
_BULLET_GLYPH = re.compile(r"^\s*[•●○◦▪▫■□◆◇►▶‣⁃∙·]\s*")
PICTURE_SOURCES = frozenset({"pdf-image"})
"""Figure sources that are pictures by the file's own account (its image objects), whose OCR
text is picture text: left out of the prose unless asked for."""


def _bulleted(text: str) -> str:
    """Lines opening with a bullet glyph become Markdown list items."""
    lines = text.splitlines()
    if not any(_BULLET_GLYPH.match(line) for line in lines):
        return text
    return "\n".join(
        "- " + _BULLET_GLYPH.sub("", line).strip() if _BULLET_GLYPH.match(line) else line
        for line in lines
    )


def _list_item(line: str, deck: bool = False) -> str:
    """One list line as a Markdown item, nested as deep as the line is indented (a deck's
    outline level, two spaces a level). A deck's auto-number other than ``N.`` or ``N)`` (``c)``,
    ``iv.``, ``(2)``), which no Markdown list marker can say, is kept as the item's text after
    ``- ``, so the list stays a list and the label reads as the slide shows it."""
    indent = " " * (len(line) - len(line.lstrip(" ")))
    if _ORDERED.match(line) or (_NUMBERED.match(line) and not deck):
        return indent + line.strip()
    return indent + "- " + _BULLET.sub("", line).strip()


def block_markdown(result: BlockResult, picture_text: bool = False) -> str:
    """One block as Markdown; empty for furniture and for blocks nobody could read. A figure is
    its marker, with the text read inside it after the marker when ``picture_text``."""
    kind = result.block.kind
    text = result.text.strip()
    if kind not in ("table", "formula"):  # a table's HTML is the output; TeX is no HTML
        text = escape_html(text)
    if kind in ("header", "footer"):
        return ""
    if kind == "title" or (result.level is not None and kind in ("text", "list")):
        marks = "#" * (result.level or DEFAULT_TITLE_LEVEL)
        return f"{marks} {' '.join(text.split())}" if text else ""
    if kind == "list":
        deck = result.block.source.startswith("pptx")
        return "\n".join(_list_item(line, deck) for line in text.splitlines() if line.strip())
    if kind == "table":
        return text or (result.html or "")
    if kind == "formula":
        return f"$$\n{text}\n$$" if text else ""
    if kind == "figure":
        if result.block.source in DESCRIBED_SOURCES:
            alt = " ".join(result.text.split()).replace("--", "- -")
            return f"<!-- figure: {alt} -->" if alt else "<!-- figure -->"
        printed = picture_text or result.block.source not in PICTURE_SOURCES
        return "<!-- figure -->" + (f"\n\n{text}" if text and printed else "")
    if kind == "caption":
        return f"*{text}*" if text else ""
    return _bulleted(text)


def notes_markdown(notes: str) -> str:
    """A slide's speaker notes as a quoted block after its content; empty without notes."""
    if not notes.strip():
        return ""
    quoted = "\n".join(f"> {line}" if line else ">" for line in notes.strip().splitlines())
    return f"> **Notes**\n>\n{quoted}"


def page_markdown(
    results: Sequence[BlockResult],
    notes: str = "",
    mark_review: bool = False,
    picture_text: bool = False,
) -> str:
    """A page's blocks in reading order (a list item printed further in nested deeper), then
    its speaker notes; with ``mark_review``, an HTML comment before each block the verifier
    flagged for a person to check; with ``picture_text``, the text read inside pictures after
    their markers."""
    ordered = sorted(results, key=lambda r: r.block.order)
    parts = []
    for result, depth in zip(ordered, list_depths(ordered), strict=True):
        text = nested(block_markdown(result, picture_text), depth if result.level is None else 0)
        if not text:
            continue
        marker = review_marker(result) if mark_review else ""
        parts.append(f"{marker}\n{text}" if marker else text)
    body = marker_indents("\n\n".join(parts))
    if notes.strip():
        return "\n\n".join(part for part in (body, notes_markdown(notes)) if part)
    return body


def unread(page: PageResult) -> bool:
    """A page that could not be read: errors and no block. Its Markdown is a comment saying
    why, in the document's Markdown only."""
    return bool(page.errors) and not page.blocks


def document_markdown(pages: Sequence[PageResult], page_breaks: bool = True) -> str:
    """All pages' Markdown as :func:`with_markdown` made it; an HTML comment marks where each
    page begins."""
    chunks = []
    for page in pages:
        head = f"<!-- page {page.index} -->\n\n" if page_breaks else ""
        body = page.markdown
        if unread(page):
            reason = page.errors[0].message.replace("--", "- -")
            body = f"<!-- page {page.index} could not be read: {reason} -->"
        chunks.append(head + body)
    return "\n\n".join(chunks).strip() + "\n"


def with_markdown(
    result: DocumentResult, mark_review: bool, page_breaks: bool, picture_text: bool = False
) -> DocumentResult:
    """``result`` with the Markdown of each page and of the whole made from its blocks, notes
    and errors: the one place the Markdown is made. The ``markdown`` fields are this view's,
    never set by anything else; the document layer applies it last, after every pass that
    changes blocks, and a reviewer's correction applies it again, so document.md, the pages'
    Markdown in document.json and the chunks' offsets always come from the blocks as they are.
    ``mark_review``: a comment before each flagged block; ``page_breaks``: one before each
    page; ``picture_text``: the text read inside pictures after their markers."""
    pages = tuple(
        page.model_copy(
            update={
                "markdown": ""
                if unread(page)
                else page_markdown(page.blocks, page.notes, mark_review, picture_text)
            }
        )
        for page in result.pages
    )
    markdown = document_markdown(pages, page_breaks)
    return result.model_copy(update={"pages": pages, "markdown": markdown})


@dataclass
class MarkdownSpans:
    """Where each block's Markdown (and each page's notes) lies in document.md, as
    ``[start, end)`` character offsets; a block with no Markdown (furniture) has none."""

    blocks: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    notes: dict[int, tuple[int, int]] = field(default_factory=dict)
    pages: dict[int, tuple[int, int]] = field(default_factory=dict)


def markdown_spans(result: DocumentResult) -> MarkdownSpans:
    """The spans of ``result.markdown`` that each page, block and page's notes was written
    to, found in order (each page's Markdown after the one before, each block's inside its
    page), so whatever options built the document the offsets are those of its text (a
    figure's with the text read inside it where document.md prints that, else its marker's)."""
    spans = MarkdownSpans()
    text = result.markdown
    cursor = 0
    for page in result.pages:
        body = page.markdown.strip()
        start = text.find(body, cursor) if body else -1
        if start < 0:
            continue
        spans.pages[page.index] = (start, start + len(body))
        inner = start
        for block in sorted(page.blocks, key=lambda r: r.block.order):
            piece, at = "", -1
            for form in dict.fromkeys((block_markdown(block, True), block_markdown(block))):
                at = text.find(form, inner, start + len(body)) if form else -1
                if at >= 0:
                    piece = form
                    break
            if at >= 0:
                spans.blocks[(page.index, block.block.order)] = (at, at + len(piece))
                inner = at + len(piece)
        notes = notes_markdown(page.notes)
        at = text.find(notes, inner, start + len(body)) if notes else -1
        if at >= 0:
            spans.notes[page.index] = (at, at + len(notes))
        cursor = start + len(body)
    return spans


def _table_text(html: str) -> str:
    """Cell texts row by row (a table's plain reading)."""
    table = html_to_table(html)
    rows: dict[int, list[tuple[int, str]]] = {}
    for cell in table.cells:
        if cell.text.strip():
            rows.setdefault(cell.row, []).append((cell.col, cell.text.strip()))
    return "\n".join(" ".join(t for _, t in sorted(rows[r])) for r in sorted(rows))


def _plain(result: BlockResult) -> str:
    if result.block.kind == "table" and result.html:
        return _table_text(result.html)
    text = result.text.strip()
    if result.block.kind in ("list", "text"):
        return "\n".join(_BULLET_GLYPH.sub("", line).strip() for line in text.splitlines())
    return text


def page_text(results: Sequence[BlockResult]) -> str:
    """Plain text of every block in reading order, headers and footers included, list bullets
    dropped as in the Markdown (for scoring against a page's full text)."""
    ordered = sorted(results, key=lambda r: r.block.order)
    return "\n".join(text for text in (_plain(r) for r in ordered) if text)
