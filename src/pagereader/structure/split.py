"""Cutting a piece that is too long for one chunk: text at sentence ends (``.``, ``!``, ``?``
before a space; ``。``, ``！``, ``？`` anywhere), never after an abbreviation that an article
or section number follows (``Art. 5``, ``No. 3``); a table at row boundaries, its header rows
repeated on each part; a sentence longer than a chunk at word (or, in CJK, character)
boundaries as a last resort, and a word longer than a chunk (a run without spaces) at the
grapheme clusters that fit, so that no chunk exceeds its limit whatever the text."""

from __future__ import annotations

import bisect
import re

import regex

from pagereader.structure.numbering import citation_spans
from pagereader.structure.tokens import TokenCounter
from pagereader.text.chars import CJK_PUNCTUATION_RANGES, HAN_RANGES, KANA_RANGES
from pagereader.text.tables import table_to_html, table_to_markdown
from pagereader.types import Table

_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])(?=\s)|(?<=[.!?][\"”’)）])(?=\s)")
_CLAUSE_END = re.compile(r"(?<=[，；：、])|(?<=[,;:])(?=\s)")
_UNSPACED = "".join(
    f"{chr(a)}-{chr(b)}" for a, b in (*HAN_RANGES, *KANA_RANGES, *CJK_PUNCTUATION_RANGES)
)  # the characters is_cjk reads as written without spaces
_UNIT = re.compile(rf"(?<=\s)(?=\S)|(?=[{_UNSPACED}])(?!\s)")
_CLUSTER = regex.compile(r"\X")
CLUSTER_WINDOW = 64
"""Characters read on each side of a cut inside a word to find a grapheme cluster's end."""
ABBREVIATION_CHARS = 8
"""Characters before a full stop read for an abbreviation (the longest: ``Paras.``)."""
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
        if end <= start or _ABBREVIATION.search(text, max(start, end - ABBREVIATION_CHARS), end):
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


def _last_unit(text: str, first: int, stop: int, inside: list[tuple[int, int]]) -> int | None:
    """The last place in ``(first, stop]`` where a cut may fall: before a word of a spaced
    script or any character of an unspaced one (Han, kana), never inside an article's number
    (``inside``: spans such as ``第三十二條``)."""
    last = None
    for match in _UNIT.finditer(text, first + 1, stop + 1):
        index = match.start()
        k = bisect.bisect_left(inside, (index,)) - 1
        if k < 0 or not inside[k][0] < index < inside[k][1]:
            last = index
    return last


def _last_cluster(text: str, first: int, stop: int) -> int:
    """The last boundary of a grapheme cluster (an emoji with its joiners, a letter with its
    marks) in ``(first, stop]``, read from CLUSTER_WINDOW characters before it; ``stop``
    itself when one cluster spans all of that."""
    low = max(first, stop - CLUSTER_WINDOW)
    last = stop
    for match in _CLUSTER.finditer(text, low, min(stop + CLUSTER_WINDOW, len(text))):
        if match.end() > stop:
            break
        last = match.end()
    return last if last > first else stop


def _longest_fit(text: str, first: int, end: int, limit: int, count: TokenCounter) -> int:
    """The furthest ``stop`` in ``(first, end]`` whose ``text[first:stop]`` fits ``limit``
    tokens (at least one character): doubling a guess, then halving the gap, so that each
    cut counts a few windows about a chunk long, never the rest of the text."""
    fits, over = first, None
    step = max(limit, 1)
    while over is None:
        probe = min(first + step, end)
        if count(text[first:probe]) > limit:
            over = probe
        elif probe == end:
            return end
        else:
            fits, step = probe, step * 2
    while over - fits > 1:
        middle = (fits + over) // 2
        if count(text[first:middle]) <= limit:
            fits = middle
        else:
            over = middle
    return max(fits, first + 1)


def hard_cut(
    text: str, span: tuple[int, int], limit: int, count: TokenCounter
) -> list[tuple[int, int]]:
    """A sentence (``span`` of ``text``) longer than ``limit`` tokens in spans that fit, cut
    between words (between characters in Chinese); a word longer than a chunk (a run with no
    spaces) is cut inside, at the last grapheme cluster that fits, else at the last character
    (a single cluster longer than a chunk)."""
    start, end = span
    inside = citation_spans(text[start:end])
    inside = [(a + start, b + start) for a, b in inside]
    spans: list[tuple[int, int]] = []
    first = start
    while first < end:
        stop = _longest_fit(text, first, end, limit, count)
        cut = stop if stop == end else _last_unit(text, first, stop, inside)
        if cut is None:
            cut = _last_cluster(text, first, stop)
        spans.extend(_trimmed(text, first, cut))
        first = cut
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
