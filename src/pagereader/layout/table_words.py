"""Tables without vertical rules rebuilt from word positions.

Booktabs tables (a top rule, a rule under the header, a bottom rule) and tables set apart by
whitespace alone have no column rules to find on the raster. Their columns are still there as
x gaps that stay empty in most rows: words are grouped into rows by their vertical overlap,
each row's words into runs (a run breaks at a gap of about an em), the runs are projected on
the x axis, and the stretches that few rows cover are the column gaps. A run that crosses a
gap spans several columns (a group label, a header over sub-columns); a header cell centred
over a group of columns that are empty in its row spans the group. Small-font sub-lines and
wrapped lines join the row above.
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagereader.layout.line_text import join_lines, union
from pagereader.types import BBox, Table, TableCell, TextLine

logger = logging.getLogger(__name__)

WORDS_SOURCE = "words"
"""Block source of tables found by word alignment: no ruled grid to look for."""
RUN_GAP = 1.0
"""Least gap between two words of a row, in ems, that may part two cells."""
_SPAN_SHARE = 0.3
"""Share of the rows that may cross a column gap (group labels, spanning headers)."""
_MIN_GAP = 0.5
"""Least width of a column gap, in ems."""
_CURRENCY = frozenset("$€£¥")
BULLETS = frozenset("•◦▪▫●○■□◆◇►▸‣⁃∙·※➢✓✔-–—*\uf0b7\uf0a7")
MAX_HEADER_ROWS = 2
ROW_GAP = 2.0
"""Widest vertical gap between two rows of one table, in ems."""


def split_words(line: TextLine) -> list[TextLine]:
    """A line cut into words at spaces and wide gaps; boxes estimated when it has none."""
    boxes = list(line.char_boxes)
    if len(boxes) != len(line.text):
        x0, y0, x1, y1 = line.bbox
        step = (x1 - x0) / max(1, len(line.text))
        boxes = [(x0 + i * step, y0, x0 + (i + 1) * step, y1) for i in range(len(line.text))]
    words: list[TextLine] = []
    chars: list[str] = []
    kept: list[BBox] = []
    em = max(1.0, line.font_size or (line.bbox[3] - line.bbox[1]))

    def flush() -> None:
        solid = [b for b, c in zip(kept, chars, strict=True) if not c.isspace()]
        if solid:
            words.append(
                TextLine(
                    text="".join(chars).strip(),
                    bbox=union(solid),
                    font_size=line.font_size,
                    confidence=line.confidence,
                )
            )
        chars.clear()
        kept.clear()

    for ch, box in zip(line.text, boxes, strict=True):
        if ch.isspace() or (kept and box[0] - kept[-1][2] > 0.8 * em):
            flush()
            if ch.isspace():
                continue
        chars.append(ch)
        kept.append(box)
    flush()
    return words


def height(word: TextLine) -> float:
    """A word's size: its font size when known, else its box height."""
    return word.font_size if word.font_size > 0 else word.bbox[3] - word.bbox[1]


def em_of(words: Sequence[TextLine]) -> float:
    """The median word size of a region."""
    return max(1.0, statistics.median(height(w) for w in words)) if words else 1.0


@dataclass
class Run:
    """Words of one row that belong together (no wide gap between them)."""

    words: list[TextLine]
    cols: tuple[int, int] = (0, -1)

    @property
    def bbox(self) -> BBox:
        return union([w.bbox for w in self.words])

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass
class Row:
    """One table row: its words and, once columns are known, its cells as runs."""

    words: list[TextLine]
    runs: list[Run] = field(default_factory=list)

    @property
    def top(self) -> float:
        return min(w.bbox[1] for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bbox[3] for w in self.words)

    @property
    def size(self) -> float:
        return statistics.median(height(w) for w in self.words)


def group_rows(words: Sequence[TextLine]) -> list[Row]:
    """Words into rows: a word joins a row it overlaps vertically by half its height."""
    rows: list[Row] = []
    spans: list[list[float]] = []  # each row's top, bottom and lowest word: linear, not n^2
    for word in sorted(words, key=lambda w: (w.bbox[1] + w.bbox[3]) / 2):
        top, bottom = word.bbox[1], word.bbox[3]
        h = max(1e-6, bottom - top)
        best, best_share = -1, 0.5
        for i in range(max(0, len(rows) - 3), len(rows)):
            row_top, row_bottom, low = spans[i]
            overlap = min(bottom, row_bottom) - max(top, row_top)
            share = overlap / max(1e-6, min(h, low))
            if share >= best_share:
                best, best_share = i, share
        if best < 0:
            rows.append(Row([word]))
            spans.append([top, bottom, bottom - top])
        else:
            rows[best].words.append(word)
            span = spans[best]
            span[:] = [min(span[0], top), max(span[1], bottom), min(span[2], bottom - top)]
    rows.sort(key=lambda r: r.top)
    return rows


def row_runs(words: Sequence[TextLine], em: float) -> list[Run]:
    """A row's words, left to right, cut into runs at gaps of at least ``RUN_GAP`` ems."""
    runs: list[Run] = []
    for word in sorted(words, key=lambda w: w.bbox[0]):
        if runs and word.bbox[0] - runs[-1].words[-1].bbox[2] < RUN_GAP * em:
            runs[-1].words.append(word)
        else:
            runs.append(Run([word]))
    return runs


def _is_currency(run: Run) -> bool:
    return len(run.words) == 1 and run.words[0].text in _CURRENCY


def column_extents(rows: Sequence[Row], em: float) -> list[tuple[float, float]]:
    """The x stretches most rows cover, left to right; the stretches between are column gaps."""
    spans = [[r.bbox[0], r.bbox[2]] for row in rows for r in row.runs if not _is_currency(r)]
    if not spans:
        return []
    left = min(s[0] for s in spans)
    step = max(em / 8, 0.25)
    cells = int((max(s[1] for s in spans) - left) / step) + 2
    cover = [0] * cells
    for row in rows:
        marks: set[int] = set()
        for run in row.runs:
            if _is_currency(run):
                continue
            x0, _, x1, _ = run.bbox
            marks.update(range(int((x0 - left) / step), int((x1 - left) / step) + 1))
        for i in marks:
            cover[i] += 1
    limit = int(_SPAN_SHARE * len(rows))
    extents: list[tuple[float, float]] = []
    start: int | None = None
    gap = 0
    for i, count in enumerate([*cover, 0]):
        if count > limit:
            if start is None:
                start = i
            elif gap and gap * step < _MIN_GAP * em:
                pass
            elif gap:
                extents.append((left + start * step, left + (i - gap) * step))
                start = i
            gap = 0
        elif start is not None:
            gap += 1
    if start is not None:
        extents.append((left + start * step, left + (len(cover) - gap) * step))
    return extents


def _place(run: Run, extents: Sequence[tuple[float, float]], em: float) -> tuple[int, int]:
    """The columns a run covers; a run in a gap goes to the nearest column (currency right)."""
    x0, _, x1, _ = run.bbox
    hit = [i for i, (a, b) in enumerate(extents) if min(x1, b) - max(x0, a) > 0.1 * em]
    if hit:
        return hit[0], hit[-1]
    if _is_currency(run):
        right = [i for i, (a, _) in enumerate(extents) if a >= x1 - 0.1 * em]
        if right:
            return right[0], right[0]
    mid = (x0 + x1) / 2
    near = min(range(len(extents)), key=lambda i: abs((extents[i][0] + extents[i][1]) / 2 - mid))
    return near, near


def _cells_of_row(row: Row, extents: Sequence[tuple[float, float]], em: float) -> list[Run]:
    """Runs placed in columns; runs sharing a column are one cell."""
    cells: list[Run] = []
    for run in row.runs:
        lo, hi = _place(run, extents, em)
        if cells and lo <= cells[-1].cols[1]:
            last = cells[-1]
            last.words.extend(run.words)
            last.cols = (last.cols[0], max(hi, last.cols[1]))
        else:
            cells.append(Run(list(run.words), (lo, hi)))
    return cells


def _merge_sublines(rows: list[Row], em: float) -> list[Row]:
    """Single-cell rows that belong to a neighbour: overlapping it, or a small or wrapped line."""
    body = next((i for i, r in enumerate(rows) if len(r.runs) >= 2 and r.runs[0].cols[0] == 0), 0)
    out: list[Row] = []
    for index, row in enumerate(rows):
        single = len(row.runs) == 1
        prev = out[-1] if out else None
        nxt = rows[index + 1] if index + 1 < len(rows) else None
        if single and nxt is not None and len(nxt.runs) >= 2 and row.bottom > nxt.top + 0.1 * em:
            nxt.words = row.words + nxt.words
            nxt.runs = _join(nxt.runs, row.runs[0])
            continue
        if single and prev is not None and index > body and row.top - prev.bottom < 0.6 * em:
            col = row.runs[0].cols
            under = any(r.cols[0] <= col[0] and col[1] <= r.cols[1] for r in prev.runs)
            small = row.size < 0.9 * prev.size
            if under and (small or col[0] > 0):
                prev.words += row.words
                prev.runs = _join(prev.runs, row.runs[0])
                continue
        out.append(row)
    return out


def _join(cells: list[Run], extra: Run) -> list[Run]:
    """Add a run's words to the cell covering its columns, or as a cell of its own."""
    for cell in cells:
        if cell.cols[0] <= extra.cols[0] and extra.cols[1] <= cell.cols[1]:
            cell.words.extend(extra.words)
            return cells
    return sorted([*cells, extra], key=lambda c: c.cols[0])


def _reach(rows: Sequence[Row], count: int) -> list[tuple[float, float]]:
    """Each column's full reach: the union of its one-column cells (currency signs aside)."""
    reach = [(float("inf"), float("-inf"))] * count
    for row in rows:
        for cell in row.runs:
            lo, hi = cell.cols
            boxes = [w.bbox for w in cell.words if w.text not in _CURRENCY]
            if lo == hi and boxes:
                box = union(boxes)
                reach[lo] = (min(reach[lo][0], box[0]), max(reach[lo][1], box[2]))
    return reach


def _widen_headers(rows: list[Row], count: int, em: float) -> None:
    """A header cell centred over neighbouring columns empty in its row spans them."""
    extents = _reach(rows, count)
    body = next((i for i, r in enumerate(rows) if r.runs and r.runs[0].cols[0] == 0), 0)
    for row in rows[:body]:
        taken = {c for cell in row.runs for c in range(cell.cols[0], cell.cols[1] + 1)}
        for cell in row.runs:
            x0, _, x1, _ = cell.bbox
            mid = (x0 + x1) / 2
            best = cell.cols
            for lo in range(cell.cols[0], -1, -1):
                if lo < cell.cols[0] and lo in taken:
                    break
                for hi in range(cell.cols[1], count):
                    if hi > cell.cols[1] and hi in taken:
                        break
                    a, b = min(extents[lo][0], x0), max(extents[hi][1], x1)
                    wide = hi - lo > best[1] - best[0]
                    if wide and lo > 0 and abs((a + b) / 2 - mid) <= max(em, 0.08 * (b - a)):
                        best = (lo, hi)
            taken.update(range(best[0], best[1] + 1))
            cell.cols = best


def words_table(words: Sequence[TextLine]) -> Table | None:
    """The table that words (page units) of one region form, or None under two rows or columns."""
    words = [w for w in words if w.text.strip()]
    if not words:
        return None
    em = em_of(words)
    rows = group_rows(words)
    for row in rows:
        row.runs = row_runs(row.words, em)
    extents = column_extents(rows, em)
    if len(extents) < 2:
        return None
    for row in rows:
        row.runs = _cells_of_row(row, extents, em)
    rows = _merge_sublines(rows, em)
    _widen_headers(rows, len(extents), em)
    if len(rows) < 2:
        return None
    bounds = (
        [extents[0][0]]
        + [(extents[i][1] + extents[i + 1][0]) / 2 for i in range(len(extents) - 1)]
        + [extents[-1][1]]
    )
    cells: list[TableCell] = []
    for r, row in enumerate(rows):
        for cell in row.runs:
            lo, hi = cell.cols
            ordered = sorted(cell.words, key=lambda w: ((w.bbox[1] + w.bbox[3]) / 2, w.bbox[0]))
            cells.append(
                TableCell(
                    row=r,
                    col=lo,
                    col_span=hi - lo + 1,
                    text=join_lines(_lines(ordered, em)),
                    bbox=(bounds[lo], row.top, bounds[hi + 1], row.bottom),
                )
            )
    logger.debug("word table: %d rows, %d columns", len(rows), len(extents))
    body = next((i for i, r in enumerate(rows) if r.runs and r.runs[0].cols[0] == 0), 0)
    return Table(
        rows=len(rows),
        cols=len(extents),
        cells=tuple(cells),
        header_rows=max(1, min(body, MAX_HEADER_ROWS)),
    )


def _lines(words: Sequence[TextLine], em: float) -> list[TextLine]:
    """A cell's words as its visual lines, top to bottom, each left to right."""
    lines: list[list[TextLine]] = []
    for word in words:
        mid = (word.bbox[1] + word.bbox[3]) / 2
        if lines and abs(mid - (lines[-1][0].bbox[1] + lines[-1][0].bbox[3]) / 2) < 0.4 * em:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [
        TextLine(
            text=" ".join(w.text for w in sorted(ln, key=lambda w: w.bbox[0])),
            bbox=union([w.bbox for w in ln]),
        )
        for ln in lines
    ]
