"""A DOCX document read natively from its OOXML (lxml), for when no renderer draws it.

Blocks: a paragraph in a Title or Heading 1..6 style (or with an outline level) is a heading,
given a nominal type size by its level so that the outline (structure/headings.py) nests it as
the styles say; list paragraphs (numbered by the paragraph or its style) in a row are one list
block; a Caption paragraph is a caption; a table is a table; a picture is a figure with its alt
text; footnotes follow the page that cites them as ``[^id]: text``.

Pages: a DOCX has no pages until something lays it out. A page ends where the file says one
does: an explicit page break, a paragraph set to start a page, a section break that starts a new
page, or a page break Word recorded when it last laid the document out; a paragraph belongs to
the page it starts on. A file with none of these is one page. Every page has the first
section's size; a block's box is its place in reading order (equal bands down the text area),
not a measured position.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from pagereader.errors import CorruptFileError
from pagereader.sources.docx_parts import (
    ParagraphText,
    attr,
    paragraph_text,
    parse_part,
    read_table,
    w,
)
from pagereader.text.tables import table_to_html, table_to_markdown
from pagereader.types import Attempt, BBox, Block, BlockKind, BlockResult, Table, TextLine

DOCX_ENGINE = "docx"
_LETTER = (612.0, 792.0, 72.0, 72.0, 72.0, 72.0)  # width, height, top, right, bottom, left
_TWIPS_PER_POINT = 20.0
_BODY_SIZE = 12.0
_STEP = 1.25
"""Nominal type sizes: body 12 pt, each heading level up 1.25 times the one below it."""


@dataclass
class _Item:
    kind: BlockKind
    text: str = ""
    level: int | None = None  # 0 for Title, 1..6 for headings
    table: Table | None = None
    source: str = DOCX_ENGINE


@dataclass
class NativeDocx:
    """The document's pages as answered blocks, and its page size in points."""

    pages: tuple[tuple[BlockResult, ...], ...]
    size: tuple[float, float]


@dataclass
class _Styles:
    levels: dict[str, int] = field(default_factory=dict)  # style id -> heading level
    lists: set[str] = field(default_factory=set)  # style ids that number their paragraphs
    captions: set[str] = field(default_factory=set)
    formats: dict[tuple[str, str], str] = field(default_factory=dict)  # (numId, ilvl) -> numFmt


def _level_of(name: str, outline: str) -> int | None:
    name = name.strip().lower()
    if name in ("title",):
        return 0
    number = name[8:]
    if name.startswith("heading ") and number.isascii() and number.isdigit():
        return min(6, max(1, int(number)))
    if outline.isascii() and outline.isdigit() and int(outline) < 9:
        return min(6, int(outline) + 1)
    return None


def _styles(package: zipfile.ZipFile) -> _Styles:
    out = _Styles()
    names = set(package.namelist())
    if "word/styles.xml" in names:
        root = parse_part(package.read("word/styles.xml"))
        by_id = {attr(s, "styleId"): s for s in root.iter(w("style"))}
        for sid, style in by_id.items():
            chain, seen = style, {sid}
            while chain is not None:  # the style's own properties, then those it is based on
                level = _level_of(attr(chain.find(w("name")), "val"), _outline(chain))
                if level is not None:
                    out.levels.setdefault(sid, level)
                if chain.find(f"{w('pPr')}/{w('numPr')}") is not None:
                    out.lists.add(sid)
                based = attr(chain.find(w("basedOn")), "val")
                chain = by_id.get(based) if based not in seen else None
                seen.add(based)
            if attr(style.find(w("name")), "val").strip().lower() == "caption":
                out.captions.add(sid)
    if "word/numbering.xml" in names:
        root = parse_part(package.read("word/numbering.xml"))
        abstract = {attr(a, "abstractNumId"): a for a in root.iter(w("abstractNum"))}
        for num in root.iter(w("num")):
            found = abstract.get(attr(num.find(w("abstractNumId")), "val"))
            for lvl in found.iter(w("lvl")) if found is not None else ():
                fmt = attr(lvl.find(w("numFmt")), "val")
                out.formats[(attr(num, "numId"), attr(lvl, "ilvl"))] = fmt
    return out


def _outline(element: etree._Element) -> str:
    return attr(element.find(f"{w('pPr')}/{w('outlineLvl')}"), "val")


def _footnotes(package: zipfile.ZipFile) -> dict[str, str]:
    if "word/footnotes.xml" not in package.namelist():
        return {}
    root = parse_part(package.read("word/footnotes.xml"))
    notes = {}
    for note in root.iter(w("footnote")):
        if attr(note, "type") in ("separator", "continuationSeparator", "continuationNotice"):
            continue
        text = " ".join(paragraph_text(p).text for p in note.iter(w("p"))).strip()
        if text:
            notes[attr(note, "id")] = text
    return notes


def _page_size(body: etree._Element) -> tuple[float, ...]:
    sect = body.find(w("sectPr"))
    if sect is None:
        sect = next(body.iter(w("sectPr")), None)
    size, margin = (
        (sect.find(w("pgSz")), sect.find(w("pgMar"))) if sect is not None else (None, None)
    )
    values = [
        attr(size, "w"),
        attr(size, "h"),
        *(attr(margin, n) for n in ("top", "right", "bottom", "left")),
    ]
    return tuple(
        abs(int(v)) / _TWIPS_PER_POINT if v.isascii() and v.lstrip("-").isdigit() and int(v) else d
        for v, d in zip(values, _LETTER, strict=True)
    )


class _Reader:
    """Walks the body in order, cutting pages where the file breaks them."""

    def __init__(self, styles: _Styles, sections: list[etree._Element]) -> None:
        self.styles = styles
        self.sections = sections
        self.pages: list[list[_Item]] = [[]]
        self.cited: list[list[str]] = [[]]
        self.counters: dict[tuple[str, str], int] = {}

    def new_page(self) -> None:
        if self.pages[-1]:
            self.pages.append([])
            self.cited.append([])

    def add(self, item: _Item) -> None:
        last = self.pages[-1][-1] if self.pages[-1] else None
        if item.kind == "list" and last is not None and last.kind == "list":
            last.text += "\n" + item.text
        else:
            self.pages[-1].append(item)

    def body(self, parent: etree._Element) -> None:
        for child in parent:
            if child.tag == w("p"):
                self.paragraph(child)
            elif child.tag == w("tbl"):
                self.add(_Item("table", table=read_table(child)))
            elif child.tag == w("sdt"):
                content = child.find(w("sdtContent"))
                if content is not None:
                    self.body(content)

    def paragraph(self, p: etree._Element) -> None:
        read = paragraph_text(p)
        props = p.find(w("pPr"))
        style = attr(props.find(w("pStyle")) if props is not None else None, "val")
        if read.break_before or (
            props is not None and props.find(w("pageBreakBefore")) is not None
        ):
            self.new_page()
        self.cited[-1].extend(read.footnotes)
        if read.text:
            self.add(self._item(read, props, style))
        for alt in read.pictures:
            self.add(_Item("figure", text=alt, source="docx-picture"))
        if read.break_after or self._section_breaks(props):
            self.new_page()

    def _item(self, read: ParagraphText, props: etree._Element | None, style: str) -> _Item:
        outline = _outline(props.getparent()) if props is not None else ""
        level = _level_of("", outline) if outline else self.styles.levels.get(style)
        if level is not None:
            return _Item("title", text=" ".join(read.text.split()), level=level)
        if style in self.styles.captions:
            return _Item("caption", text=read.text)
        numbered = props.find(w("numPr")) if props is not None else None
        if numbered is not None or style in self.styles.lists:
            return _Item("list", text=self._marker(numbered) + " ".join(read.text.split()))
        return _Item("text", text=read.text)

    def _marker(self, numbered: etree._Element | None) -> str:
        """``1. `` for a numbered item (counted per list and level), ``- `` for a bullet."""
        num = attr(numbered.find(w("numId")) if numbered is not None else None, "val")
        ilvl = attr(numbered.find(w("ilvl")) if numbered is not None else None, "val") or "0"
        fmt = self.styles.formats.get((num, ilvl), "bullet")
        if fmt in ("bullet", "none", ""):
            return "- "
        for key in [k for k in self.counters if k[0] == num and k[1] > ilvl]:
            del self.counters[key]  # a shallower item restarts the deeper levels
        self.counters[(num, ilvl)] = self.counters.get((num, ilvl), 0) + 1
        return f"{self.counters[(num, ilvl)]}. "

    def _section_breaks(self, props: etree._Element | None) -> bool:
        """A section ends with this paragraph and the next starts on a new page."""
        ends = props.find(w("sectPr")) if props is not None else None
        if ends is None:
            return False
        later = self.sections[self.sections.index(ends) + 1 :]
        kind = attr(later[0].find(w("type")), "val") if later else ""
        return kind != "continuous"


def _answered(item: _Item, box: BBox, order: int) -> BlockResult:
    lines: tuple[TextLine, ...] = ()
    if item.level is not None:  # a nominal size by level: the outline nests as the styles say
        size = _BODY_SIZE * _STEP ** (7 - item.level)
        lines = (TextLine(text=item.text, bbox=box, font_size=round(size, 2)),)
    text = table_to_markdown(item.table) if item.table is not None else item.text
    html = table_to_html(item.table) if item.table is not None else None
    block = Block(kind=item.kind, bbox=box, order=order, lines=lines, source=item.source)
    attempt = Attempt(engine=DOCX_ENGINE, ok=True)
    return BlockResult(
        block=block, text=text, html=html, engine=DOCX_ENGINE, confidence=1.0, attempts=(attempt,)
    )


def _box(x0: float, y0: float, x1: float, y1: float) -> BBox:
    return (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))


def _placed(items: list[_Item], page: tuple[float, ...]) -> tuple[BlockResult, ...]:
    width, height, top, right, bottom, left = page
    if left + right >= width or top + bottom >= height:
        top, right, bottom, left = 0.0, 0.0, 0.0, 0.0
    band = (height - top - bottom) / max(1, len(items))
    return tuple(
        _answered(item, _box(left, top + i * band, width - right, top + (i + 1) * band), i)
        for i, item in enumerate(items)
    )


def read_docx(path: Path) -> NativeDocx:
    """The document's pages, or CorruptFileError naming the file."""
    try:
        with zipfile.ZipFile(path) as package:
            root = parse_part(package.read("word/document.xml"))
            styles = _styles(package)
            notes = _footnotes(package)
    except (KeyError, zipfile.BadZipFile, etree.XMLSyntaxError, OSError, ValueError) as exc:
        raise CorruptFileError(f"not a readable DOCX document ({exc})", file=path) from exc
    body = root.find(w("body"))
    if body is None:
        raise CorruptFileError("not a readable DOCX document (no body)", file=path)
    reader = _Reader(styles, list(body.iter(w("sectPr"))))
    reader.body(body)
    page = _page_size(body)
    pages: list[tuple[BlockResult, ...]] = []
    for items, cited in zip(reader.pages, reader.cited, strict=True):
        marks = dict.fromkeys(n for n in cited if n in notes)
        items = items + [_Item("text", text=f"[^{n}]: {notes[n]}") for n in marks]
        if items or not pages:
            pages.append(_placed(items, page))
    return NativeDocx(pages=tuple(pages), size=(page[0], page[1]))
