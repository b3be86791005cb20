"""Tables of a page's Markdown or HTML as grids, for olmOCR-bench's table rules: cells keyed
by position with spans respected, and which cells are headings."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import html as lxml_html

from pagereader.evaluate.metrics import html_tables, markdown_tables


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


def _grid_from_rows(rows: list[list[tuple[str, int, int]]], heading_rows: set[int]) -> Grid:
    cells: dict[tuple[int, int], str] = {}
    cover: dict[tuple[int, int], tuple[int, int]] = {}
    spans: dict[tuple[int, int], tuple[int, int]] = {}
    for r, row in enumerate(rows):
        c = 0
        for text, rowspan, colspan in row:
            while (r, c) in cover:
                c += 1
            key = (r, c)
            cells[key] = text
            spans[key] = (rowspan, colspan)
            for dr in range(rowspan):
                for dc in range(colspan):
                    cover[(r + dr, c + dc)] = key
            c += colspan
    return Grid(cells, cover, spans, frozenset(heading_rows or {0}))


def _html_grid(table: lxml_html.HtmlElement) -> Grid:
    rows: list[list[tuple[str, int, int]]] = []
    heading_rows: set[int] = set()
    for r, tr in enumerate(table.iter("tr")):
        row: list[tuple[str, int, int]] = []
        tags: list[str] = []
        for cell in tr:
            if not isinstance(cell.tag, str) or cell.tag not in ("td", "th"):
                continue
            tags.append(cell.tag)
            row.append((cell.text_content().strip(), _int(cell, "rowspan"), _int(cell, "colspan")))
        in_head = any(a.tag == "thead" for a in tr.iterancestors())
        if in_head or (tags and all(t == "th" for t in tags)):
            heading_rows.add(r)
        rows.append(row)
    return _grid_from_rows(rows, heading_rows)


def _int(cell: lxml_html.HtmlElement, name: str) -> int:
    try:
        return max(1, int(cell.get(name, "1")))
    except ValueError:
        return 1


def parse_tables(content: str, *, markdown: bool = True) -> list[Grid]:
    """Every table of a page as a grid: pipe tables (unless excluded) and HTML tables."""
    grids: list[Grid] = []
    if markdown:
        for rows in markdown_tables(content):
            grids.append(_grid_from_rows([[(c, 1, 1) for c in row] for row in rows], {0}))
    grids.extend(_html_grid(t) for t in html_tables(content))
    return grids
