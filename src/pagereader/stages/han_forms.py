"""OCR readings of a Traditional Chinese page written in the document's own standard forms.

PP-OCR writes simplified or variant forms (条, 爲, 内, 衆) now and then on a Taiwan page; the
page's text then holds forms the document does not use, and an article number read 第 3 条 is
no longer the document's 第 3 條. Only text read from pixels by an embedded OCR engine is
mapped (text/variants.py), and only on a page the decision layer classed as Han whose text is
Traditional (``--lang zh-Hant``, or its traditional-only characters clearly outnumber its
simplified-only ones). The text layer is the document's own text and is never changed; a
served model is asked to transcribe what is printed and is checked against the embedded OCR,
so its answer is kept as it came. Each changed block lists its pairs in ``mapped_chars``.
"""

from __future__ import annotations

from pagereader.engines import registry
from pagereader.stages.state import PageState
from pagereader.text.variants import reads_traditional, to_taiwan_forms
from pagereader.types import BlockResult, MappedChars

OCR_ENGINES = registry.pixel_readers() | {"ocr-reference"}
"""Answers read from pixels by an embedded OCR: its engines, and the verifier's fallback to the
embedded OCR's reading (stages/verify.py names it so)."""


def ocr_read(state: PageState, result: BlockResult) -> bool:
    """Whether the block's text was read from the page's pixels by an embedded OCR (a table
    grid is, on a page without a trusted text layer)."""
    if result.engine == registry.grid_engine():
        return not state.trusted_text
    return result.engine in OCR_ENGINES


def traditional_page(state: PageState, lang: str | None) -> bool:
    """Whether the page is Traditional Chinese: ``--lang zh-Hant``, or a Han page whose text
    reads as Traditional."""
    if lang is not None:
        return lang == "zh-Hant"
    if state.decision is None or state.decision.script != "han":
        return False
    return reads_traditional(r.text for r in state.results)


def map_block(result: BlockResult) -> BlockResult:
    """The block with its text, table and lines in Taiwan standard forms, and the pairs."""
    mapped = to_taiwan_forms(result.text)
    html = to_taiwan_forms(result.html).text if result.html is not None else None
    lines = tuple(
        line.model_copy(update={"text": to_taiwan_forms(line.text).text})
        for line in result.block.lines
    )
    if mapped.text == result.text and html == result.html and lines == result.block.lines:
        return result
    return result.model_copy(
        update={
            "text": mapped.text,
            "html": html,
            "block": result.block.model_copy(update={"lines": lines}),
            "mapped_chars": tuple(
                MappedChars(read=read, written=written, count=count)
                for read, written, count in mapped.pairs
            ),
        }
    )


def to_document_forms(state: PageState, lang: str | None) -> None:
    """Map the OCR-read blocks of a Traditional Chinese page into Taiwan standard forms."""
    if not any(ocr_read(state, r) for r in state.results):
        return
    if not traditional_page(state, lang):
        return
    state.results = [map_block(r) if ocr_read(state, r) else r for r in state.results]
