"""Dialects by name: each name's parser, the prompt its model's own documentation gives for a
whole page, and the coordinate convention that prompt gets back.

Adding a dialect touches its module and the three tables here, nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pagereader.engines.dialects import (
    chandra,
    deepseek_ocr,
    dots_ocr,
    markdown,
    olmocr,
    paddleocr_vl,
    qwen_spotting,
    qwenvl_html,
)
from pagereader.engines.dialects.common import CUT_AT_LENGTH, Frame, PageAnswer, warning
from pagereader.errors import ConfigError
from pagereader.types import Frozen

Parser = Callable[[str, Frame], PageAnswer]

SPECIAL_TOKENS = "special-tokens"
_CHAT_TOKENS = re.compile(r"<\|(?:endoftext|im_end|im_start|end|eot_id)\|>|<｜end▁of▁sentence｜>")
"""End-of-turn tokens of the chat templates these models use (DeepSeek-OCR's ``<|ref|>`` and
``<|det|>`` are its answer, not these)."""


class DialectPrompt(Frozen):
    """What to send for a whole page: the user text beside the image, and the system prompt
    the model's documentation pairs with it (None: the server's default)."""

    user: str
    system: str | None = None


PARSERS: dict[str, Parser] = {
    qwenvl_html.NAME: qwenvl_html.parse,
    qwen_spotting.NAME: qwen_spotting.parse,
    dots_ocr.NAME: dots_ocr.parse,
    deepseek_ocr.NAME: deepseek_ocr.parse,
    chandra.NAME: chandra.parse,
    olmocr.NAME: olmocr.parse,
    markdown.NAME: markdown.parse,
    paddleocr_vl.NAME: paddleocr_vl.parse,
}

_CHANDRA_TAGS = (
    "['math', 'br', 'i', 'b', 'u', 'del', 'sup', 'sub', 'table', 'tr', 'td', 'p', 'th', 'div', "
    "'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'ul', 'ol', 'li', 'input', 'a', 'span', 'img', 'hr', "
    "'tbody', 'small', 'caption', 'strong', 'thead', 'big', 'code', 'chem']"
)
_CHANDRA_ATTRS = (
    "['class', 'colspan', 'rowspan', 'display', 'checked', 'type', 'border', 'value', 'style', "
    "'href', 'alt', 'align', 'data-bbox', 'data-label']"
)
_CHANDRA_PROMPT = (
    "OCR this image to HTML, arranged as layout blocks. Each layout block should be a div with "
    "the data-bbox attribute representing the bounding box of the block in x0 y0 x1 y1 format. "
    "Bboxes are normalized 0-1000. The data-label attribute is the label for the block.\n\n"
    "Use the following labels:\n"
    + "".join(f"- {label}\n" for label in chandra.LABELS)
    + f"\nOnly use these tags {_CHANDRA_TAGS}, and these attributes {_CHANDRA_ATTRS}.\n\n"
    "Guidelines:\n"
    "* Inline math: Surround math with <math>...</math> tags. Math expressions should be "
    "rendered in KaTeX-compatible LaTeX. Use display for block math.\n"
    "* Tables: Use colspan and rowspan attributes to match table structure.\n"
    "* Formatting: Maintain consistent formatting with the image, including spacing, "
    "indentation, subscripts/superscripts, and special characters.\n"
    "* Images: Include a description of any images in the alt attribute of an <img> tag. Do "
    "not fill out the src property. Describe in detail inside the div tag. Also convert charts "
    "to high fidelity data, and convert diagrams to mermaid.\n"
    "* Forms: Mark checkboxes and radio buttons properly.\n"
    "* Text: join lines together properly into paragraphs using <p>...</p> tags. Use <br> "
    "tags for line breaks within paragraphs, but only when absolutely necessary to maintain "
    "meaning.\n"
    "* Chemistry: Use <chem>...</chem> tags for chemical formulas with reactive SMILES.\n"
    "* Lists: Preserve indents and proper list markers.\n"
    "* Use the simplest possible HTML structure that accurately represents the content of the "
    "block.\n"
    "* Make sure the text is accurate and easy for a human to read and interpret. Reading "
    "order should be correct and natural."
)
_DOTS_PROMPT = (
    "Please output the layout information from the PDF image, including each layout "
    "element's bbox, its category, and the corresponding text content within the bbox.\n\n"
    "1. Bbox format: [x1, y1, x2, y2]\n\n"
    f"2. Layout Categories: The possible categories are {list(dots_ocr.CATEGORIES)}.\n\n"
    "3. Text Extraction & Formatting Rules:\n"
    "    - Picture: For the 'Picture' category, the text field should be omitted.\n"
    "    - Formula: Format its text as LaTeX.\n"
    "    - Table: Format its text as HTML.\n"
    "    - All Others (Text, Title, etc.): Format their text as Markdown.\n\n"
    "4. Constraints:\n"
    "    - The output text must be the original text from the image, with no translation.\n"
    "    - All layout elements must be sorted according to human reading order.\n\n"
    "5. Final Output: The entire output must be a single JSON object."
)
_OLMOCR_PROMPT = (
    "Attached is one page of a document that you must process. Just return the plain text "
    "representation of this document as if you were reading it naturally. Convert equations "
    "to LateX and tables to markdown.\n"
    "Return your output as markdown, with a front matter section on top specifying values for "
    "the primary_language, is_rotation_valid, rotation_correction, is_table, and is_diagram "
    "parameters."
)

PROMPTS: dict[str, DialectPrompt] = {
    # Qwen2.5-VL's document-parsing cookbook: the system prompt keeps Qwen3-VL from
    # answering an ordinary web page without boxes
    qwenvl_html.NAME: DialectPrompt(
        user="QwenVL HTML",
        system=(
            "You are an AI specialized in recognizing and extracting text from images. Your "
            "mission is to analyze the image document and generate the result in QwenVL "
            "Document Parser HTML format using specified tags while maintaining user privacy "
            "and data integrity."
        ),
    ),
    # Qwen2.5-VL's OCR cookbook
    qwen_spotting.NAME: DialectPrompt(
        user="Spotting all the text in the image with line-level, and output in JSON format.",
        system="You are a helpful assistant.",
    ),
    # dots.ocr's prompt_layout_all_en
    dots_ocr.NAME: DialectPrompt(user=_DOTS_PROMPT),
    # DeepSeek-OCR's README (the chat template puts <image> before it)
    deepseek_ocr.NAME: DialectPrompt(user="<|grounding|>Convert the document to markdown."),
    # Chandra's layout prompt with the 0-1000 scale (docling's; chandra's own says 0-1024)
    chandra.NAME: DialectPrompt(user=_CHANDRA_PROMPT),
    # olmOCR's build_no_anchoring_yaml_prompt (v0.3)
    olmocr.NAME: DialectPrompt(user=_OLMOCR_PROMPT),
    # DeepSeek-OCR's README, the prompt without grounding
    markdown.NAME: DialectPrompt(user="Convert the document to markdown."),
    # PaddleOCR-VL's text task
    paddleocr_vl.NAME: DialectPrompt(user="OCR:"),
}

SCALES: dict[str, int | None] = {
    qwenvl_html.NAME: None,
    qwen_spotting.NAME: None,
    dots_ocr.NAME: None,
    deepseek_ocr.NAME: 999,
    chandra.NAME: 1000,
    olmocr.NAME: None,
    markdown.NAME: None,
    paddleocr_vl.NAME: None,
}
"""The coordinate convention each prompt gets back (:attr:`Frame.scale`): ``None`` absolute
pixels of the resized input (Qwen2.5-VL, dots.ocr), ``N`` a 0-N grid. Qwen3-VL answers the
Qwen prompts on a 0-1000 grid: a Qwen3-VL engine's frame sets ``scale=1000``."""


def parse_answer(
    dialect: str, answer: str, frame: Frame, *, finish_reason: str | None = None
) -> PageAnswer:
    """Read a whole-page answer in its dialect. Chat-template tokens a server let through
    (``<|endoftext|>``, ``<|im_end|>``) are removed first; ``finish_reason == "length"`` (the
    answer cut at the token limit) is named in the warnings and marks the answer
    ``truncated``."""
    parser = PARSERS.get(dialect)
    if parser is None:
        raise ConfigError(f"unknown dialect {dialect!r}; known: {', '.join(sorted(PARSERS))}")
    tokens = _CHAT_TOKENS.findall(answer)
    result = parser(_CHAT_TOKENS.sub("", answer) if tokens else answer, frame)
    notes = list(result.warnings)
    if tokens:
        notes.insert(0, warning(SPECIAL_TOKENS, f"chat tokens removed: {sorted(set(tokens))}"))
    if finish_reason == "length":
        notes.append(
            warning(CUT_AT_LENGTH, "the answer ended at max_tokens; its last block may be cut")
        )
    return result.model_copy(
        update={
            "raw": answer,
            "warnings": tuple(notes),
            "truncated": finish_reason == "length",
        }
    )
