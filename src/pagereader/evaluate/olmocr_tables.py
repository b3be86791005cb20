"""Tables of a page's Markdown or HTML as grids, for olmOCR-bench's table rules: cells keyed
by position with spans respected, and which cells are headings."""

from __future__ import annotations

from dataclasses import dataclass

from pagereader.text.tables import read_tables
from pagereader.types import Table


@dataclass
class Grid:
    """A table as cells keyed by their top-left (row, col), with the positions each covers."""

    cells: dict[tuple[int, int], str]
    cover: dict[tuple[int, int], tuple[int, int]]
    spans: dict[tuple[int, int], tuple[int, int]]
    heading_rows: frozenset[int]

    def around(self, key: tuple[int, int], side: str) -> list[tuple[int, int]]:
        r, c = key
        rows, cols = self.spans[key]
        if side == "up":
            spots = [(r - 1, cc) for cc in range(c, c + cols)]
        elif side == "down":
            spots = [(r + rows, cc) for cc in range(c, c + cols)]
        elif side == "left":
            spots = [(rr, c - 1) for rr in range(r, r + rows)]
        else:
            spots = [(rr, c + cols) for rr in range(r, r + rows)]
        return sorted({self.cover[s] for s in spots if s in self.cover})

    def top_headings(self, key: tuple[int, int]) -> list[tuple[int, int]]:
        """Cells of the heading rows above ``key`` in its columns; else the topmost cell."""
        r, c = key
        cols = range(c, c + self.spans[key][1])
        found = {
            self.cover[(hr, cc)]
            for hr in self.heading_rows
            for cc in cols
            if hr < r and (hr, cc) in self.cover
        }
        found.discard(key)
        found = {k for k in found if self.cells[k].strip()}
        if not found:
            above = [
                self.cover[(rr, cc)] for rr in range(r) for cc in cols if (rr, cc) in self.cover
            ]
            found = {k for k in above if self.cells[k].strip()}
            found = set(sorted(found)[:1])
        return sorted(found)

    def left_headings(self, key: tuple[int, int]) -> list[tuple[int, int]]:
        """The leftmost non-empty cell in the rows of ``key`` (column 0 first)."""
        r, c = key
        found: set[tuple[int, int]] = set()
        for rr in range(r, r + self.spans[key][0]):
            for cc in range(c):
                spot = self.cover.get((rr, cc))
                if spot is not None and self.cells[spot].strip():
                    found.add(spot)
                    break
        return sorted(found)


def _grid(table: Table) -> Grid:
    """A Table as a Grid; with no heading rows marked, the first row is read as headings."""
    cells: dict[tuple[int, int], str] = {}
    cover: dict[tuple[int, int], tuple[int, int]] = {}
    spans: dict[tuple[int, int], tuple[int, int]] = {}
    for cell in table.cells:
        key = (cell.row, cell.col)
        cells[key] = cell.text
        spans[key] = (cell.row_span, cell.col_span)
        for dr in range(cell.row_span):
            for dc in range(cell.col_span):
                cover[(cell.row + dr, cell.col + dc)] = key
    return Grid(cells, cover, spans, frozenset(range(table.header_rows)) or frozenset({0}))


def parse_tables(content: str, *, markdown: bool = True) -> list[Grid]:
    """Every table of a page as a grid, in reading order: HTML tables and (unless excluded)
    pipe tables, read by tables.py."""
    return [_grid(table) for table in read_tables(content, markdown=markdown)]
