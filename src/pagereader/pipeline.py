"""The async orchestrator: open a document, run each page through the stages, collect results.

Pages overlap (bounded by ``budget.pages_in_flight``); blocks of a page run concurrently in the
recognize stage. A failing page becomes an ErrorItem and the document goes on (status
``partial``); a file that cannot be opened gives a ``failed`` result, never an exception.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from pagereader.cache import PageCache, file_digest, options_digest
from pagereader.context import RunContext
from pagereader.engines.registry import build_engines
from pagereader.errors import PagereaderError
from pagereader.options import Options
from pagereader.render.json import SCHEMA_VERSION
from pagereader.render.markdown import document_markdown, page_markdown
from pagereader.render.writer import DocumentWriter
from pagereader.sources import SourceDocument, open_source
from pagereader.sources.base import RenderedPage
from pagereader.stages.assemble import page_result, run_assemble
from pagereader.stages.classify import run_classify
from pagereader.stages.context import run_context
from pagereader.stages.layout import run_layout
from pagereader.stages.recognize import run_recognize
from pagereader.stages.state import PageState
from pagereader.stages.verify import run_verify
from pagereader.timing import PageTimer
from pagereader.types import DocumentResult, ErrorItem, PageResult, Status

logger = logging.getLogger(__name__)

PageCallback = Callable[[PageResult, RenderedPage | None], None]
Stage = Callable[[RunContext, PageState], Awaitable[PageState]]
STAGES: tuple[tuple[str, Stage], ...] = (
    ("classify", run_classify),
    ("layout", run_layout),
    ("recognize", run_recognize),
    ("verify", run_verify),
    ("context", run_context),
    ("assemble", run_assemble),
)


def make_context(options: Options | None = None, **kwargs: object) -> RunContext:
    """A RunContext with the engines the options name."""
    options = options or Options()
    return RunContext(options=options, engines=build_engines(options), **kwargs)  # type: ignore[arg-type]


def _internal_error(file: str, page: int | None, stage: str, exc: BaseException) -> ErrorItem:
    logger.debug("unexpected error in %s page %s", file, page, exc_info=exc)
    return ErrorItem(
        file=file,
        page=page,
        stage=stage,
        message=f"internal error: {type(exc).__name__}: {exc}",
        hint="rerun with --debug for the traceback and report it",
    )


def raster_digest(page: RenderedPage) -> str:
    """SHA-256 of a page's pixels: identical slides (a repeated divider, a template page) have
    the same digest whatever their position in the deck."""
    digest = hashlib.sha256(f"{page.image.size}{page.image.mode}".encode())
    digest.update(page.image.tobytes())
    return digest.hexdigest()


def _reuse(
    earlier: PageResult, rendered: RenderedPage, timer: PageTimer, mark_review: bool
) -> PageResult:
    """An earlier page's result for an identical raster, with this page's number and notes."""
    return earlier.model_copy(
        update={
            "index": rendered.index,
            "notes": rendered.notes,
            "markdown": page_markdown(earlier.blocks, rendered.notes, mark_review),
            "duplicate_of": earlier.duplicate_of or earlier.index,
            "timings": timer.result(),
        }
    )


async def parse_page(
    ctx: RunContext,
    source: SourceDocument,
    index: int,
    seen: dict[str, asyncio.Future[PageResult | None]] | None = None,
) -> tuple[PageResult, RenderedPage | None]:
    """Render one page and run it through every stage; errors end up in the result.

    With ``seen`` (raster digest -> the result of the first page with those pixels, pending
    while it is read), a page whose pixels equal an earlier page's waits for and reuses that
    result instead of being read again.
    """
    timer = PageTimer()
    file = str(source.path)
    try:
        with timer.stage("render"):
            rendered = await asyncio.to_thread(source.render, index, ctx.options.render.dpi)
            digest = raster_digest(rendered) if seen is not None else ""
    except PagereaderError as exc:
        return PageResult(index=index, width=0, height=0, errors=(exc.to_item("render"),)), None
    except Exception as exc:
        return PageResult(
            index=index, width=0, height=0, errors=(_internal_error(file, index, "render", exc),)
        ), None
    first: asyncio.Future[PageResult | None] | None = None
    if seen is not None:
        if digest in seen:
            earlier = await seen[digest]
            if earlier is not None:
                mark = ctx.options.verify.mark_review
                return _reuse(earlier, rendered, timer, mark), rendered
        else:
            first = seen[digest] = asyncio.get_running_loop().create_future()
    try:
        result, final = await _run_stages(ctx, rendered, timer)
    except BaseException:
        if first is not None and not first.done():
            first.set_result(None)
        raise
    if first is not None:
        first.set_result(None if result.errors else result)
    return result, final


async def _run_stages(
    ctx: RunContext, rendered: RenderedPage, timer: PageTimer
) -> tuple[PageResult, RenderedPage]:
    """Every stage after rendering, in order; the first failure ends the page."""
    file, index = rendered.file, rendered.index
    state = PageState(rendered=rendered)
    for name, stage in STAGES:
        try:
            with timer.stage(name):
                state = await stage(ctx, state)
        except PagereaderError as exc:
            item = exc.to_item(name)
            state.errors.append(item.model_copy(update={"file": file, "page": index}))
            break
        except Exception as exc:
            state.errors.append(_internal_error(file, index, name, exc))
            break
    return page_result(state, timer.result()), state.rendered


def _status(pages: list[PageResult], errors: list[ErrorItem]) -> Status:
    if not pages or all(p.errors and not p.blocks for p in pages):
        return "failed"
    if errors or any(p.errors for p in pages):
        return "partial"
    return "ok"


def _select_pages(options: Options, count: int, file: str) -> tuple[list[int], list[ErrorItem]]:
    if not options.pages:
        return list(range(1, count + 1)), []
    wanted = sorted(set(options.pages))
    missing = [p for p in wanted if not 1 <= p <= count]
    errors = [
        ErrorItem(
            file=file,
            page=p,
            stage="ingest",
            message=f"page {p} does not exist",
            hint=f"the document has {count} pages",
        )
        for p in missing
    ]
    return [p for p in wanted if 1 <= p <= count], errors


async def aparse(
    path: str | Path,
    options: Options | None = None,
    *,
    ctx: RunContext | None = None,
    on_page: PageCallback | None = None,
    cache: PageCache | None = None,
) -> DocumentResult:
    """Parse one document. Never raises for bad input: the result carries the errors."""
    path = Path(path)
    ctx = ctx or make_context(options)
    options = ctx.options
    file = str(path)
    started = time.perf_counter()
    try:
        source = await asyncio.to_thread(
            open_source,
            path,
            password=options.password,
            max_image_pixels=options.render.max_image_pixels,
        )
    except PagereaderError as exc:
        ctx.emit("document_failed", file=file, error=exc.to_item().line())
        return DocumentResult(
            schema_version=SCHEMA_VERSION, source=file, status="failed", errors=(exc.to_item(),)
        )
    try:
        indices, errors = _select_pages(options, source.page_count, file)
        ctx.emit("document_start", file=file, pages=len(indices))
        keys = (file_digest(path), options_digest(options)) if cache else None
        limit = asyncio.Semaphore(options.budget.pages_in_flight)
        seen: dict[str, asyncio.Future[PageResult | None]] = {}

        async def one(index: int) -> PageResult:
            async with limit:
                cached = cache.get(*keys, index) if cache and keys else None
                if cached is not None:
                    result, rendered = cached, None
                else:
                    result, rendered = await parse_page(ctx, source, index, seen)
                    if cache and keys:
                        cache.put(*keys, result)
            if on_page is not None:
                on_page(result, rendered)
            ctx.emit("page_done", file=file, page=index, cached=cached is not None)
            return result

        pages = list(await asyncio.gather(*(one(i) for i in indices)))
    finally:
        source.close()
    result = document_result(file, source.page_count, pages, errors, options)
    seconds = time.perf_counter() - started
    ctx.emit("document_done", file=file, status=result.status, seconds=seconds)
    return result


def document_result(
    file: str, page_count: int, pages: list[PageResult], errors: list[ErrorItem], options: Options
) -> DocumentResult:
    """A document from its pages in page order; also merges the page ranges of one document
    that were read apart."""
    return DocumentResult(
        schema_version=SCHEMA_VERSION,
        source=file,
        status=_status(pages, errors),
        page_count=page_count,
        pages=tuple(pages),
        errors=tuple(errors) + tuple(e for p in pages for e in p.errors),
        markdown=document_markdown(pages, options.output.markdown_page_breaks),
    )


def parse(path: str | Path, options: Options | None = None) -> DocumentResult:
    """Synchronous wrapper over :func:`aparse`."""
    return asyncio.run(aparse(path, options))


async def aparse_to_folder(
    path: str | Path,
    folder: Path,
    ctx: RunContext,
    cache: PageCache | None = None,
) -> DocumentResult:
    """Parse one document and write its outputs into ``folder``."""
    writer = DocumentWriter(folder, overlays=ctx.options.output.overlays)

    def on_page(result: PageResult, rendered: RenderedPage | None) -> None:
        if rendered is not None:
            writer.write_overlay(result, rendered.image, rendered.scale)

    started = time.perf_counter()
    result = await aparse(path, ctx=ctx, on_page=on_page, cache=cache)
    writer.finish(result, ctx.options.budget.target_page_s, time.perf_counter() - started)
    return result
