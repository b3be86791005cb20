"""Markdown of pages and documents. Headers and footers stay in the JSON, out of the prose.

A figure prints what was read in its picture as text after its marker; a deck picture's alt
text is the author's description of the picture, not text the slide shows, so it goes inside
the marker (``<!-- figure: a map of the sites -->``), where a reader of the source finds it and a
rendered page does not show it as slide text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagereader.render.md_escape import escape_html
from pagereader.render.review import review_marker
from pagereader.tables import html_to_table
from pagereader.types import BlockResult, PageResult

_BULLET = re.compile(r"^\s*[•●○◦▪▫■□◆◇►▶‣⁃∙·\-\*–—]\s*")
_NUMBERED = re.compile(r"^\s*(\d+[.)]|\(\w\)|[a-z][.)]|[一二三四五六七八九十]+、|[가-하][.)])\s*")


DEFAULT_TITLE_LEVEL = 2
"""A title's level before the document's headings are known (a page read on its own)."""
DESCRIBED_SOURCES = frozenset({"pptx-picture", "pptx-object"})
"""Figure sources whose text is the alt text of the picture (a deck's pictures are not OCRed)."""
_BULLET_GLYPH = re.compile(r"^\s*[•●○◦▪▫■□◆◇►▶‣⁃∙·]\s*")


def _bulleted(text: str) -> str:
    """Lines opening with a bullet glyph become Markdown list items."""
    lines = text.splitlines()
    if not any(_BULLET_GLYPH.match(line) for line in lines):
        return text
    return "\n".join(
        "- " + _BULLET_GLYPH.sub("", line).strip() if _BULLET_GLYPH.match(line) else line
        for line in lines
    )


def _list_item(line: str) -> str:
    if _NUMBERED.match(line):
        return line.strip()
    return "- " + _BULLET.sub("", line).strip()


def block_markdown(result: BlockResult) -> str:
    """One block as Markdown; empty for furniture and for blocks nobody could read."""
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
        return "\n".join(_list_item(line) for line in text.splitlines() if line.strip())
    if kind == "table":
        return text or (result.html or "")
    if kind == "formula":
        return f"$$\n{text}\n$$" if text else ""
    if kind == "figure":
        if result.block.source in DESCRIBED_SOURCES:
            alt = " ".join(result.text.split()).replace("--", "- -")
            return f"<!-- figure: {alt} -->" if alt else "<!-- figure -->"
        return "<!-- figure -->" + (f"\n\n{text}" if text else "")
    if kind == "caption":
        return f"*{text}*" if text else ""
    return _bulleted(text)


def page_markdown(
    results: Sequence[BlockResult], notes: str = "", mark_review: bool = False
) -> str:
    """A page's blocks in reading order, then its speaker notes; with ``mark_review``, an HTML
    comment before each block the verifier flagged for a person to check."""
    ordered = sorted(results, key=lambda r: r.block.order)
    parts = []
    for result in ordered:
        text = block_markdown(result)
        if not text:
            continue
        marker = review_marker(result) if mark_review else ""
        parts.append(f"{marker}\n{text}" if marker else text)
    if notes.strip():
        quoted = "\n".join(f"> {line}" if line else ">" for line in notes.strip().splitlines())
        parts.append(f"> **Notes**\n>\n{quoted}")
    return "\n\n".join(parts)


def document_markdown(pages: Sequence[PageResult], page_breaks: bool = True) -> str:
    """All pages; an HTML comment marks where each page begins."""
    chunks = []
    for page in pages:
        head = f"<!-- page {page.index} -->\n\n" if page_breaks else ""
        body = page.markdown
        if not page.blocks and page.errors:
            reason = page.errors[0].message.replace("--", "- -")
            body = f"<!-- page {page.index} could not be read: {reason} -->"
        chunks.append(head + body)
    return "\n\n".join(chunks).strip() + "\n"


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
