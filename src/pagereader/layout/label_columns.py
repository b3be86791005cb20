"""Label columns: short labels in a narrow left column, each beside the first row of its text.

Statutes printed in the law.moj.gov.tw style put the article number (``第 30 條``) in a left
column and the article's text beside it; glossaries and numbered clauses do the same. OCR finds
the label and the text as two lines with a wide gap between them, and a column reader would
read all the labels first and the text after. A label that sits on the same row as a line of
the body, in a column of such labels (or beside a body that wraps under itself, not under the
label), is joined to that line here, so paragraphs and reading order see one row.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from pagereader.layout.line_text import join_lines, union
from pagereader.types import BBox, TextLine

logger = logging.getLogger(__name__)

MAX_LABEL_CHARS = 12
"""A label is short: an article number, a clause number, a defined term."""
_MAX_GAP = 4.0
"""Largest gap between label and text, in line heights."""
_SENTENCE_END = tuple("。，；：,.;:!?！？、")


def _height(box: BBox) -> float:
    return box[3] - box[1]


def _same_row(a: BBox, b: BBox) -> bool:
    low = min(_height(a), _height(b))
    return low > 0 and min(a[3], b[3]) - max(a[1], b[1]) >= 0.5 * low


def _looks_like_label(line: TextLine) -> bool:
    text = line.text.strip()
    return 0 < len(text) <= MAX_LABEL_CHARS and not text.endswith(_SENTENCE_END)


def _body_beside(label: TextLine, lines: Sequence[TextLine]) -> int | None:
    """Index of the nearest line right of the label on its row, long enough to be body text."""
    box = label.bbox
    height = _height(box)
    best: tuple[float, int] | None = None
    for index, line in enumerate(lines):
        other = line.bbox
        gap = other[0] - box[2]
        # OCR boxes are padded: a label's box may reach a little into its text's box
        if line is label or gap < -0.5 * height or gap > _MAX_GAP * max(height, _height(other)):
            continue
        if not _same_row(box, other) or other[2] - other[0] < 2 * (box[2] - box[0]):
            continue
        if best is None or gap < best[0]:
            best = (gap, index)
    return best[1] if best else None


def _wraps_under_itself(body: TextLine, label: TextLine, lines: Sequence[TextLine]) -> bool:
    """True when a line just below the body starts at the body's left edge, right of the label:
    the body keeps its own column, the label's cell below is empty."""
    box, height = body.bbox, _height(body.bbox)
    for line in lines:
        other = line.bbox
        below = 0 <= other[1] - box[3] <= 1.5 * height
        beyond_label = other[0] - label.bbox[0] > 2 * height
        if below and abs(other[0] - box[0]) <= height and beyond_label:
            return True
    return False


def _merged(label: TextLine, body: TextLine) -> TextLine:
    """One line reading the label, then its text."""
    boxes: tuple[BBox, ...] = ()
    if label.char_boxes and body.char_boxes:
        space = (label.bbox[2], body.bbox[1], body.bbox[0], body.bbox[3])
        boxes = (*label.char_boxes, space, *body.char_boxes)
    return TextLine(
        text=f"{label.text.strip()} {body.text.strip()}",
        bbox=union([label.bbox, body.bbox]),
        font_size=body.font_size,
        confidence=min(label.confidence, body.confidence),
        char_boxes=boxes,
        starts_paragraph=True,
    )


def attach_labels(lines: Sequence[TextLine], keep_apart: Sequence[BBox] = ()) -> list[TextLine]:
    """The lines with every label of a label column joined to the body line on its row.

    Lines whose centre lies in one of ``keep_apart`` (tables) are left alone: a table's first
    column is read cell by cell. Order of the other lines is kept; a joined line takes its
    body line's place.
    """

    def free(line: TextLine) -> bool:
        cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
        return not any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in keep_apart)

    by_body: dict[int, int] = {}
    for index, line in enumerate(lines):
        if _looks_like_label(line) and free(line):
            body = _body_beside(line, lines)
            if body is None or not free(lines[body]) or _looks_like_label(lines[body]):
                continue
            if body not in by_body or lines[by_body[body]].bbox[2] < line.bbox[2]:
                by_body[body] = index  # two labels on one row: the nearer one is the label
    pairs = [(label, body) for body, label in by_body.items()]
    accepted = [
        (label, body)
        for label, body in pairs
        if _in_column(label, [p[0] for p in pairs], lines)
        or _wraps_under_itself(lines[body], lines[label], lines)
    ]
    if not accepted:
        return list(lines)
    accepted += _aligned_pairs(lines, accepted, free)
    labels = {label for label, _ in accepted}
    joined = {body: _merged(lines[label], lines[body]) for label, body in accepted}
    logger.debug(
        "joined %d labels to their rows: %s",
        len(accepted),
        [join_lines([lines[label]]) for label, _ in accepted],
    )
    return [joined.get(i, line) for i, line in enumerate(lines) if i not in labels]


def _aligned_pairs(
    lines: Sequence[TextLine], accepted: Sequence[tuple[int, int]], free: Callable[[TextLine], bool]
) -> list[tuple[int, int]]:
    """Labels of a known label column whose row's text starts in the known text column.

    Once the page's label and text columns are seen, a label far from its text (``제4조`` is
    shorter than ``제3조의2``, so its gap to the text column is wider) or beside a short text
    (``本法自公布日施行。``) is placed by where the two columns are, not by its own gap and width.
    """
    taken = {i for pair in accepted for i in pair}
    label_edges = [lines[label].bbox[0] for label, _ in accepted]
    body_edges = [lines[body].bbox[0] for _, body in accepted]
    found: list[tuple[int, int]] = []
    for index, line in enumerate(lines):
        box, height = line.bbox, _height(line.bbox)
        if index in taken or not _looks_like_label(line) or not free(line):
            continue
        if not any(abs(edge - box[0]) <= height for edge in label_edges):
            continue
        beside = [
            other
            for other, candidate in enumerate(lines)
            if other not in taken
            and other != index
            and free(candidate)
            and _same_row(box, candidate.bbox)
            and candidate.bbox[0] >= box[2] - 0.5 * height
            and any(abs(edge - candidate.bbox[0]) <= height for edge in body_edges)
        ]
        if beside:
            body = min(beside, key=lambda other: lines[other].bbox[0])
            found.append((index, body))
            taken.update((index, body))
    return found


def _in_column(index: int, labels: Sequence[int], lines: Sequence[TextLine]) -> bool:
    """True when another label starts at the same left edge (within a line height)."""
    box = lines[index].bbox
    return any(
        other != index and abs(lines[other].bbox[0] - box[0]) <= _height(box) for other in labels
    )
