"""Tables as HTML and as Markdown pipe tables, and HTML read back into a Table.

Markdown has no merged cells, so a table with any span is written as HTML in Markdown too.
Reading HTML back (stdlib parser, rowspan/colspan placed as browsers do) lets answers from any
engine be compared cell by cell.
"""

from __future__ import annotations

import html
import logging
from html.parser import HTMLParser

from pagereader.types import Table, TableCell

logger = logging.getLogger(__name__)

_BR = "\x00"
"""Stands for <br> while a cell's text is gathered, since raw newlines in HTML are spaces."""


def _cell_html(text: str) -> str:
    return html.escape(text, quote=False).replace("\n", "<br>")


def _start_map(table: Table) -> dict[tuple[int, int], TableCell]:
    return {(cell.row, cell.col): cell for cell in table.cells}


def _covered(table: Table) -> set[tuple[int, int]]:
    """Grid slots a cell covers without starting there."""
    out = set()
    for cell in table.cells:
        for r in range(cell.row, cell.row + cell.row_span):
            for c in range(cell.col, cell.col + cell.col_span):
                if (r, c) != (cell.row, cell.col):
                    out.add((r, c))
    return out


def table_to_html(table: Table) -> str:
    """``<table><tr><td>..</td></tr></table>``, header rows in ``<th>``; slots no cell covers
    become empty cells."""
    starts, covered = _start_map(table), _covered(table)
    parts = ["<table>"]
    for r in range(table.rows):
        parts.append("<tr>")
        for c in range(table.cols):
            cell = starts.get((r, c))
            if cell is None:
                if (r, c) not in covered:
                    parts.append("<td></td>")
                continue
            attrs = ""
            if cell.row_span > 1:
                attrs += f' rowspan="{cell.row_span}"'
            if cell.col_span > 1:
                attrs += f' colspan="{cell.col_span}"'
            tag = "th" if r < table.header_rows else "td"
            parts.append(f"<{tag}{attrs}>{_cell_html(cell.text)}</{tag}>")
        parts.append("</tr>")
    parts.append("</table>")
    return "".join(parts)


def _cell_markdown(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split("\n")).strip()


def table_to_markdown(table: Table) -> str:
    """A pipe table, the first row as its header; HTML when any cell spans."""
    if table.rows == 0 or table.cols == 0:
        return ""
    if any(cell.row_span > 1 or cell.col_span > 1 for cell in table.cells):
        return table_to_html(table)
    starts = _start_map(table)
    rows = [
        [_cell_markdown(starts[(r, c)].text) if (r, c) in starts else "" for c in range(table.cols)]
        for r in range(table.rows)
    ]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * table.cols]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return "\n".join(lines)


class _TableParser(HTMLParser):
    """Collects the outermost table's rows of (text, rowspan, colspan)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self._depth = 0
        self._cell: list[str] | None = None
        self._spans = (1, 1)

    @staticmethod
    def _span(value: str | None) -> int:
        try:
            return max(1, min(int(value or 1), 1000))
        except ValueError:
            return 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
        if self._depth != 1:
            if tag == "br" and self._cell is not None:
                self._cell.append(_BR)
            return
        if tag == "tr":
            self._close_cell()
            self.rows.append([])
        elif tag in ("td", "th"):
            self._close_cell()
            if not self.rows:
                self.rows.append([])
            found = dict(attrs)
            self._cell = []
            self._spans = (self._span(found.get("rowspan")), self._span(found.get("colspan")))
        elif tag == "br" and self._cell is not None:
            self._cell.append(_BR)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            if self._depth == 1:
                self._close_cell()
            self._depth = max(0, self._depth - 1)
        elif self._depth == 1 and tag in ("td", "th", "tr"):
            self._close_cell()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def _close_cell(self) -> None:
        if self._cell is None:
            return
        lines = [" ".join(part.split()) for part in "".join(self._cell).split(_BR)]
        self.rows[-1].append(("\n".join(lines).strip(), *self._spans))
        self._cell = None


def html_to_table(markup: str) -> Table:
    """The first table in ``markup`` as a Table; an empty Table when there is none."""
    parser = _TableParser()
    parser.feed(markup)
    parser.close()
    taken: set[tuple[int, int]] = set()
    cells: list[TableCell] = []
    for r, row in enumerate(parser.rows):
        c = 0
        for text, row_span, col_span in row:
            while (r, c) in taken:
                c += 1
            cells.append(TableCell(row=r, col=c, row_span=row_span, col_span=col_span, text=text))
            for dr in range(row_span):
                for dc in range(col_span):
                    taken.add((r + dr, c + dc))
            c += col_span
    rows = len(parser.rows)
    cols = max((c + 1 for r, c in taken if r < rows), default=0)
    cells = [
        cell.model_copy(update={"row_span": min(cell.row_span, rows - cell.row)}) for cell in cells
    ]
    return Table(rows=rows, cols=cols, cells=tuple(cells))
