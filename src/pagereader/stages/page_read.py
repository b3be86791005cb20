"""Page-read stage: a page route (``"scan.page" = ["qwen32b"]``) reads the whole page in one
request to a served engine with a dialect.

The page image goes once, under the decision layer's pixel bounds (the engine shrinks it by the
server's own resize, as for a block crop), with the dialect's prompt. The answer is read in that
dialect and its boxes mapped back through the exact resize the request used; its blocks, in the
model's reading order, become the page's blocks and their results (the engine's name, the
answer's text), so layout and recognize skip the page as they skip a deck's native one, and the
verifier checks each block as any served answer.

An answer that cannot be read in its dialect, an engine error or a refusal sends the page to the
chain's next engine. A built-in engine in the chain stands for the block routes: there, or when
the chain is spent, the page is laid out and read by its block routes as usual, with a warning
naming each engine and dialect tried. Every request is recorded on the page (``page_answers``,
the raw answer kept up to :data:`RAW_KEPT` characters).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from pagereader.engines.base import BlockRequest
from pagereader.engines.registry import page_dialect, read_page_answer
from pagereader.errors import PagereaderError
from pagereader.runtime import Runtime
from pagereader.stages.engine_routes import page_route
from pagereader.stages.page_budget import PageStopped
from pagereader.stages.recognize import call_engine, failed_attempt
from pagereader.stages.state import PageState
from pagereader.types import Block, BlockResult, PageAnswerRecord

if TYPE_CHECKING:
    from pagereader.engines.registry import PageAnswer

logger = logging.getLogger(__name__)

RAW_KEPT = 32_000
"""Characters of a raw whole-page answer kept in document.json (an answer at the page task's
8,192-token budget is about this long; a longer one is a loop, its head is what tells)."""

SOURCE_PREFIX = "page:"
"""A block read from a whole-page answer has the source ``page:<dialect>``."""


def read_from_page(block: Block) -> bool:
    """Whether the block came from a whole-page answer."""
    return block.source.startswith(SOURCE_PREFIX)


def kept_raw(raw: str) -> str:
    """The raw answer as document.json keeps it: whole, or its head and a note of the cut."""
    if len(raw) <= RAW_KEPT:
        return raw
    return raw[:RAW_KEPT] + f"\n[cut: {len(raw):,} characters, the first {RAW_KEPT:,} kept]"


def page_request(state: PageState) -> BlockRequest:
    """The whole page as one request, under the decision layer's pixel bounds."""
    page = state.rendered
    decision = state.decision
    assert decision is not None
    return BlockRequest(
        file=page.file,
        page=page.index,
        block=Block(kind="text", bbox=(0.0, 0.0, page.width, page.height), source="page"),
        task="page",
        image=page.image,
        page_image=page.image,
        scale=page.scale,
        page_class=decision.page_class,
        script=decision.script,
        min_pixels=decision.min_pixels,
        max_pixels=decision.max_pixels,
        page_lines=page.lines if state.trusted_text else (),
        crop_box_px=(0, 0, *page.image.size),
    )


def answer_results(answer: PageAnswer, engine: str) -> list[BlockResult]:
    """The page's blocks from a parsed answer, in the model's reading order."""
    source = f"{SOURCE_PREFIX}{answer.dialect}"
    return [
        BlockResult(
            block=part.as_block(order, source),
            text=part.text,
            html=part.html,
            engine=engine,
            level=part.level,
        )
        for order, part in enumerate(answer.blocks)
    ]


async def ask_engine(
    ctx: Runtime, state: PageState, name: str, dialect: str
) -> tuple[PageAnswerRecord, PageAnswer | None]:
    """One whole-page request: its record, and the parsed answer when it can be used."""
    request = page_request(state)
    start = time.perf_counter()
    try:
        recognition = await call_engine(ctx, name, request, state.budget)
    except PageStopped:
        raise
    except PagereaderError as exc:
        attempt = failed_attempt(name, start, exc)
        return PageAnswerRecord(
            engine=name,
            dialect=dialect,
            error=attempt.error,
            cause=attempt.cause,
            http_status=attempt.http_status,
            latency_s=attempt.latency_s,
        ), None
    except Exception as exc:  # an engine bug must not cost the page its block routes
        logger.debug(
            "page request to %s failed on %s page %s", name, state.file, state.index, exc_info=exc
        )
        attempt = failed_attempt(name, start, exc)
        return PageAnswerRecord(
            engine=name, dialect=dialect, error=attempt.error, cause=attempt.cause
        ), None
    page = state.rendered
    pixels = (request.min_pixels, request.max_pixels)
    answer = read_page_answer(
        ctx.options,
        name,
        recognition.text,
        recognition.finish_reason,
        (page.width, page.height),
        page.image.size,
        pixels,
    )
    usable = answer.parsed and bool(answer.blocks)
    record = PageAnswerRecord(
        engine=name,
        dialect=dialect,
        parsed=answer.parsed,
        used=usable,
        blocks=len(answer.blocks),
        warnings=answer.warnings,
        raw=kept_raw(answer.raw),
        raw_chars=len(answer.raw),
        http_status=recognition.http_status,
        finish_reason=recognition.finish_reason,
        prompt_tokens=recognition.prompt_tokens,
        completion_tokens=recognition.completion_tokens,
        latency_s=round(time.perf_counter() - start, 4),
    )
    return record, answer if usable else None


def _why(record: PageAnswerRecord) -> str:
    if record.error:
        return f"failed ({record.error})"
    if not record.parsed:
        return "answered in no form its dialect reads (raw answer kept in document.json)"
    return "answered with no block (raw answer kept in document.json)"


async def run_page_read(ctx: Runtime, state: PageState) -> PageState:
    """Read the page in one request where its class has a page route."""
    decision = state.decision
    if state.rendered.native is not None or decision is None:
        return state
    key, chain = page_route(ctx.options.routes, decision.page_class)
    for name in chain:
        dialect = page_dialect(ctx.options, name)
        if dialect is None:  # a built-in engine: the block routes read the page
            break
        record, answer = await ask_engine(ctx, state, name, dialect)
        state.page_answers.append(record)
        if answer is not None:
            state.results = answer_results(answer, name)
            state.blocks = [result.block for result in state.results]
            state.read_whole = True
            state.warnings.extend(
                f"whole-page answer of {name} ({dialect}): {note}" for note in answer.warnings
            )
            return state
    if state.page_answers:
        tried = "; ".join(f"{r.engine} ({r.dialect}) {_why(r)}" for r in state.page_answers)
        state.warnings.append(
            f"page route {key!r}: no whole-page answer was used: {tried}; "
            "the page was read by its block routes"
        )
    return state
