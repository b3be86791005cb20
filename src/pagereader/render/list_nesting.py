"""How deep each list block of a page sits, from where the page prints it.

A slide or page read from its text layer or its pixels gives each bullet line a box but no
outline level; the level is the indent. A list block printed under the list block above it and
further right (by more than a line's height) is one level deeper; back at an earlier block's
left edge it is at that block's level again. A list block beside the one above it (another
box, another column) starts a list of its own."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagereader.types import BlockResult

_NATIVE = ("pptx", "docx")
"""Sources of blocks read from a file's own XML, whose outline levels are in their text."""
INDENT = "  "
"""One level of nesting as the renderers write it; :func:`marker_indents` then moves each item
to where CommonMark nests it."""
_ITEM = re.compile(r"^( *)([-*+]|\d{1,9}[.)]) +(?=\S)")


def _line_height(result: BlockResult) -> float:
    lines = [line for line in result.block.lines if line.text.strip()]
    if not lines:
        return max(result.block.bbox[3] - result.block.bbox[1], 1.0)
    return min(line.bbox[3] - line.bbox[1] for line in lines)


def list_depths(ordered: Sequence[BlockResult]) -> list[int]:
    """The nesting depth of each of ``ordered`` (blocks in reading order); 0 for every block
    that is no list item or is at its list's top level. Blocks whose text already carries its
    levels (a deck's own outline) are left at 0."""
    depths: list[int] = []
    edges: list[float] = []
    previous: BlockResult | None = None
    for result in ordered:
        block = result.block
        if block.kind != "list" or block.source.startswith(_NATIVE):
            depths.append(0)
            if block.kind not in ("header", "footer"):
                edges, previous = [], None
            continue
        tolerance = _line_height(result)
        below = previous is not None and (
            block.bbox[1] >= previous.block.bbox[3] - tolerance
            and block.bbox[0] < previous.block.bbox[2]
            and previous.block.bbox[0] < block.bbox[2]
        )
        if not below:
            edges = []
        while edges and edges[-1] >= block.bbox[0] - tolerance:
            edges.pop()
        depths.append(len(edges))
        edges.append(block.bbox[0])
        previous = result
    return depths


def nested(markdown: str, depth: int) -> str:
    """A list block's Markdown moved ``depth`` levels in."""
    if depth <= 0:
        return markdown
    return "\n".join(INDENT * depth + line if line else line for line in markdown.split("\n"))


def marker_indents(markdown: str) -> str:
    """Page Markdown whose nested list items (:data:`INDENT` a level) sit where CommonMark
    nests them: under their parent item's text, which starts past the parent's marker. Two
    spaces nest under ``- `` but not under ``1. `` (three) or ``10. `` (four): there a sub-list
    would be read as a list of its own. A line that is no item and not indented ends the list."""
    out: list[str] = []
    stack: list[tuple[int, int]] = []  # (level, where the item's text starts)
    for line in markdown.split("\n"):
        item = _ITEM.match(line)
        if item is not None:
            level = len(item[1]) // len(INDENT)
            while stack and stack[-1][0] >= level:
                stack.pop()
            indent = stack[-1][1] if stack else 0
            out.append(" " * indent + item[2] + " " + line[item.end() :])
            stack.append((level, indent + len(item[2]) + 1))
        elif not line.strip():
            out.append(line)
        elif line.startswith(" ") and stack:
            out.append(" " * stack[-1][1] + line.lstrip(" "))
        else:
            stack = []
            out.append(line)
    return "\n".join(out)
