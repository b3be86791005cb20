"""The one table model's readers and writers: Markdown pipe tables and HTML tables (with
spans) to :class:`~pagereader.types.Table` and back.

Every consumer (the verifier's table check, the evaluation metrics, the olmOCR table rules,
the Markdown renderer and the engines that build tables) reads and writes tables here, so a
table means the same thing everywhere. Markdown has no merged cells, so a table with any span
is written as HTML in Markdown too. HTML is read with the standard library's parser, spans
placed as browsers do.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from pagereader.types import Table, TableCell

__all__ = [
    "Table",
    "TableCell",
    "html_to_table",
    "read_html_tables",
    "read_markdown_tables",
    "read_tables",
    "row_widths",
    "slot_rows",
    "table_to_html",
    "table_to_markdown",
    "without_unused_columns",
]

_BR = "\x00"
"""Stands for <br> while a cell's text is gathered, since raw newlines in HTML are spaces."""

_MD_SEP = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)+\|?\s*$")
_PIPE = re.compile(r"(?<!\\)\|")
_TABLE_TAG = re.compile(r"<(/?)table\b[^>]*>", re.I)
_MAX_SPAN = 1000


# --- writing ------------------------------------------------------------------------------


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


def without_unused_columns(table: Table) -> Table:
    """The table with the grid columns no cell starts in folded into the one before: a grid
    whose rules or word gaps gave 13 slots, every cell spanning a few, is the 4-column table
    it prints, and needs no spans (so Markdown writes it as a pipe table)."""
    starts = sorted({cell.col for cell in table.cells})
    if len(starts) == table.cols or not starts:
        return table
    index = {col: i for i, col in enumerate(starts)}
    cells = tuple(
        cell.model_copy(
            update={
                "col": index[cell.col],
                "col_span": max(1, sum(cell.col <= c < cell.col + cell.col_span for c in starts)),
            }
        )
        for cell in table.cells
    )
    return table.model_copy(update={"cols": len(starts), "cells": cells})


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


# --- grids --------------------------------------------------------------------------------


def _place(rows: list[list[tuple[str, int, int]]], header_rows: int) -> Table:
    """Rows of (text, rowspan, colspan) placed on a grid: each cell takes the first slot of its
    row that an earlier span does not cover; spans are clipped to the table's rows."""
    taken: set[tuple[int, int]] = set()
    cells: list[TableCell] = []
    for r, row in enumerate(rows):
        c = 0
        for text, row_span, col_span in row:
            while (r, c) in taken:
                c += 1
            cells.append(TableCell(row=r, col=c, row_span=row_span, col_span=col_span, text=text))
            for dr in range(row_span):
                for dc in range(col_span):
                    taken.add((r + dr, c + dc))
            c += col_span
    count = len(rows)
    cols = max((c + 1 for r, c in taken if r < count), default=0)
    cells = [
        cell.model_copy(update={"row_span": min(cell.row_span, count - cell.row)}) for cell in cells
    ]
    return Table(rows=count, cols=cols, cells=tuple(cells), header_rows=min(header_rows, count))


def slot_rows(table: Table) -> list[list[str]]:
    """The table as rows of the slots its cells cover; a spanning cell's text is in its first
    slot and empty strings fill the rest. Rows keep their own width (ragged rows stay so)."""
    slots: dict[tuple[int, int], str] = {}
    for cell in table.cells:
        for dr in range(cell.row_span):
            for dc in range(cell.col_span):
                slots[(cell.row + dr, cell.col + dc)] = cell.text if (dr, dc) == (0, 0) else ""
    return [
        [slots[(r, c)] for c in sorted(c for (rr, c) in slots if rr == r)]
        for r in range(table.rows)
    ]


def row_widths(table: Table) -> list[int]:
    """How many grid slots each row's cells cover, spans included."""
    return [len(row) for row in slot_rows(table)]


# --- Markdown -----------------------------------------------------------------------------


def _split_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _PIPE.split(body)]


def _starts_table(lines: list[str], i: int) -> bool:
    return i + 1 < len(lines) and bool(_PIPE.search(lines[i])) and bool(_MD_SEP.match(lines[i + 1]))


def _markdown_spans(text: str) -> list[tuple[int, int, Table]]:
    """Pipe tables with the line range each spans.

    A table is a header row, a separator row of dashes, then the rows that follow with a pipe;
    it ends at a blank line, a line without a pipe, or the header of the next table. Prose
    after a blank line is never a row, even when it holds a pipe.
    """
    lines = text.splitlines()
    found: list[tuple[int, int, Table]] = []
    i = 0
    while i < len(lines):
        if not _starts_table(lines, i):
            i += 1
            continue
        rows = [_split_row(lines[i])]
        j = i + 2
        while (
            j < len(lines)
            and lines[j].strip()
            and _PIPE.search(lines[j])
            and not _starts_table(lines, j)
        ):
            rows.append(_split_row(lines[j]))
            j += 1
        found.append((i, j, _place([[(c, 1, 1) for c in row] for row in rows], 1)))
        i = j
    return found


def read_markdown_tables(text: str) -> list[Table]:
    """Every pipe table in Markdown, in order; the first row is the header."""
    return [table for _, _, table in _markdown_spans(text)]


# --- HTML ---------------------------------------------------------------------------------


class _TableParser(HTMLParser):
    """Collects the outermost table's rows of (text, rowspan, colspan) and its heading rows
    (inside ``<thead>`` or made only of ``<th>``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self.heading: list[bool] = []
        self._depth = 0
        self._in_head = False
        self._cell: list[str] | None = None
        self._spans = (1, 1)

    @staticmethod
    def _span(value: str | None) -> int:
        try:
            return max(1, min(int(value or 1), _MAX_SPAN))
        except ValueError:
            return 1

    def _new_row(self) -> None:
        self.rows.append([])
        self.heading.append(self._in_head)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
        if self._depth != 1:
            if tag == "br" and self._cell is not None:
                self._cell.append(_BR)
            return
        if tag == "thead":
            self._in_head = True
        elif tag in ("tbody", "tfoot"):
            self._in_head = False
        elif tag == "tr":
            self._close_cell()
            self._new_row()
        elif tag in ("td", "th"):
            self._close_cell()
            if not self.rows:
                self._new_row()
            if tag == "td" and not self._in_head:
                self.heading[-1] = False
            elif tag == "th" and not self.rows[-1]:
                self.heading[-1] = True
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
        elif self._depth == 1 and tag == "thead":
            self._in_head = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def finish(self) -> None:
        """Keep the last cell of a table cut off before its closing tags."""
        self._close_cell()

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
    parser.finish()
    header_rows = 0
    while header_rows < len(parser.heading) and parser.heading[header_rows]:
        header_rows += 1
    return _place(parser.rows, header_rows)


def _html_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges of the outermost ``<table>`` elements; an unclosed one runs to the end."""
    spans: list[tuple[int, int]] = []
    depth, start = 0, 0
    for match in _TABLE_TAG.finditer(text):
        if not match.group(1):
            if depth == 0:
                start = match.start()
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((start, match.end()))
    if depth > 0:
        spans.append((start, len(text)))
    return spans


def read_html_tables(text: str) -> list[Table]:
    """Every outermost HTML table in a text that may mix Markdown and HTML, in order."""
    return [html_to_table(text[a:b]) for a, b in _html_spans(text)]


def read_tables(text: str, *, markdown: bool = True) -> list[Table]:
    """Every table of a page in reading order: HTML tables and (unless ``markdown`` is false)
    pipe tables outside them."""
    html_spans = _html_spans(text)
    found = [(a, html_to_table(text[a:b])) for a, b in html_spans]
    if markdown:
        rest = list(text)
        for a, b in html_spans:  # blank the HTML out, keeping offsets and line breaks
            rest[a:b] = [ch if ch == "\n" else " " for ch in text[a:b]]
        plain = "".join(rest)
        starts = [0]
        for line in plain.splitlines(keepends=True):
            starts.append(starts[-1] + len(line))
        found.extend((starts[i], table) for i, _, table in _markdown_spans(plain))
    return [table for _, table in sorted(found, key=lambda item: item[0])]
