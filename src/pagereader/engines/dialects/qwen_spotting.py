"""``qwen-spotting``: Qwen-VL's text spotting, a JSON list of ``{"bbox_2d": [x1, y1, x2, y2],
"text_content": ...}`` one text line each (the coordinates as in ``qwenvl-html``: pixels of
the resized input for Qwen2.5-VL, 0-1000 for Qwen3-VL).

Real answers come fenced and with a trailing comma inside every object, which is not JSON:
both are repaired and named. Every line is a text block; lines are not joined, since the
answer says nothing about paragraphs.
"""

from __future__ import annotations

from pagereader.engines.dialects.build import place, text_block
from pagereader.engines.dialects.common import NOT_IN_DIALECT, Frame, PageAnswer, warning
from pagereader.engines.dialects.dots_ocr import box_of
from pagereader.engines.dialects.repair import read_json_list, strip_fence

NAME = "qwen-spotting"


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read a Qwen-VL text-spotting answer onto the page."""
    notes: list[str] = []
    items = read_json_list(strip_fence(answer, notes), notes)
    if items is None:
        notes.append(warning(NOT_IN_DIALECT, "no JSON list of text lines in the answer"))
        return PageAnswer(dialect=NAME, raw=answer, parsed=False, warnings=tuple(notes))
    blocks = []
    for item in items:
        if not isinstance(item, dict):
            notes.append(warning(NOT_IN_DIALECT, f"a list element is no object: {item!r:.60}"))
            continue
        text = str(item.get("text_content") or item.get("text") or "")
        if not text.strip():
            continue
        box = box_of(item.get("bbox_2d", item.get("bbox")))
        bbox, located = place(box, frame, f"the line {text[:30]!r}", notes)
        blocks.append(text_block("text", "text-line", bbox, text, located=located))
    return PageAnswer(
        dialect=NAME,
        raw=answer,
        parsed=bool(blocks),
        blocks=tuple(blocks),
        warnings=tuple(notes),
        located=any(b.located for b in blocks),
    )
