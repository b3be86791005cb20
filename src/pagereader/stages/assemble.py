"""Assemble stage: a page's results become its PageResult (its Markdown is the document
layer's view, render/markdown.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from pagereader.render.overlay import overlay_scale
from pagereader.runtime import Runtime
from pagereader.stages.classify import analysis_copy
from pagereader.stages.han_forms import to_document_forms
from pagereader.stages.missed_text import missed_text
from pagereader.stages.state import PageState
from pagereader.stages.text_layer_rules import mojibake_warnings, prefer_text_layer
from pagereader.types import BlockResult, PageResult, StageTimes

logger = logging.getLogger(__name__)

UNREAD_INK = 0.02
"""A scan with this share of ink or more, read as no text and no picture, is said to be."""


async def run_assemble(ctx: Runtime, state: PageState) -> PageState:
    """Order the results (the OCR's readings of a Traditional Chinese page in its standard
    forms), and on a scan say what was not read."""
    prefer_text_layer(state, ctx.options.classify.max_garbage_ratio)
    to_document_forms(state, ctx.options.lang)
    state.warnings.extend(mojibake_warnings(state))
    state.results = sorted(state.results, key=lambda r: r.block.order)
    for note in state.warnings:  # the earlier stages' (a text layer too large to use)
        logger.warning("%s page %d: %s", state.file, state.index, note)
    if _read_from_raster(state):
        notes = await asyncio.to_thread(scan_warnings, state)
        for note in notes:
            logger.warning("%s page %d: %s", state.file, state.index, note)
        state.warnings.extend(notes)
    return state


def _read_from_raster(state: PageState) -> bool:
    return not state.trusted_text and state.decision is not None and not state.errors


def scan_warnings(state: PageState) -> list[str]:
    """What a person should know of a scan's reading: ink from which nothing was read and in
    which no picture was found (print too faint, too big or too strange for the detector), or
    print that no block holds (a line the detector missed). Neither passes in silence."""
    if not _read_from_raster(state) or state.decision is None:
        return []
    unread = unread_ink(state.decision.features.ink_fraction, state.results)
    if unread:
        return [unread]
    gray, unit_scale = analysis_copy(state.rendered)
    missed = missed_text(gray, unit_scale, state.results)
    return [missed.note()] if missed is not None else []


def unread_ink(ink: float, results: Sequence[BlockResult]) -> str:
    """The warning for a page with ``ink`` (its share) from which nothing was read and in which
    no picture was found; empty when something was."""
    if ink < UNREAD_INK or any(
        r.text.strip() or r.html or r.block.kind == "figure" for r in results
    ):
        return ""
    return (
        f"{ink:.0%} of the page is ink, but no text was read and no picture found: "
        "check the page (faint, very large or unusual print?)"
    )


def without_char_boxes(results: Sequence[BlockResult]) -> tuple[BlockResult, ...]:
    """``results`` with their lines' per-character boxes dropped: the layout stage needed them
    (columns, table cells), the outputs do not, and kept they make a page's result and its
    JSON grow about 25-fold (see ``output.char_boxes``)."""
    kept: list[BlockResult] = []
    for result in results:
        lines = result.block.lines
        if any(line.char_boxes for line in lines):
            bare = tuple(line.model_copy(update={"char_boxes": ()}) for line in lines)
            block = result.block.model_copy(update={"lines": bare})
            result = result.model_copy(update={"block": block})
        kept.append(result)
    return tuple(kept)


def page_result(
    state: PageState, timings: StageTimes | None, char_boxes: bool = False
) -> PageResult:
    """The frozen result of a finished page; the render's notes (a raster made coarser to fit
    the pixel budget) join the decision's reasons, where the JSON explains the page. Its
    lines keep their per-character boxes only with ``char_boxes``."""
    page = state.rendered
    decision = state.decision
    if decision is not None and page.render_notes:
        extra = tuple(n for n in page.render_notes if n not in decision.reasons)
        decision = decision.model_copy(update={"reasons": decision.reasons + extra})
    return PageResult(
        index=page.index,
        width=round(page.width, 2),
        height=round(page.height, 2),
        decision=decision,
        blocks=tuple(state.results) if char_boxes else without_char_boxes(state.results),
        notes=page.notes,
        context=state.context,
        errors=tuple(state.errors),
        warnings=tuple(state.warnings),
        timings=timings,
        slide=page.native.info if page.native is not None else None,
        overlay_scale=None if page.blank else overlay_scale(page.image.width, page.scale),
        page_answers=tuple(state.page_answers),
    )
