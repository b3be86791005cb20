"""``paddleocr-vl``: PaddleOCR-VL's element answer. The model reads one element per request
("OCR:", "Table Recognition:", "Formula Recognition:", "Chart Recognition:") and gives no
boxes (PaddleOCR-VL's pipeline takes them from a separate layout detector). Asked for a whole
page it answers the page's text with its physical line breaks kept: one text block on the
whole page; an OTSL answer is one table."""

from __future__ import annotations

from pagereader.engines.dialects.build import table_block, text_block
from pagereader.engines.dialects.common import Frame, PageAnswer
from pagereader.engines.dialects.markdown import boxless_answer
from pagereader.render.otsl import is_otsl

NAME = "paddleocr-vl"


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read a PaddleOCR-VL element answer as one block of the whole page."""
    notes: list[str] = []
    text = answer.strip()
    if not text:
        return boxless_answer(NAME, answer, [], notes)
    if is_otsl(text) or "<table" in text.lower():
        block = table_block("table", frame.page, text, notes, located=False)
    else:
        block = text_block("text", "text", frame.page, text, located=False)
    return boxless_answer(NAME, answer, [block], notes)
