"""``chandra``: Chandra's layout OCR, HTML blocks ``<div data-bbox="x0 y0 x1 y1"
data-label="...">`` holding paragraphs, headings, tables (spans, ``<br/>``), inline
``<math>`` and pictures described in words.

Boxes are normalized to the scale the prompt states: 0-1000 in the prompt pagereader sends
(docling's too); upstream chandra's own prompt says 0-1024. The frame's ``scale`` must match
the prompt that was sent.
"""

from __future__ import annotations

from pagereader.engines.dialects.build import html_blocks
from pagereader.engines.dialects.common import (
    NO_BOXES,
    NOT_IN_DIALECT,
    Frame,
    PageAnswer,
    fold_label,
    warning,
)
from pagereader.engines.dialects.html_blocks import HAS_BOX
from pagereader.engines.dialects.repair import cut_open_tag, strip_fence

NAME = "chandra"

LABELS = (
    "Caption",
    "Footnote",
    "Equation-Block",
    "List-Group",
    "Page-Header",
    "Page-Footer",
    "Image",
    "Section-Header",
    "Table",
    "Text",
    "Complex-Block",
    "Code-Block",
    "Form",
    "Table-Of-Contents",
    "Figure",
    "Chemical-Block",
    "Diagram",
    "Bibliography",
    "Blank-Page",
)
"""The labels Chandra's layout prompt lists."""
DOCUMENTED = frozenset(fold_label(label) for label in LABELS)


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read a Chandra layout answer onto the page."""
    notes: list[str] = []
    body = strip_fence(answer, notes)
    if "<" not in body:
        notes.append(warning(NOT_IN_DIALECT, "no HTML in the answer"))
        return PageAnswer(dialect=NAME, raw=answer, parsed=False, warnings=tuple(notes))
    body = cut_open_tag(body, notes)
    located = bool(HAS_BOX.search(body))
    if not located:
        notes.append(warning(NO_BOXES, "no data-bbox in the answer; every block is the page"))
    blocks = html_blocks(
        body,
        frame,
        located,
        DOCUMENTED,
        lambda element: element.attrs.get("data-label", "") or "Text",
        lambda _, label: f"a {label} block",
        notes,
    )
    return PageAnswer(
        dialect=NAME,
        raw=answer,
        parsed=any(b.text or b.located for b in blocks),
        blocks=tuple(blocks),
        warnings=tuple(notes),
        located=located,
    )
