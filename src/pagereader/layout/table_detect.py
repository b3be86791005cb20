"""Finding tables without rules on digital pages: runs of neighbouring text-layer rows whose
words stand side by side in three or more columns, turned down when they read like prose,
lists, key: value lines or checkbox lists."""

from __future__ import annotations

import logging
import statistics
import unicodedata
from collections.abc import Sequence

from pagereader.layout.line_text import union
from pagereader.layout.table_words import (
    BULLETS,
    MAX_HEADER_ROWS,
    ROW_GAP,
    Row,
    group_rows,
    row_runs,
    split_words,
    words_table,
)
from pagereader.types import BBox, Table, TextLine

logger = logging.getLogger(__name__)


def _short(row: Row, width: float) -> bool:
    """A single-run row narrow enough to be a header or a group label, not a prose line."""
    return len(row.runs) == 1 and row.runs[0].bbox[2] - row.runs[0].bbox[0] < 0.35 * width


def _blocks(rows: Sequence[Row], width: float) -> list[list[Row]]:
    """Runs of neighbouring rows that have cells side by side, with their header rows."""
    blocks: list[list[Row]] = []
    current: list[Row] = []
    previous: Row | None = None
    for row in rows:
        near = bool(current) and row.top - current[-1].bottom <= ROW_GAP * row.size
        ends_paragraph = (
            previous is not None
            and len(previous.runs) == 1
            and not _short(previous, width)
            and row.top - previous.bottom <= 0.8 * row.size
        )
        opens = not current and _short(row, width) and not ends_paragraph
        previous = row
        if len(row.runs) >= 2 or (near and _short(row, width)) or opens:
            if current and not near:
                blocks.append(current)
                current = []
            current.append(row)
        else:
            if current:
                blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    out = []
    for block in blocks:
        while block and len(block[-1].runs) < 2:
            block.pop()
        first = next((i for i, r in enumerate(block) if len(r.runs) >= 2), len(block))
        block = block[max(0, first - MAX_HEADER_ROWS) :]
        if sum(len(r.runs) >= 2 for r in block) >= 3:
            out.append(block)
    return out


def _listish(text: str) -> bool:
    """A list item (a bullet and text) or a lone checkbox or private glyph."""
    text = text.strip()
    if len(text) == 1:
        return unicodedata.category(text) in ("Cc", "Co", "So")
    return text[0] in BULLETS and text[1] == " "


def looks_tabular(table: Table, width: float) -> bool:
    """Columns of short cells filled in most rows: not prose columns, lists or key: value lines."""
    if table.rows < 3 or table.cols < 3:
        return False
    filled = [c for c in table.cells if c.text.strip()]
    by_row: dict[int, int] = {}
    for cell in filled:
        by_row[cell.row] = by_row.get(cell.row, 0) + 1
    if sum(n >= 2 for n in by_row.values()) < 0.6 * table.rows:
        return False
    if sum(c.col_span for c in filled) < 0.45 * table.rows * table.cols:
        return False
    if sum(len(c.text.split()) > 5 or len(c.text) > 30 for c in filled) > 0.2 * len(filled):
        return False
    for col in range(table.cols):
        sizes = [c.bbox[2] - c.bbox[0] for c in filled if c.col == col and c.col_span == 1]
        if sizes and statistics.median(sizes) > 0.3 * width:
            return False
    return sum(_listish(c.text) for c in filled) <= 0.2 * len(filled)


def find_word_tables(
    lines: Sequence[TextLine], width: float, exclude: Sequence[BBox] = ()
) -> list[tuple[BBox, Table]]:
    """Tables of a page that only word alignment shows (page units): box and grid each."""

    def outside(line: TextLine) -> bool:
        cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
        return not any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in exclude)

    words = [w for ln in lines if outside(ln) for w in split_words(ln) if w.text.strip()]
    rows = group_rows(words)
    for row in rows:
        row.runs = row_runs(row.words, row.size)
    found: list[tuple[BBox, Table]] = []
    for block in _blocks(rows, width):
        inside = [w for row in block for w in row.words]
        table = words_table(inside)
        if table is not None and looks_tabular(table, width):
            found.append((union([w.bbox for w in inside]), table))
    logger.debug("found %d tables by word alignment", len(found))
    return found
