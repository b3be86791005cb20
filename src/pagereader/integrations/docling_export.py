"""A DocumentResult as a docling-core ``DoclingDocument``, so that tools built on docling's
document model (its chunkers, serializers, viewers) read pagereader's output.

Every page becomes a docling page with its size; every block an item with its provenance: the
page number, the block's box in the page's own units with the origin at the top left (docling's
``CoordOrigin.TOPLEFT``: PDF points, or pixels for an image) and the span of its text. Headings
are section headers at pagereader's level (1..6); running headers and footers are furniture;
list blocks are list groups of their items; tables keep their cells with spans; figures are
pictures, holding the text read inside them. Items hang flat under the body, in reading order,
as docling's own converters place them (its chunkers read the heading levels)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath

from docling_core.types.doc import (
    BoundingBox,
    ContentLayer,
    CoordOrigin,
    DocItemLabel,
    DoclingDocument,
    ProvenanceItem,
    Size,
    TableCell,
    TableData,
)

from pagereader.structure.headings import with_headings
from pagereader.text.tables import read_tables
from pagereader.types import BlockResult, DocumentResult, PageResult, Table

_MARKER = re.compile(
    r"^\s*(?P<m>[•●○◦▪▫■□◆◇►▶‣⁃∙·\-*–—]|\d{1,3}[.)]|\(\w{1,4}\)|[a-z][.)]"
    r"|[一二三四五六七八九十]+、|[（(][一二三四五六七八九十\d]+[）)]|[가-하][.)]|[①-⑳])\s*"
)
_BULLETS = "•●○◦▪▫■□◆◇►▶‣⁃∙·-*–—"
_TEXT_LABELS = {
    "text": DocItemLabel.TEXT,
    "caption": DocItemLabel.CAPTION,
    "header": DocItemLabel.PAGE_HEADER,
    "footer": DocItemLabel.PAGE_FOOTER,
}


def to_docling(result: DocumentResult) -> DoclingDocument:
    """The document as a DoclingDocument. A document.json written before blocks carried
    heading levels gets them here, from its pages."""
    pages: Sequence[PageResult] = result.pages
    if not any(b.level is not None for page in pages for b in page.blocks):
        pages = with_headings(pages)
    doc = DoclingDocument(name=PurePath(result.source).stem or "document")
    for page in pages:
        doc.add_page(page_no=page.index, size=Size(width=page.width, height=page.height))
    for page in pages:
        for block in sorted(page.blocks, key=lambda b: b.block.order):
            _add_block(doc, page.index, block)
    return doc


def provenance(page: int, block: BlockResult, text: str) -> ProvenanceItem:
    """Where an item was read: its page, its block's box (top-left origin), its text's span."""
    x0, y0, x1, y1 = block.block.bbox
    box = BoundingBox(l=x0, t=y0, r=x1, b=y1, coord_origin=CoordOrigin.TOPLEFT)
    return ProvenanceItem(page_no=page, bbox=box, charspan=(0, len(text)))


def _add_block(doc: DoclingDocument, page: int, block: BlockResult) -> None:
    kind = block.block.kind
    text = block.text.strip()
    if block.level is not None:
        line = " ".join(text.split())
        doc.add_heading(line, level=block.level, prov=provenance(page, block, line))
    elif kind == "title":  # a title no heading level was given (an empty one)
        if text:
            doc.add_heading(text, level=1, prov=provenance(page, block, text))
    elif kind == "list":
        _add_list(doc, page, block, text)
    elif kind == "table":
        _add_table(doc, page, block, text)
    elif kind == "figure":
        picture = doc.add_picture(prov=provenance(page, block, ""))
        if text:
            doc.add_text(
                DocItemLabel.TEXT, text, prov=provenance(page, block, text), parent=picture
            )
    elif kind == "formula":
        if text:
            doc.add_formula(text, prov=provenance(page, block, text))
    elif text:
        furniture = kind in ("header", "footer")
        layer = ContentLayer.FURNITURE if furniture else ContentLayer.BODY
        doc.add_text(
            _TEXT_LABELS[kind], text, prov=provenance(page, block, text), content_layer=layer
        )


def _add_list(doc: DoclingDocument, page: int, block: BlockResult, text: str) -> None:
    """A list block as a list group, one item a line that opens one (a wrapped line goes on
    the item above it)."""
    items: list[tuple[str, str]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        match = _MARKER.match(line)
        if match or not items:
            marker = match.group("m") if match else ""
            items.append((marker, line[match.end() :].strip() if match else line.strip()))
        else:
            marker, before = items[-1]
            items[-1] = (marker, f"{before} {line.strip()}")
    group = doc.add_list_group(parent=None)
    for marker, item in items:
        doc.add_list_item(
            item,
            enumerated=bool(marker) and marker not in _BULLETS,
            marker=marker or None,
            prov=provenance(page, block, item),
            parent=group,
        )


def _add_table(doc: DoclingDocument, page: int, block: BlockResult, text: str) -> None:
    tables = read_tables(block.html or text)
    if not tables or not tables[0].cells:
        if text:
            doc.add_text(DocItemLabel.TEXT, text, prov=provenance(page, block, text))
        return
    doc.add_table(data=table_data(tables[0]), prov=provenance(page, block, ""))


def table_data(table: Table) -> TableData:
    """A pagereader Table as docling's TableData: every cell with its spans, header rows as
    column headers, a cell's box where the table reader knew it."""
    cells = []
    for cell in table.cells:
        known = any(cell.bbox)
        box = BoundingBox.from_tuple(cell.bbox, CoordOrigin.TOPLEFT) if known else None
        cells.append(
            TableCell(
                text=cell.text,
                bbox=box,
                row_span=cell.row_span,
                col_span=cell.col_span,
                start_row_offset_idx=cell.row,
                end_row_offset_idx=cell.row + cell.row_span,
                start_col_offset_idx=cell.col,
                end_col_offset_idx=cell.col + cell.col_span,
                column_header=cell.row < table.header_rows,
            )
        )
    return TableData(num_rows=table.rows, num_cols=table.cols, table_cells=cells)
