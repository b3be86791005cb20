"""The verifier's reference: an independent reading of a block, to check an answer against.

On a digital page it is the text layer inside the block; on a scan, when the policy asks for
it, the embedded OCR of the same block (cheap next to a VLM call). An answer that already
comes from one of those signals gets none: checking a signal against itself proves nothing.
"""

from __future__ import annotations

import dataclasses
import logging

from pagereader.checks.base import ReferenceSource
from pagereader.errors import PagereaderError
from pagereader.runtime import Runtime
from pagereader.stages.recognize import build_request, call_engine
from pagereader.stages.state import PageState
from pagereader.types import BlockResult

logger = logging.getLogger(__name__)

_UNREFERENCED_KINDS = frozenset({"figure", "formula"})


def own_signals(ctx: Runtime) -> set[str]:
    """Engines whose answers are the page's own signals (the text layer, the grid built from
    it, the embedded OCR) or the configured reference itself."""
    names = {name for name, engine in ctx.engines.items() if engine.embedded}
    return names | {ctx.options.verify.reference_engine}


@dataclasses.dataclass(frozen=True)
class Reference:
    """The independent reading of a block, or none."""

    text: str | None = None
    source: ReferenceSource | None = None


async def find_reference(
    ctx: Runtime, state: PageState, result: BlockResult, engine_name: str
) -> Reference:
    """The text layer in the block (digital pages) or the embedded OCR of it (scans).

    None for answers that already come from those signals (the text layer, the grid built
    from it, the embedded OCR): checking a signal against itself proves nothing.
    """
    options = ctx.options.verify
    kind = result.block.kind
    if kind in _UNREFERENCED_KINDS:
        return Reference()
    answered_by = {engine_name, result.engine}
    if answered_by & own_signals(ctx):
        return Reference()
    request = build_request(state, result.block)
    if state.trusted_text and state.rendered.lines:
        try:
            answer = await ctx.capabilities.text_layer().recognize(request)
        except PagereaderError:
            return Reference()
        return Reference(answer.text, "textlayer")
    if not options.ocr_reference_on_scans or options.reference_engine not in ctx.engines:
        return Reference()
    try:
        answer = await call_engine(ctx, options.reference_engine, request, state.budget)
    except Exception as exc:  # a failed reference only means fewer checks
        logger.debug(
            "no OCR reference for %s page %s block %s: %s",
            state.file,
            state.index,
            result.block.order,
            exc,
        )
        return Reference()
    return Reference(answer.text, "ocr")
