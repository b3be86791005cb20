"""Markdown split into blocks: headings, paragraphs, lists, pipe and HTML tables, display
formulas and pictures. The Markdown dialects (olmOCR, plain Markdown) are read with it, and so
is the text of one located element (a DeepSeek-OCR region, a dots.ocr cell) when it holds more
than one block."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TABLE_OPEN = re.compile(r"<table\b", re.I)
_TABLE_CLOSE = re.compile(r"</table\s*>", re.I)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S")
_PIPE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_RULE = re.compile(r"^\s{0,3}(?:-{3,}|\*{3,}|_{3,})\s*$")
_PICTURE = re.compile(r"^\s*!\[([^\]]*)\]\([^)]*\)\s*$")
_FORMULA_OPEN = {"$$": "$$", "\\[": "\\]"}
_CENTER = re.compile(r"</?center>", re.I)


@dataclass(frozen=True)
class Segment:
    """One Markdown block: its kind by form (``heading``, ``text``, ``list``, ``table``,
    ``formula``, ``figure``) and its source text."""

    form: str
    text: str


def _formula_end(lines: list[str], i: int) -> int | None:
    """The line after a display formula opening at line i, or None when none opens there."""
    head = lines[i].strip()
    for left, right in _FORMULA_OPEN.items():
        if not head.startswith(left):
            continue
        if len(head) > len(left) and head.endswith(right):
            return i + 1
        for j in range(i + 1, len(lines)):
            if lines[j].strip().endswith(right):
                return j + 1
        return len(lines)
    return None


def _html_table_end(lines: list[str], i: int) -> int:
    """The line after the HTML table opening at line i (the end when it never closes)."""
    depth = 0
    for j in range(i, len(lines)):
        depth += len(_TABLE_OPEN.findall(lines[j])) - len(_TABLE_CLOSE.findall(lines[j]))
        if depth <= 0:
            return j + 1
    return len(lines)


def _paragraph_end(lines: list[str], i: int) -> int:
    """The line after a run of ordinary lines: it ends at a blank line or where another kind
    of block begins."""
    j = i + 1
    while j < len(lines) and lines[j].strip() and not _opens_block(lines, j):
        j += 1
    return j


def _opens_block(lines: list[str], j: int) -> bool:
    line = lines[j]
    return bool(
        _HEADING.match(line)
        or _TABLE_OPEN.search(line)
        or _RULE.match(line)
        or _PICTURE.match(line)
        or _formula_end(lines, j) is not None
    )


def _pipe_table_end(lines: list[str], i: int) -> int | None:
    if "|" not in lines[i] or i + 1 >= len(lines) or not _PIPE_SEP.match(lines[i + 1]):
        return None
    j = i + 2
    while j < len(lines) and "|" in lines[j] and lines[j].strip():
        j += 1
    return j


def _list_end(lines: list[str], i: int) -> int | None:
    """The line after a list starting at line i; continuation lines (indented or not) stay
    with their item until a blank line or another block."""
    if not _LIST_ITEM.match(lines[i]):
        return None
    return _paragraph_end(lines, i)


def split_markdown(text: str) -> list[Segment]:
    """The blocks of a Markdown text in order; rules (``---``) separate, they are no block."""
    lines = _CENTER.sub("", text).splitlines()
    found: list[Segment] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or _RULE.match(line):
            i += 1
            continue
        end: int | None
        if _HEADING.match(line):
            form, end = "heading", i + 1
        elif _TABLE_OPEN.search(line):
            form, end = "table", _html_table_end(lines, i)
        elif (end := _formula_end(lines, i)) is not None:
            form = "formula"
        elif (end := _pipe_table_end(lines, i)) is not None:
            form = "table"
        elif (end := _list_end(lines, i)) is not None:
            form = "list"
        elif match := _PICTURE.match(line):
            found.append(Segment("figure", match.group(1).strip()))
            i += 1
            continue
        else:
            form, end = "text", _paragraph_end(lines, i)
        body = "\n".join(part.rstrip() for part in lines[i:end]).strip()
        if body:
            found.append(Segment(form, body))
        i = end
    return found
