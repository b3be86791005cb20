"""Assemble stage: a page's results become its PageResult and Markdown."""

from __future__ import annotations

from pagereader.render.markdown import page_markdown
from pagereader.runtime import Runtime
from pagereader.stages.state import PageState
from pagereader.types import PageResult, StageTimes


async def run_assemble(ctx: Runtime, state: PageState) -> PageState:
    """Order the results and write the page's Markdown."""
    state.results = sorted(state.results, key=lambda r: r.block.order)
    state.markdown = page_markdown(
        state.results, state.rendered.notes, mark_review=ctx.options.verify.mark_review
    )
    return state


def page_result(state: PageState, timings: StageTimes | None) -> PageResult:
    """The frozen result of a finished page; the render's notes (a raster made coarser to fit
    the pixel budget) join the decision's reasons, where the JSON explains the page."""
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
        blocks=tuple(state.results),
        notes=page.notes,
        context=state.context,
        markdown=state.markdown,
        errors=tuple(state.errors),
        timings=timings,
    )
