"""Pages a source read natively (a PPTX slide's shapes, a DOCX page's paragraphs): the
decision layer's ``native`` class.

Their blocks arrive answered with the deck's own text, tables and chart data in reading order,
so layout and OCR of text have nothing to add and the verifier nothing to compare with: each
stage hands such a page on as it is, and the decision says why.
"""

from __future__ import annotations

from pagereader.config.options import ClassifyOptions
from pagereader.sources.base import NativeSlide
from pagereader.stages.state import PageState
from pagereader.text.chars import count_scripts, script_of
from pagereader.types import Block, PageDecision, PageFeatures


def native_decision(native: NativeSlide, options: ClassifyOptions) -> PageDecision:
    """The ``native`` class with its reasons: what the slide holds and that nothing is OCRed."""
    results = native.results
    kinds = sorted({r.block.kind for r in results})
    chars = sum(len(r.text) for r in results)
    counts = count_scripts(r.text for r in results)
    where = f"slide {native.info.number}" if native.info else "page"
    whose = "deck's" if native.info else "document's"
    reasons = [
        f"{where} read from the {whose} XML: {len(results)} blocks "
        f"({', '.join(kinds) or 'none'}), {chars} characters, exact; no layout or OCR"
    ]
    if native.info is not None and native.info.hidden:
        reasons.append(f"slide {native.info.number} is hidden in the deck")
    return PageDecision(
        page_class="native",
        max_pixels=options.sparse_max_pixels,
        min_pixels=min(options.min_pixels, options.sparse_max_pixels),
        script=script_of(counts),
        script_reason=f"slide text letters: {counts}",
        text_engine=native.engine,
        engine_reason="the slide's own text" if native.info else "the document's own text",
        reasons=tuple(reasons),
        features=PageFeatures(text_chars=chars, line_count=len(results)),
    )


def classify_native(state: PageState, native: NativeSlide, options: ClassifyOptions) -> PageState:
    """The page's decision; its text is the deck's, so trusted."""
    state.decision = native_decision(native, options)
    state.trusted_text = True
    return state


def native_blocks(native: NativeSlide) -> list[Block]:
    """The slide's blocks, already in reading order."""
    return [result.block for result in native.results]
