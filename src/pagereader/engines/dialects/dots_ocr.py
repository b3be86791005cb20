"""``dots-ocr``: dots.ocr's layout answer, a JSON list of ``{"bbox": [x1, y1, x2, y2],
"category": ..., "text": ...}`` in reading order, boxes in pixels of the resized input.

Text is Markdown (section headers keep their ``##``, list items their ``*``), tables HTML,
formulas LaTeX, pictures have no text. Real answers end without the closing ``]`` (cut or
not), or carry trailing commas: both are repaired and named.
"""

from __future__ import annotations

from typing import Any

from pagereader.engines.dialects.build import place, table_block, text_block
from pagereader.engines.dialects.common import (
    NOT_IN_DIALECT,
    Frame,
    PageAnswer,
    fold_label,
    kind_of,
    warning,
)
from pagereader.engines.dialects.repair import read_json_list, strip_fence

NAME = "dots-ocr"

CATEGORIES = (
    "Caption",
    "Footnote",
    "Formula",
    "List-item",
    "Page-footer",
    "Page-header",
    "Picture",
    "Section-header",
    "Table",
    "Text",
    "Title",
)
"""The categories dots.ocr's layout prompt lists."""
DOCUMENTED = frozenset(fold_label(c) for c in CATEGORIES)


def box_of(value: Any) -> tuple[float, float, float, float] | None:
    """A JSON ``[x1, y1, x2, y2]`` as four numbers; None for anything else."""
    if not isinstance(value, list) or len(value) != 4:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    x0, y0, x1, y1 = (float(v) for v in value)
    return x0, y0, x1, y1


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read a dots.ocr layout answer onto the page."""
    notes: list[str] = []
    items = read_json_list(strip_fence(answer, notes), notes)
    if items is None:
        notes.append(warning(NOT_IN_DIALECT, "no JSON list of layout cells in the answer"))
        return PageAnswer(dialect=NAME, raw=answer, parsed=False, warnings=tuple(notes))
    blocks = []
    for item in items:
        if not isinstance(item, dict):
            notes.append(warning(NOT_IN_DIALECT, f"a list element is no object: {item!r:.60}"))
            continue
        category = str(item.get("category") or "Text")
        bbox, located = place(box_of(item.get("bbox")), frame, f"a {category} cell", notes)
        kind, label_notes = kind_of(category, DOCUMENTED, bbox, frame)
        notes.extend(label_notes)
        text = str(item.get("text") or "")
        if kind is None or (not text.strip() and kind != "figure"):
            continue
        if kind == "table":
            blocks.append(table_block(category, bbox, text, notes, located=located))
            continue
        level = 1 if kind == "title" and fold_label(category) == "title" else None
        blocks.append(text_block(kind, category, bbox, text, located=located, level=level))
    return PageAnswer(
        dialect=NAME,
        raw=answer,
        parsed=bool(blocks),
        blocks=tuple(blocks),
        warnings=tuple(notes),
        located=any(b.located for b in blocks),
    )
