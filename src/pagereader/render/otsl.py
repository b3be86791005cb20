"""OTSL, the table language of PaddleOCR-VL's "Table Recognition:" answers, read into a Table.

A row is a run of cell tokens ended by ``<nl>``: ``<fcel>`` opens a cell with the text after
it, ``<ecel>`` an empty one; ``<lcel>`` continues the cell to the left (a column span),
``<ucel>`` the cell above (a row span) and ``<xcel>`` both.
"""

from __future__ import annotations

import re

from pagereader.types import Table, TableCell

_TOKEN = re.compile(r"<(fcel|ecel|lcel|ucel|xcel|nl)>")
_STARTS = ("fcel", "ecel")


def is_otsl(text: str) -> bool:
    """Whether an answer is written in OTSL."""
    return "<fcel>" in text or "<ecel>" in text


def _rows(text: str) -> list[list[tuple[str, str]]]:
    rows: list[list[tuple[str, str]]] = [[]]
    parts = _TOKEN.split(text)
    for tag, content in zip(parts[1::2], parts[2::2], strict=True):
        if tag == "nl":
            rows.append([])
        else:
            rows[-1].append((tag, content.strip()))
    return [row for row in rows if row]


def otsl_to_table(text: str) -> Table:
    """The table an OTSL answer describes, spans included; header row: the first."""
    rows = _rows(text)
    cols = max((len(row) for row in rows), default=0)
    grid = [[row[c][0] if c < len(row) else "ecel" for c in range(cols)] for row in rows]
    cells: list[TableCell] = []
    for r, row in enumerate(rows):
        for c, (tag, content) in enumerate(row):
            if tag not in _STARTS:
                continue
            span_c = 1
            while c + span_c < cols and grid[r][c + span_c] in ("lcel", "xcel"):
                span_c += 1
            span_r = 1
            while r + span_r < len(rows) and grid[r + span_r][c] in ("ucel", "xcel"):
                span_r += 1
            cells.append(TableCell(row=r, col=c, row_span=span_r, col_span=span_c, text=content))
    return Table(
        rows=len(rows), cols=cols, cells=tuple(cells), header_rows=1 if len(rows) > 1 else 0
    )
