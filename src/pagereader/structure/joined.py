"""A document's body as pieces of Markdown with their provenance, joined across page and
column breaks: a paragraph a page break cuts is one piece again (joined as the lines of one
block are: no space in Chinese, a word broken by a hyphen whole), a table that runs on at the
top of the next page is one table (its repeated header row dropped), and running headers,
footers and page numbers (blocks of kind header or footer) are left out. A figure's piece holds
the text read inside its picture after its marker even where document.md prints only the marker
(``picture_text``), so a search finds a screenshot by what it shows.

Each piece keeps the blocks it was read from, its box on each page, and the span of
document.md it was written to, so a chunk made of pieces can say where it came from."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from pagereader.render.markdown import PICTURE_SOURCES, markdown_spans, notes_markdown
from pagereader.structure.headings import heading_text
from pagereader.structure.numbering import ITEM, opening
from pagereader.structure.tree import BODY_KINDS, carry, parts_by_block
from pagereader.text.chars import ends_sentence, normalize
from pagereader.text.tables import (
    read_tables,
    table_to_html,
    table_to_markdown,
    without_unused_columns,
)
from pagereader.types import BBox, BlockResult, DocumentResult, Table

_FURNITURE = frozenset({"header", "footer"})
_JOINED_KINDS = frozenset({"text", "list"})
_WIDTH_TOLERANCE = 0.15
"""Two parts of one table have widths within this share of each other."""


@dataclass(frozen=True)
class Segment:
    """Where a piece's text from ``offset`` on (up to the next segment's) was read: one block
    of one page, its box, and its span of document.md; ``verbatim`` when the text is written
    there character for character (a table rebuilt from two pages is not)."""

    offset: int
    block: tuple[int, int]
    box: BBox
    md: tuple[int, int]
    verbatim: bool = True


@dataclass
class Piece:
    """A stretch of the document's Markdown and where it was read.

    ``part`` is the index of the block's part (tree.block_parts) the piece starts with, for a
    block OCR read as one although it opens two articles; ``table`` the grid of a table;
    ``page`` the page of a piece with no block (a slide's speaker notes)."""

    kind: str
    text: str
    segments: list[Segment]
    page: int
    md_span: tuple[int, int]
    part: int = 0
    parts: int = 1
    table: Table | None = None
    title: str = ""
    """A heading's text (a block with a level), as heading paths name it."""
    heading_path: tuple[str, ...] = ()
    """The headings open above the piece's first block (structure/headings.py)."""
    part_heading: bool = False  # the heading of a part, chapter or section of a statute
    picture_text: bool = False
    """A figure's piece carrying the text read inside its picture, which document.md leaves
    out."""
    first_on_page: bool = False

    @property
    def path(self) -> tuple[str, ...]:
        """The headings the piece sits under, its own heading last when it is one."""
        return (*self.heading_path, self.title) if self.title else self.heading_path

    @property
    def blocks(self) -> list[tuple[int, int]]:
        return list(dict.fromkeys(s.block for s in self.segments))

    @property
    def pages(self) -> list[int]:
        return list(dict.fromkeys(s.block[0] for s in self.segments)) or [self.page]

    def covering(self, start: int, end: int) -> list[Segment]:
        """The segments the text ``[start, end)`` of the piece was read from."""
        if not self.segments or not all(s.verbatim for s in self.segments):
            return self.segments
        bounds = [s.offset for s in self.segments[1:]] + [len(self.text) + 1]
        inside = zip(self.segments, bounds, strict=True)
        return [s for s, stop in inside if s.offset < end and stop > start] or self.segments[-1:]

    def md_of(self, start: int, end: int) -> tuple[int, int]:
        """The span of document.md that the text ``[start, end)`` of the piece was read from."""
        covered = self.covering(start, end)
        if not covered:
            return self.md_span
        first, last = covered[0], covered[-1]
        low = first.md[0] + max(0, start - first.offset) if first.verbatim else first.md[0]
        high = last.md[0] + (end - last.offset) if last.verbatim else last.md[1]
        return (min(low, first.md[1]), max(min(high, last.md[1]), low))


def union(a: BBox, b: BBox) -> BBox:
    """The smallest box holding both."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def document_pieces(result: DocumentResult) -> list[Piece]:
    """The document's body in reading order, paragraphs and tables joined across breaks."""
    spans = markdown_spans(result)
    cut = parts_by_block(result.pages)
    pieces: list[Piece] = []
    for page in result.pages:
        first = True
        for block in sorted(page.blocks, key=lambda r: r.block.order):
            key = (page.index, block.block.order)
            if block.block.kind in _FURNITURE or key not in spans.blocks:
                continue
            span = spans.blocks[key]
            for piece in _block_pieces(block, page.index, span, result.markdown, cut.get(key)):
                piece.first_on_page = first
                first = False
                if not (pieces and _joined(pieces[-1], piece)):
                    pieces.append(piece)
        if page.index in spans.notes:
            text = notes_markdown(page.notes)
            pieces.append(Piece("notes", text, [], page.index, spans.notes[page.index]))
    return pieces


def _block_pieces(
    block: BlockResult,
    page: int,
    span: tuple[int, int],
    markdown: str,
    parts: list[str] | None,
) -> list[Piece]:
    """A block's Markdown, cut where the structure tree cut its text (``parts``, from
    tree.parts_by_block: an article that OCR read together with the one before it): each cut is
    found in the Markdown by the part's first characters; a part whose start is not found stays
    with the part before it."""
    start, end = span
    text = markdown[start:end]
    cuts = [(0, 0)]
    parts = parts if parts is not None and block.block.kind in BODY_KINDS else [text]
    if block.block.kind != "table":
        cursor = 0
        for index, part_text in enumerate(parts[1:], start=1):
            head = part_text.strip()[:12]
            at = text.find(head, cursor + 1) if head else -1
            if at > 0:
                cuts.append((at, index))
                cursor = at
    bounds = [*cuts, (len(text), -1)]
    pieces = []
    for (a, part), (b, _) in itertools.pairwise(bounds):
        piece_text = text[a:b].strip()
        if not piece_text:
            continue
        lead = a + (len(text[a:b]) - len(text[a:b].lstrip()))
        md = (start + lead, start + lead + len(piece_text))
        segment = Segment(0, (page, block.block.order), block.block.bbox, md)
        piece = Piece(
            block.block.kind, piece_text, [segment], page, md, part=part, parts=len(parts)
        )
        read = block.text.strip()
        ocr_figure = block.block.kind == "figure" and block.block.source in PICTURE_SOURCES
        if ocr_figure and read and read not in piece_text:
            piece.text = f"{piece_text}\n\n{read}"
            piece.segments = [replace(segment, verbatim=False)]
            piece.picture_text = True
        if block.block.kind == "table":
            tables = read_tables(piece_text)
            piece.table = without_unused_columns(tables[0]) if len(tables) == 1 else None
        if block.level is not None:
            piece.title = heading_text(block)
        piece.heading_path = block.heading_path
        pieces.append(piece)
    return pieces


def _joined(before: Piece, after: Piece) -> bool:
    """Join ``after`` onto ``before`` when a page or column break cut one paragraph or one
    table; True when joined."""
    if before.kind in _JOINED_KINDS and after.kind == before.kind and _broken(before, after):
        before.text = carry(before.text, after.text)
        at = len(before.text) - len(after.text)  # carry keeps the second half as it is
        before.segments += [replace(s, offset=s.offset + at) for s in after.segments]
    elif before.kind == after.kind == "table" and _table_runs_on(before, after):
        assert before.table is not None and after.table is not None
        table = _stacked(before.table, after.table)
        html = before.text.lstrip().startswith("<")
        before.text = table_to_html(table) if html else table_to_markdown(table)
        before.table = table
        segments = [*before.segments, *after.segments]  # rebuilt: no offsets inside it
        before.segments = [replace(s, offset=0, verbatim=False) for s in segments]
    else:
        return False
    before.md_span = (before.md_span[0], after.md_span[1])
    return True


def _page_break(before: Piece, after: Piece) -> bool:
    """``after`` opens the page right after the one ``before`` ends."""
    return after.first_on_page and after.pages[0] == before.pages[-1] + 1


def _column_break(before: Piece, after: Piece) -> bool:
    """``after`` starts a column to the right of ``before``'s, higher on the same page."""
    a, b = before.segments[-1].box, after.segments[0].box
    return after.pages[0] == before.pages[-1] and b[1] < a[1] and b[0] >= a[2] - 2


def _broken(before: Piece, after: Piece) -> bool:
    """A paragraph cut by a page or column break: the first half does not end its sentence,
    and the second opens no item, heading or article of its own and goes on as a sentence
    does (a lower-case word in a spaced script; anything after unspaced CJK text)."""
    if (
        before.title
        or after.title
        or not (_page_break(before, after) or _column_break(before, after))
    ):
        return False
    if ends_sentence(before.text) or ITEM.match(after.text) or opening(after.text):
        return False
    tail, head = before.text.rstrip()[-1:], after.text.lstrip()[:1]
    return head.islower() or (not tail.isascii() and not head.isascii())


def _table_runs_on(before: Piece, after: Piece) -> bool:
    """``after`` continues ``before``: the last block of one page and the first of the next,
    with as many columns and about as wide."""
    if before.table is None or after.table is None or not _page_break(before, after):
        return False
    if before.table.cols != after.table.cols or after.table.rows == 0:
        return False
    a, b = before.segments[-1].box, after.segments[0].box
    wa, wb = a[2] - a[0], b[2] - b[0]
    return abs(wa - wb) <= _WIDTH_TOLERANCE * max(wa, wb, 1.0)


def _row_texts(table: Table, row: int) -> list[str]:
    return [
        normalize(c.text, markdown=False)
        for c in sorted(table.cells, key=lambda c: c.col)
        if c.row == row
    ]


def _stacked(top: Table, bottom: Table) -> Table:
    """``bottom``'s rows under ``top``'s; a first row of ``bottom`` that repeats ``top``'s
    header (or first) row is dropped."""
    skip = 1 if _row_texts(bottom, 0) == _row_texts(top, 0) and _single_row(bottom, 0) else 0
    cells = list(top.cells)
    for cell in bottom.cells:
        if cell.row >= skip:
            cells.append(cell.model_copy(update={"row": cell.row - skip + top.rows}))
    rows = top.rows + bottom.rows - skip
    return Table(rows=rows, cols=top.cols, cells=tuple(cells), header_rows=top.header_rows)


def _single_row(table: Table, row: int) -> bool:
    return all(c.row_span == 1 for c in table.cells if c.row == row)
