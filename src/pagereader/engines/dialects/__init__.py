"""Whole-page answers of document VLMs, read in each model's own dialect into blocks with
boxes in page units: QwenVL HTML, Qwen text spotting, dots.ocr, DeepSeek-OCR, Chandra, olmOCR,
plain Markdown and PaddleOCR-VL. Each parser is ``parse(answer, frame) -> PageAnswer``;
:func:`parse_answer` picks one by name."""

from pagereader.engines.dialects.common import AnswerBlock, Frame, PageAnswer
from pagereader.engines.dialects.registry import (
    PARSERS,
    PROMPTS,
    SCALES,
    DialectPrompt,
    Parser,
    parse_answer,
)

__all__ = [
    "PARSERS",
    "PROMPTS",
    "SCALES",
    "AnswerBlock",
    "DialectPrompt",
    "Frame",
    "PageAnswer",
    "Parser",
    "parse_answer",
]
