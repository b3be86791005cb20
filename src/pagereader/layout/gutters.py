"""Gutters between side-by-side columns, and lines cut at them.

Two text boxes set side by side on a slide, with a gap of an em or two between them, reach the
text layer as lines that run across both ("Revenue grew in every Costs fell after the"); read
so, the two columns interleave line by line. A gutter is whitespace that cuts at least two
neighbouring rows at the same place, with a wide run of text on both sides in each: a word
space is a fraction of an em and never lines up over two rows, and a label column beside its
values (``Name:  Jane``) has no wide text on its left. Lines are cut at gutters, and the row
builder does not join fragments across one, so each column becomes paragraphs of its own for
the reading order to take one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from pagereader.types import BBox, TextLine

_MIN_GAP_EM = 0.8
"""Whitespace at least this wide (in ems) may be a gutter; word spaces are 0.2-0.4 em."""
_MIN_SIDE_EM = 8.0
"""Text on each side of a gutter, in ems: a column's line, not a label or a number."""
_MIN_OVERLAP_EM = 0.3
_ROW_OVERLAP = 0.6

Span = tuple[float, float]


def _em(line: TextLine) -> float:
    return line.font_size if line.font_size > 0 else max(1.0, (line.bbox[3] - line.bbox[1]) / 1.2)


def _ink(line: TextLine) -> list[Span]:
    """The horizontal extents of a line's characters (its box when they are not known)."""
    if len(line.char_boxes) != len(line.text):
        return [(line.bbox[0], line.bbox[2])]
    return [
        (box[0], box[2])
        for ch, box in zip(line.text, line.char_boxes, strict=True)
        if not ch.isspace() and box[2] > box[0]
    ]


def _rows(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Lines sharing a baseline band, top to bottom."""
    rows: list[tuple[BBox, list[TextLine]]] = []
    for line in sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2):
        lb = line.bbox
        for index, (box, members) in enumerate(rows):
            overlap = min(box[3], lb[3]) - max(box[1], lb[1])
            low = min(box[3] - box[1], lb[3] - lb[1])
            if low > 0 and overlap >= _ROW_OVERLAP * low:
                members.append(line)
                rows[index] = ((box[0], min(box[1], lb[1]), box[2], max(box[3], lb[3])), members)
                break
        else:
            rows.append((lb, [line]))
    return [members for _, members in rows]


def _row_gaps(row: Sequence[TextLine]) -> tuple[list[Span], float, BBox]:
    """Wide gaps between text runs of a row, each with wide text on both sides; the row's em
    and box."""
    em = sorted(_em(line) for line in row)[len(row) // 2]
    spans = sorted(span for line in row for span in _ink(line))
    box = (
        min(ln.bbox[0] for ln in row),
        min(ln.bbox[1] for ln in row),
        max(ln.bbox[2] for ln in row),
        max(ln.bbox[3] for ln in row),
    )
    runs: list[Span] = []
    for lo, hi in spans:
        if runs and lo - runs[-1][1] < _MIN_GAP_EM * em:
            runs[-1] = (runs[-1][0], max(runs[-1][1], hi))
        else:
            runs.append((lo, hi))
    gaps = [
        (left[1], right[0])
        for left, right in pairwise(runs)
        if left[1] - left[0] >= _MIN_SIDE_EM * em and right[1] - right[0] >= _MIN_SIDE_EM * em
    ]
    return gaps, em, box


def find_gutters(lines: Sequence[TextLine]) -> list[BBox]:
    """Gutter pieces, one per row it cuts: the gap's box (page units)."""
    rows = [_row_gaps(row) for row in _rows(lines)]
    walls: list[BBox] = []
    for index, (gaps, em, box) in enumerate(rows):
        height = box[3] - box[1]
        neighbours = [
            rows[j]
            for j in (index - 1, index + 1)
            if 0 <= j < len(rows) and _near(box, rows[j][2], height)
        ]
        for lo, hi in gaps:
            if any(
                min(hi, other_hi) - max(lo, other_lo) >= _MIN_OVERLAP_EM * em
                for other_gaps, _, _ in neighbours
                for other_lo, other_hi in other_gaps
            ):
                walls.append((lo, box[1], hi, box[3]))
    return walls


def _near(box: BBox, other: BBox, height: float) -> bool:
    gap = max(other[1] - box[3], box[1] - other[3])
    return gap <= max(height, other[3] - other[1])


def _piece(line: TextLine, indices: Sequence[int]) -> TextLine | None:
    chars = [i for i in indices if not line.text[i].isspace()]
    if not chars:
        return None
    start, end = chars[0], chars[-1] + 1
    boxes = line.char_boxes[start:end]
    solid = [b for b in boxes if b[2] > b[0]] or list(boxes)
    bbox = (
        min(b[0] for b in solid),
        min(b[1] for b in solid),
        max(b[2] for b in solid),
        max(b[3] for b in solid),
    )
    return line.model_copy(
        update={"text": line.text[start:end], "bbox": bbox, "char_boxes": tuple(boxes)}
    )


def _cut(line: TextLine, walls: Sequence[BBox]) -> list[TextLine]:
    """The line cut at every gutter piece that runs through it."""
    lb = line.bbox
    cuts = sorted(
        (w[0] + w[2]) / 2
        for w in walls
        if lb[0] < w[0] and w[2] < lb[2] and min(lb[3], w[3]) - max(lb[1], w[1]) > 0
    )
    if not cuts or len(line.char_boxes) != len(line.text):
        return [line]
    groups: list[list[int]] = [[] for _ in range(len(cuts) + 1)]
    for i, box in enumerate(line.char_boxes):
        centre = (box[0] + box[2]) / 2
        groups[sum(centre > cut for cut in cuts)].append(i)
    pieces = [_piece(line, group) for group in groups if group]
    return [piece for piece in pieces if piece is not None]


def cut_at_gutters(lines: Sequence[TextLine]) -> tuple[list[TextLine], list[BBox]]:
    """The lines cut at the gutters they cross, and the gutter pieces (for the row builder)."""
    walls = find_gutters(lines)
    if not walls:
        return list(lines), []
    return [piece for line in lines for piece in _cut(line, walls)], walls


def crosses(left: BBox, right: BBox, walls: Sequence[BBox]) -> bool:
    """Whether a gutter piece lies between a row's box and a fragment to its right."""
    return any(
        left[2] - 1.0 <= w[0]
        and w[2] <= right[0] + 1.0
        and min(left[3], right[3], w[3]) - max(left[1], right[1], w[1]) > 0
        for w in walls
    )
