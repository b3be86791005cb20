"""Recognize stage: every block of a page goes to its route's engine chain, all at once.

The first engine that answers wins; an engine that fails is recorded as an attempt and the
next one is tried. A block whose whole chain fails becomes an ErrorItem (the page goes on).

With ``budget.page_deadline_s`` set, the deadline counts from the start of this stage: an
attempt still running when it passes is cut, recorded as late, and the block falls back down
its chain; what runs after the deadline gets one timeout more (the largest ``timeout_s`` in
the block's chain), so a hung endpoint never holds a page past deadline plus one timeout.

A figure on a page with a trusted text layer is read with the text layer's lines painted out:
text drawn over a picture is already in the output as text, and its OCR would repeat it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

import numpy as np
from PIL import Image

from pagereader.engines.base import BlockRequest, crop_box
from pagereader.errors import EngineError, PagereaderError
from pagereader.runtime import Runtime
from pagereader.stages.engine_routes import resolve_route, task_for
from pagereader.stages.page_budget import PageBudget, PageStopped
from pagereader.stages.state import PageState
from pagereader.types import (
    Attempt,
    AttemptCause,
    BBox,
    Block,
    BlockResult,
    ErrorItem,
    Recognition,
    Task,
    TextLine,
)

logger = logging.getLogger(__name__)

_DEFAULT_GRACE_S = 60.0


def _inside(line: TextLine, box: BBox) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def paint_out(
    crop: Image.Image, origin: tuple[int, int], lines: Sequence[TextLine], scale: float
) -> Image.Image:
    """The crop with each line's box (page units) filled with the colour around it."""
    pixels = np.array(crop.convert("RGB"))
    height, width = pixels.shape[:2]
    for line in lines:
        pad = max(2, int(0.15 * (line.bbox[3] - line.bbox[1]) * scale))
        x0 = max(0, int(line.bbox[0] * scale) - origin[0] - pad)
        y0 = max(0, int(line.bbox[1] * scale) - origin[1] - pad)
        x1 = min(width, int(line.bbox[2] * scale + 0.999) - origin[0] + pad)
        y1 = min(height, int(line.bbox[3] * scale + 0.999) - origin[1] + pad)
        if x1 <= x0 or y1 <= y0:
            continue
        ring = np.concatenate(
            [
                pixels[max(0, y0 - 2) : y0, x0:x1].reshape(-1, 3),
                pixels[y1 : y1 + 2, x0:x1].reshape(-1, 3),
                pixels[y0:y1, max(0, x0 - 2) : x0].reshape(-1, 3),
                pixels[y0:y1, x1 : x1 + 2].reshape(-1, 3),
            ]
        )
        fill = np.median(ring, axis=0) if len(ring) else np.array([255, 255, 255])
        pixels[y0:y1, x0:x1] = fill.astype(np.uint8)
    return Image.fromarray(pixels)


def lines_over(state: PageState, block: Block) -> list[TextLine]:
    """The trusted text layer's lines drawn over a figure, painted out of its crop (the figure
    is read for what the text layer does not already hold); none for other blocks."""
    if block.kind != "figure" or not state.trusted_text:
        return []
    return [ln for ln in state.rendered.lines if ln.text.strip() and _inside(ln, block.bbox)]


def block_image(state: PageState, block: Block, box: tuple[int, int, int, int]) -> Image.Image:
    """The block's crop; a figure's without the trusted text layer's lines drawn over it."""
    page = state.rendered
    crop = page.image.crop(box)
    over = lines_over(state, block)
    return paint_out(crop, (box[0], box[1]), over, page.scale) if over else crop


def build_request(state: PageState, block: Block) -> BlockRequest:
    """The request for one block: its crop, the page's budget and script, the trusted text."""
    page = state.rendered
    decision = state.decision
    assert decision is not None
    box = crop_box(block.bbox, page.scale, page.image.size)
    task: Task = task_for(block.kind)  # type: ignore[assignment]
    return BlockRequest(
        file=page.file,
        page=page.index,
        block=block,
        task=task,
        image=block_image(state, block, box),
        page_image=page.image,
        scale=page.scale,
        page_class=decision.page_class,
        script=decision.script,
        min_pixels=decision.min_pixels,
        max_pixels=decision.max_pixels,
        page_lines=page.lines if state.trusted_text else (),
        crop_box_px=box,
    )


async def call_engine(
    ctx: Runtime, name: str, request: BlockRequest, budget: PageBudget | None = None
) -> Recognition:
    """One request to a named engine, within that engine's concurrency bound; with the page's
    ``budget``, none once the page is out of time or cancelled (PageStopped), also after
    waiting for the engine."""
    engine = ctx.engines[name]
    async with ctx.semaphore(name, engine.max_concurrency):
        if budget is not None:
            budget.check("recognize")
        return await engine.recognize(request)


def _grace_s(ctx: Runtime, chain: list[str]) -> float:
    """One timeout: the largest per-request timeout among the chain's engines."""
    timeouts = [getattr(ctx.options.engines.get(name), "timeout_s", None) for name in chain]
    return max((float(t) for t in timeouts if t), default=_DEFAULT_GRACE_S)


def _failed(
    name: str,
    start: float,
    error: str,
    cause: AttemptCause,
    status: int | None = None,
    hint: str = "",
) -> Attempt:
    return Attempt(
        engine=name,
        ok=False,
        latency_s=round(time.perf_counter() - start, 4),
        error=error,
        cause=cause,
        http_status=status,
        hint=hint,
    )


def failed_attempt(name: str, start: float, exc: BaseException) -> Attempt:
    """The attempt of an engine call that raised: its message, kind and HTTP status."""
    if isinstance(exc, EngineError):
        return _failed(name, start, exc.message, exc.cause, exc.status, exc.hint)
    if isinstance(exc, PagereaderError):
        return _failed(name, start, exc.message, "engine", hint=exc.hint)
    return _failed(name, start, f"internal error: {type(exc).__name__}: {exc}", "internal")


async def recognize_block(
    ctx: Runtime,
    state: PageState,
    block: Block,
    chain: list[str],
    deadline_at: float | None = None,
) -> tuple[BlockResult, ErrorItem | None]:
    """Walk the chain until an engine answers; keep every attempt."""
    request = build_request(state, block)
    attempts: list[Attempt] = []
    budget = ctx.options.budget.page_deadline_s
    grace = _grace_s(ctx, chain)
    for name in chain:
        start = time.perf_counter()
        limit: float | None = None
        late = False
        if deadline_at is not None:
            late = start >= deadline_at
            limit = (deadline_at + grace if late else deadline_at) - start
            if limit <= 0:
                attempts.append(
                    _failed(
                        name,
                        start,
                        (
                            f"skipped: the page deadline ({budget:g} s) and one timeout "
                            f"({grace:g} s) have passed"
                        ),
                        "deadline",
                    )
                )
                continue
        try:
            async with asyncio.timeout(limit) as window:
                answer = await call_engine(ctx, name, request, state.budget)
        except PageStopped as exc:  # the page's seconds are spent: no fallback either
            attempts.append(_failed(name, start, exc.message, "deadline", hint=exc.hint))
            return BlockResult(block=block, attempts=tuple(attempts)), None
        except TimeoutError as exc:
            if not window.expired():
                attempts.append(failed_attempt(name, start, exc))
                continue
            what = "page deadline" if not late else "page deadline plus one timeout"
            attempts.append(
                _failed(
                    name,
                    start,
                    (
                        f"late: the {what} ({budget:g} s"
                        + (f" + {grace:g} s" if late else "")
                        + ") passed before an answer; falling back"
                    ),
                    "deadline",
                )
            )
            continue
        except PagereaderError as exc:
            attempts.append(failed_attempt(name, start, exc))
            continue
        except Exception as exc:  # an engine bug must not cost the block its fallbacks
            logger.debug(
                "engine %s failed on %s page %s", name, state.file, state.index, exc_info=exc
            )
            attempts.append(failed_attempt(name, start, exc))
            continue
        latency = time.perf_counter() - start
        attempts.append(
            Attempt(
                engine=answer.engine,
                ok=True,
                latency_s=round(latency, 4),
                finish_reason=answer.finish_reason,
                prompt_tokens=answer.prompt_tokens,
                completion_tokens=answer.completion_tokens,
                http_status=answer.http_status,
            )
        )
        return BlockResult(
            block=block,
            text=answer.text,
            html=answer.html,
            engine=answer.engine,
            confidence=answer.confidence,
            latency_s=round(latency, 4),
            finish_reason=answer.finish_reason,
            attempts=tuple(attempts),
        ), None
    reasons = "; ".join(f"{a.engine}: {a.error}" for a in attempts) or "no engine routed"
    error = ErrorItem(
        file=state.file,
        page=state.index,
        stage="recognize",
        message=f"{block.kind} block {block.order} could not be read ({reasons})",
        hint="check the route for this page class and block kind, and that its engines run",
    )
    return BlockResult(block=block, attempts=tuple(attempts)), error


async def run_recognize(ctx: Runtime, state: PageState) -> PageState:
    """Recognize all blocks of the page concurrently."""
    assert state.decision is not None
    if state.rendered.native is not None:  # answered from the deck's XML (stages/native.py)
        state.results = list(state.rendered.native.results)
        return state
    if state.read_whole:  # answered in one whole-page request (page_read.py)
        return state
    page_class = state.decision.page_class
    budget = ctx.options.budget.page_deadline_s
    deadline_at = time.perf_counter() + budget if budget else None
    jobs = [
        recognize_block(
            ctx,
            state,
            block,
            resolve_route(ctx.options.routes, page_class, block.kind),
            deadline_at,
        )
        for block in state.blocks
    ]
    done = await asyncio.gather(*jobs)
    state.results = [result for result, _ in done]
    state.errors.extend(error for _, error in done if error is not None)
    state.budget.record(state.errors, state.file, state.index, "recognize")
    return state
