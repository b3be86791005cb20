"""Context stage: an optional whole-page request for the page's title and a short summary.

It runs only when ``[context] engine = "..."`` names an engine (a general VLM). Its answer is
JSON; a failure is recorded on the page's context and never fails the page, since the blocks
already hold the page's text.
"""

from __future__ import annotations

import json
import re

from pagereader.engines.base import BlockRequest
from pagereader.errors import PagereaderError
from pagereader.runtime import Runtime
from pagereader.stages.state import PageState
from pagereader.types import Block, PageContext

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


def parse_context(answer: str) -> tuple[str, str]:
    """Title and summary from a model's JSON answer (code fences tolerated); the whole answer
    becomes the summary when it is not JSON."""
    text = _FENCE.sub("", answer.strip()).strip()
    start, end = text.find("{"), text.rfind("}")
    if start >= 0 and end > start:
        try:
            data = json.loads(text[start : end + 1])
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict):
            return str(data.get("title", "")).strip(), str(data.get("summary", "")).strip()
    return "", text


def page_request(state: PageState, max_pixels: int) -> BlockRequest:
    """The whole page as one request with the ``context`` task."""
    page = state.rendered
    decision = state.decision
    assert decision is not None
    block = Block(kind="figure", bbox=(0.0, 0.0, page.width, page.height), source="page")
    return BlockRequest(
        file=page.file,
        page=page.index,
        block=block,
        task="context",
        image=page.image,
        page_image=page.image,
        scale=page.scale,
        page_class=decision.page_class,
        script=decision.script,
        min_pixels=min(decision.min_pixels, max_pixels),
        max_pixels=max_pixels,
        crop_box_px=(0, 0, page.image.width, page.image.height),
    )


async def run_context(ctx: Runtime, state: PageState) -> PageState:
    """Ask the context engine about the page, when one is configured."""
    name = ctx.options.context.engine
    if name is None or state.decision is None:
        return state
    if state.rendered.blank:  # a page read from its XML alone: there is no picture to ask about
        state.context = PageContext(engine=name, error="no page picture (no renderer installed)")
        return state
    request = page_request(state, ctx.options.context.max_pixels)
    try:
        answer = await ctx.engines[name].recognize(request)
    except PagereaderError as exc:
        state.context = PageContext(engine=name, error=exc.message)
        return state
    title, summary = parse_context(answer.text)
    state.context = PageContext(title=title, summary=summary, engine=answer.engine)
    return state
