"""Cutting a piece that is too long for one chunk: text at sentence ends (``.``, ``!``, ``?``
before a space; ``。``, ``！``, ``？`` anywhere), never after an abbreviation that an article
or section number follows (``Art. 5``, ``No. 3``); a table at row boundaries, its header rows
repeated on each part; a sentence longer than a chunk at word (or, in CJK, character)
boundaries as a last resort."""

from __future__ import annotations

import re

from pagereader.structure.numbering import citation_spans
from pagereader.structure.tokens import TokenCounter
from pagereader.tables import table_to_html, table_to_markdown
from pagereader.text import is_cjk
from pagereader.types import Table

_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])(?=\s)|(?<=[.!?][\"”’)）])(?=\s)")
_CLAUSE_END = re.compile(r"(?<=[，；：、])|(?<=[,;:])(?=\s)")
_ABBREVIATION = re.compile(
    r"(?:\b(?:Art|Arts|No|Nos|Sec|Secs|Para|Paras|Ch|Vol|pp?|cf|e\.g|i\.e|vs|Mr|Ms|Dr|St)\.)$"
)


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of ``text``, one a sentence, without the whitespace between them."""
    return _cut_after(text, (0, len(text)), _SENTENCE_END)


def clauses(text: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """A sentence (``span`` of ``text``) cut after its commas, semicolons and colons."""
    return _cut_after(text, span, _CLAUSE_END)


def _cut_after(text: str, span: tuple[int, int], pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start, stop = span
    for match in pattern.finditer(text, start, stop):
        end = match.start()
        if end <= start or _ABBREVIATION.search(text[start:end]):
            continue
        spans.extend(_trimmed(text, start, end))
        start = end
    spans.extend(_trimmed(text, start, stop))
    return spans


def _trimmed(text: str, start: int, end: int) -> list[tuple[int, int]]:
    piece = text[start:end]
    if not piece.strip():
        return []
    lead = len(piece) - len(piece.lstrip())
    return [(start + lead, start + len(piece.rstrip()))]


def _units(text: str, start: int, end: int) -> list[int]:
    """Where a cut may fall inside ``text[start:end]``: before each word of a spaced script
    and before each character of an unspaced one (Han, kana), never inside an article's
    number (``第三十二條``, ``Art. 5``)."""
    cuts = []
    inside = {i for a, b in citation_spans(text) for i in range(a + 1, b)}
    for index in range(start + 1, end):
        if index in inside:
            continue
        ch, before = text[index], text[index - 1]
        if (before.isspace() and not ch.isspace()) or (is_cjk(ch) and not ch.isspace()):
            cuts.append(index)
    return cuts


def hard_cut(
    text: str, span: tuple[int, int], limit: int, count: TokenCounter
) -> list[tuple[int, int]]:
    """A sentence (``span`` of ``text``) longer than ``limit`` tokens in spans that fit, cut
    between words (between characters in Chinese)."""
    start, end = span
    spans: list[tuple[int, int]] = []
    first = start
    last_fit = None
    for cut in [*_units(text, start, end), end]:
        if count(text[first:cut]) <= limit:
            last_fit = cut
            continue
        if last_fit is not None and last_fit > first:
            spans.extend(_trimmed(text, first, last_fit))
            first = last_fit
        last_fit = cut if count(text[first:cut]) <= limit else None
        if last_fit is None:  # one word longer than a chunk: a chunk of its own
            spans.extend(_trimmed(text, first, cut))
            first = cut
    spans.extend(_trimmed(text, first, end))
    return spans


def table_parts(table: Table, html: bool, limit: int, count: TokenCounter) -> list[str]:
    """A table too long for one chunk as tables of whole rows (a cell spanning rows keeps them
    together), each under its header rows, each within ``limit`` tokens where a row allows."""
    head = table.header_rows
    spans_to = {r: r for r in range(table.rows)}
    for cell in table.cells:
        spans_to[cell.row] = max(spans_to[cell.row], cell.row + cell.row_span - 1)
    groups: list[list[int]] = []
    row = head
    while row < table.rows:
        end = row
        reach = spans_to[row]
        while end < reach:
            end += 1
            reach = max(reach, spans_to[end])
        groups.append(list(range(row, end + 1)))
        row = end + 1
    parts: list[str] = []
    current: list[int] = []
    for group in groups:
        candidate = [*current, *group]
        if current and count(_render(table, candidate, html)) > limit:
            parts.append(_render(table, current, html))
            candidate = group
        current = candidate
    if current:
        parts.append(_render(table, current, html))
    return parts


def _render(table: Table, rows: list[int], html: bool) -> str:
    keep = list(range(table.header_rows)) + rows
    index = {row: i for i, row in enumerate(keep)}
    cells = tuple(c.model_copy(update={"row": index[c.row]}) for c in table.cells if c.row in index)
    part = Table(rows=len(keep), cols=table.cols, cells=cells, header_rows=table.header_rows)
    return table_to_html(part) if html else table_to_markdown(part)
