"""What a DOCX paragraph or table says, read from its OOXML with lxml: a paragraph's text (runs,
tabs, line breaks, footnote marks), where its page breaks fall, its pictures' alt text; a
table's cells with their spans, as the one Table type (tables.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from pagereader.types import Table, TableCell

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=False
)
"""No entities, no DTD, no network: a package's XML is data, never instructions."""
_STRICT = (
    (b"http://purl.oclc.org/ooxml/wordprocessingml/main", W.encode()),
    (b"http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing", WP.encode()),
)
"""Strict OOXML's namespaces for the transitional ones this reader names (same elements)."""


def parse_part(data: bytes) -> etree._Element:
    """A part's XML, Strict OOXML read as transitional."""
    for strict, transitional in _STRICT:
        data = data.replace(strict, transitional)
    return etree.fromstring(data, PARSER)


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


def attr(element: etree._Element | None, name: str) -> str:
    """A ``w:`` attribute of ``element`` ('' when either is missing)."""
    return "" if element is None else str(element.get(w(name)) or "")


def count(element: etree._Element | None, name: str, default: int) -> int:
    """A ``w:`` attribute that holds a count, ``default`` when missing or no number."""
    value = attr(element, name)
    return int(value) if value.isascii() and value.isdigit() else default


@dataclass
class ParagraphText:
    """A paragraph's text, its pictures' alt texts, and the page breaks around it: before it
    (a break ahead of any of its text) or after it (a break once its text began)."""

    text: str
    pictures: list[str]
    footnotes: list[str]
    break_before: bool = False
    break_after: bool = False


def _walk(element: etree._Element) -> Iterator[etree._Element]:
    """``element``'s descendants in document order, without markup-compatibility fallbacks
    (each repeats its choice's content in an older form)."""
    for child in element:
        if not isinstance(child.tag, str) or child.tag == f"{{{MC}}}Fallback":
            continue
        yield child
        yield from _walk(child)


def paragraph_text(p: etree._Element) -> ParagraphText:
    """What paragraph ``p`` shows; a footnote's reference becomes ``[^id]``."""
    out = ParagraphText(text="", pictures=[], footnotes=[])
    pieces: list[str] = []
    for node in _walk(p):
        tag = node.tag
        page_break = tag == w("lastRenderedPageBreak") or (
            tag == w("br") and attr(node, "type") == "page"
        )
        if page_break:
            if "".join(pieces).strip():
                out.break_after = True
            else:
                out.break_before = True
        elif tag == w("t"):
            pieces.append(node.text or "")
        elif tag == w("tab"):
            pieces.append("\t")
        elif tag in (w("br"), w("cr")):
            pieces.append("\n")
        elif tag == w("footnoteReference"):
            pieces.append(f"[^{attr(node, 'id')}]")
            out.footnotes.append(attr(node, "id"))
        elif tag == f"{{{WP}}}docPr":
            alt = str(node.get("descr") or node.get("title") or "")
            out.pictures.append(" ".join(alt.split()))
    out.text = "".join(pieces).strip()
    return out


def _cell_text(cell: etree._Element) -> str:
    lines = [paragraph_text(p).text for p in cell.iter(w("p"))]
    return "\n".join(line for line in lines if line)


def read_table(tbl: etree._Element) -> Table:
    """A table's grid: ``w:gridSpan`` spans columns, ``w:vMerge`` continues the cell above (its
    origin's row span grows); the first row is the header, as a Markdown table has it."""
    cells: list[TableCell] = []
    origin: dict[int, int] = {}  # column -> index in cells of the cell a vMerge continues
    rows = [row for row in tbl if row.tag == w("tr")]
    cols = 0
    for r, row in enumerate(rows):
        col = count(row.find(f"{w('trPr')}/{w('gridBefore')}"), "val", 0)
        for cell in row.iter(w("tc")):
            if cell.getparent() is not row and cell.getparent().tag != w("sdtContent"):
                continue  # a nested table's cell: its text is in its outer cell's
            props = cell.find(w("tcPr"))
            span = max(1, count(props.find(w("gridSpan")) if props is not None else None, "val", 1))
            merge = props.find(w("vMerge")) if props is not None else None
            if merge is not None and attr(merge, "val") != "restart" and col in origin:
                above = cells[origin[col]]
                cells[origin[col]] = above.model_copy(update={"row_span": r - above.row + 1})
            else:
                origin[col] = len(cells)
                cells.append(
                    TableCell(row=r, col=col, col_span=span, text=_cell_text(cell).strip())
                )
            col += span
        cols = max(cols, col)
    return Table(rows=len(rows), cols=cols, cells=tuple(cells), header_rows=min(1, len(rows) - 1))
