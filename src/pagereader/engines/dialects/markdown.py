"""``markdown``: a page answered as plain Markdown (any model asked to convert a page to
Markdown): headings, paragraphs, lists, pipe or HTML tables, display formulas. No boxes: every
block stands on the whole page, and the answer says so in a warning."""

from __future__ import annotations

from pagereader.engines.dialects.build import segment_blocks
from pagereader.engines.dialects.common import (
    NO_BOXES,
    NOT_IN_DIALECT,
    AnswerBlock,
    Frame,
    PageAnswer,
    warning,
)
from pagereader.engines.dialects.markdown_blocks import split_markdown
from pagereader.engines.dialects.repair import strip_fence

NAME = "markdown"


def markdown_blocks(text: str, frame: Frame, notes: list[str]) -> list[AnswerBlock]:
    """The blocks of a boxless Markdown answer, each on the whole page."""
    return segment_blocks(split_markdown(text), "markdown", frame.page, False, notes)


def boxless_answer(
    name: str, answer: str, blocks: list[AnswerBlock], notes: list[str], **meta: str
) -> PageAnswer:
    """The answer of a dialect without boxes: the no-boxes warning, or not parsed."""
    if blocks:
        notes.insert(0, warning(NO_BOXES, "the dialect gives no boxes; every block is the page"))
    else:
        notes.append(warning(NOT_IN_DIALECT, "nothing readable in the answer"))
    return PageAnswer(
        dialect=name,
        raw=answer,
        parsed=bool(blocks),
        blocks=tuple(blocks),
        warnings=tuple(notes),
        meta=meta,
    )


def parse(answer: str, frame: Frame) -> PageAnswer:
    """Read a Markdown answer (a ```` ```markdown ```` fence around it is removed)."""
    notes: list[str] = []
    body = strip_fence(answer, notes) if answer.lstrip().startswith("```") else answer
    return boxless_answer(NAME, answer, markdown_blocks(body, frame, notes), notes)
