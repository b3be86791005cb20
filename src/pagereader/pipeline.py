"""The async orchestrator: open a document, run each page through the stages, collect results.

Pages overlap (bounded by ``budget.pages_in_flight``); blocks of a page run concurrently in the
recognize stage. A failing page becomes an ErrorItem and the document goes on (status
``partial``); a file that cannot be opened gives a ``failed`` result, never an exception.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pagereader import aio
from pagereader.config.options import Options
from pagereader.document.finish import PagesRead, finish_document
from pagereader.document.result import select_pages
from pagereader.document.writer import DocumentWriter
from pagereader.engines import registry
from pagereader.errors import PagereaderError, TooManyPagesError
from pagereader.layout.detector import load_model as load_layout_model
from pagereader.render.overlay import overlay_scale
from pagereader.reuse.cache import PageCache, file_digest, options_digest
from pagereader.reuse.digest import layer_digest, raster_digest
from pagereader.runtime import Capabilities, PageLookup, Runtime, SharedPage
from pagereader.sources import InflateLimits, SourceDocument, open_source
from pagereader.sources.base import RenderedPage
from pagereader.stages.assemble import page_result, run_assemble
from pagereader.stages.classify import run_classify
from pagereader.stages.context import run_context
from pagereader.stages.layout import run_layout
from pagereader.stages.page_budget import PageBudget, text_read_bound
from pagereader.stages.page_read import run_page_read
from pagereader.stages.pictures import run_pictures
from pagereader.stages.recognize import run_recognize
from pagereader.stages.state import PageState
from pagereader.stages.verify import run_verify
from pagereader.text.unicode import ENGINE_TEXT, Result, clean_result
from pagereader.timing import PageTimer
from pagereader.types import DocumentResult, ErrorItem, PageResult

logger = logging.getLogger(__name__)

PageCallback = Callable[[PageResult, RenderedPage | None], None]
Stage = Callable[[Runtime, PageState], Awaitable[PageState]]
STAGES: tuple[tuple[str, Stage], ...] = (
    ("classify", run_classify),
    ("page_read", run_page_read),
    ("layout", run_layout),
    ("recognize", run_recognize),
    ("verify", run_verify),
    ("pictures", run_pictures),
    ("context", run_context),
    ("assemble", run_assemble),
)
STAGE_NAMES = ("render", *(name for name, _ in STAGES))
"""Every stage a page goes through, in order: the stages timings.json lists for each page."""


def make_context(options: Options | None = None, **kwargs: object) -> Runtime:
    """A Runtime with the engines the options name."""
    options = options or Options()
    capabilities: Capabilities = registry
    engines = registry.build_engines(options)
    return Runtime(options=options, capabilities=capabilities, engines=engines, **kwargs)  # type: ignore[arg-type]


def load_embedded_models(options: Options) -> None:
    """Load the embedded OCR and layout models now: a long-lived worker pays their seconds
    when it starts, not inside its first document."""
    registry.line_detector(options.ocr).load()
    load_layout_model()


def _internal_error(file: str, page: int | None, stage: str, exc: BaseException) -> ErrorItem:
    logger.debug("unexpected error in %s page %s", file, page, exc_info=exc)
    return ErrorItem(
        file=file,
        page=page,
        stage=stage,
        message=f"internal error: {type(exc).__name__}: {exc}",
        hint="rerun with --debug for the traceback and report it",
    )


def _reuse(
    earlier: PageResult,
    rendered: RenderedPage,
    timer: PageTimer,
    shared: SharedPage | None = None,
) -> PageResult:
    """An earlier page's result for an identical raster, with this page's number and notes;
    ``shared`` names the page of another document (or run) it was read from."""
    update: dict[str, object] = {
        "index": rendered.index,
        "notes": rendered.notes,
        "duplicate_of": earlier.duplicate_of or earlier.index,
        "timings": timer.result(),
        "slide": rendered.native.info if rendered.native is not None else None,
        "overlay_scale": overlay_scale(rendered.image.width, rendered.scale),
    }
    if shared is not None:
        update |= {"duplicate_of": shared.page, "duplicate_of_source": shared.source}
    return earlier.model_copy(update=update)


async def _shared(
    lookup: PageLookup, options: Options, file: str, rendered: RenderedPage, digest: str
) -> tuple[SharedPage | None, tuple[str, str, str]]:
    """The identical page another document (or an earlier run) read, and the lookup's key;
    a lookup that fails is a miss (it only saves work, it never fails a page)."""
    key = (digest, layer_digest(rendered), options_digest(options))
    try:
        found = await asyncio.to_thread(lookup.find, *key, file, rendered.index)
    except Exception as exc:
        logger.warning("%s page %d: page lookup failed: %s", file, rendered.index, exc)
        found = None
    return found, key


async def _offer(
    lookup: PageLookup, key: tuple[str, str, str], file: str, result: PageResult
) -> None:
    """Offer a freshly read page to later documents; a failure is only logged."""
    try:
        await asyncio.to_thread(lookup.keep, *key, file, result)
    except Exception as exc:
        logger.warning("%s page %d: not kept for reuse: %s", file, result.index, exc)


async def parse_page(
    ctx: Runtime,
    source: SourceDocument,
    index: int,
    seen: dict[str, asyncio.Future[PageResult | None]] | None = None,
) -> tuple[PageResult, RenderedPage | None]:
    """Render one page and run it through every stage; errors end up in the result.

    With ``seen`` (raster digest -> the result of the first page with those pixels, pending
    while it is read), a page whose pixels equal an earlier page's waits for and reuses that
    result instead of being read again. With ``ctx.shared_pages``, a page identical to one read in
    another document or an earlier run (same pixels, text layer and options) reuses that one.
    """
    timer = PageTimer(STAGE_NAMES)
    file = str(source.path)
    lookup = ctx.shared_pages
    try:
        with timer.stage("render"):
            rendered = await asyncio.to_thread(source.render, index, ctx.options.render.dpi)
            wants_digest = seen is not None or lookup is not None
            digest = raster_digest(rendered) if wants_digest else ""
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
                return _reuse(earlier, rendered, timer), rendered
        else:
            first = seen[digest] = asyncio.get_running_loop().create_future()
    try:
        key: tuple[str, str, str] | None = None
        if lookup is not None:
            found, key = await _shared(lookup, ctx.options, file, rendered, digest)
            if found is not None:
                result = _reuse(found.result, rendered, timer, found)
                if first is not None:
                    first.set_result(result)
                return result, rendered
        result, final = await _run_stages(ctx, rendered, timer)
    except BaseException:
        if first is not None and not first.done():
            first.set_result(None)
        raise
    if first is not None:
        first.set_result(None if result.errors else result)
    if lookup is not None and key is not None and not result.errors:
        await _offer(lookup, key, file, result)
    return result, final


async def _run_stages(
    ctx: Runtime, rendered: RenderedPage, timer: PageTimer
) -> tuple[PageResult, RenderedPage]:
    """Every stage after rendering, in order; the first failure ends the page. A page out of
    ``budget.max_page_s`` or cancelled stops at its next block (see stages/page_budget.py)."""
    file, index = rendered.file, rendered.index
    state = PageState(rendered=rendered, budget=PageBudget.start(ctx.options.budget))
    for name, stage in STAGES:
        try:
            with timer.stage(name):
                state = await state.budget.bound(name, stage(ctx, state))
        except PagereaderError as exc:
            item = exc.to_item(name)
            state.errors.append(item.model_copy(update={"file": file, "page": index}))
            break
        except Exception as exc:
            state.errors.append(_internal_error(file, index, name, exc))
            break
    result = page_result(state, timer.result(), ctx.options.output.char_boxes)
    return result, state.rendered


def _clean(result: Result, where: str, origin: str = ENGINE_TEXT) -> Result:
    """``result`` with text every output can hold and show (unicode.py); what was changed is
    logged and in its warnings."""
    cleaned, notes = clean_result(result, origin)
    for note in notes:
        logger.warning("%s: %s", where, note)
    return cleaned


async def _raster(ctx: Runtime, source: SourceDocument, index: int) -> RenderedPage | None:
    """A cached page's raster, for its overlay; None (logged) if it cannot be rendered."""
    try:
        return await asyncio.to_thread(source.render, index, ctx.options.render.dpi)
    except Exception as exc:
        logger.warning("%s page %d: no raster for the overlay: %s", source.path, index, exc)
        return None


async def aparse(
    path: str | Path,
    options: Options | None = None,
    *,
    ctx: Runtime | None = None,
    on_page: PageCallback | None = None,
    cache: PageCache | None = None,
    name: str | None = None,
) -> DocumentResult:
    """Parse one document. Never raises for bad input: the result carries the errors.

    ``name``: what the document is called in the result and its errors when that is not the
    path read (a remote input's URI, not the file it was downloaded to). ``on_page`` runs in a
    worker thread, as the file hashing and the page cache do: nothing here blocks the loop that
    a service answers its requests on."""
    ctx = ctx or make_context(options)
    started = time.perf_counter()
    read = await aread_pages(path, ctx, on_page=on_page, cache=cache, name=name)
    result = finish_document(read, ctx.options)
    if read.page_count == 0 and result.errors:  # not opened: no page was even selected
        ctx.emit("document_failed", file=read.file, error=result.errors[0].line())
    else:
        seconds = time.perf_counter() - started
        ctx.emit("document_done", file=read.file, status=result.status, seconds=seconds)
    return result


async def aread_pages(
    path: str | Path,
    ctx: Runtime,
    *,
    on_page: PageCallback | None = None,
    cache: PageCache | None = None,
    name: str | None = None,
) -> PagesRead:
    """Read the selected pages of one document, not finished (document/finish.py): what a parse and
    each page range of a batch read. A file that cannot be opened, or has too many pages, is
    read as no page and its error."""
    path = Path(path)
    options = ctx.options
    file = name or str(path)
    try:
        source = await asyncio.to_thread(
            open_source,
            path,
            password=options.pdf_password(),
            max_image_pixels=options.render.max_image_pixels,
            inflate_limits=InflateLimits.from_mb(
                options.limits.max_inflated_mb, options.limits.max_document_inflated_mb
            ),
            max_text_chars=text_read_bound(options.classify),
        )
    except PagereaderError as exc:
        return _unread(path, file, exc)
    cap = options.limits.max_pages
    if cap is not None and source.page_count > cap:
        await asyncio.to_thread(source.close)
        too_long = TooManyPagesError(
            f"{source.page_count} pages, over the limit of {cap} pages per document",
            file=file,
        )
        return _unread(path, file, too_long)
    try:
        indices, errors, warning = select_pages(options, source.page_count, file)
        if warning:
            logger.info("%s: %s", file, warning)
            ctx.emit("warning", file=file, message=warning)
        ctx.emit("document_start", file=file, pages=len(indices))
        keys = (
            (await asyncio.to_thread(file_digest, path), options_digest(options)) if cache else None
        )
        limit = asyncio.Semaphore(options.budget.pages_in_flight)
        seen: dict[str, asyncio.Future[PageResult | None]] = {}

        async def one(index: int) -> PageResult:
            async with limit:
                cached = (
                    await asyncio.to_thread(cache.get, *keys, index) if cache and keys else None
                )
                if cached is not None:
                    result = cached
                    wants_raster = on_page is not None and options.output.overlays
                    rendered = await _raster(ctx, source, index) if wants_raster else None
                else:
                    result, rendered = await parse_page(ctx, source, index, seen)
                    result = _clean(result, f"{file} page {index}")
                    if cache and keys:
                        await asyncio.to_thread(cache.put, *keys, result)
            if on_page is not None:  # an overlay's PNG encoding and write: off the loop
                await asyncio.to_thread(on_page, result, rendered)
            ctx.emit("page_done", file=file, page=index, cached=cached is not None)
            return result

        pages = tuple(await asyncio.gather(*(one(i) for i in indices)))
    finally:
        source.close()
    return PagesRead(
        file=file,
        local=str(path),
        page_count=source.page_count,
        pages=pages,
        errors=tuple(errors),
        warnings=source.warnings + ((warning,) if warning else ()),
        deck=getattr(source, "deck", None),
        engine_problems=dict(ctx.engine_problems),
    )


def _unread(path: Path, file: str, exc: PagereaderError) -> PagesRead:
    """A document that could not be opened, or not read at all: its error, no page."""
    return PagesRead(file=file, local=str(path), page_count=0, errors=(exc.to_item(),))


def parse(path: str | Path, options: Options | None = None) -> DocumentResult:
    """Synchronous wrapper over :func:`aparse`.

    Called where an event loop already runs (a notebook, an async web handler), it parses on
    a worker thread with a loop of its own and blocks the caller until done; async code
    should ``await pagereader.aparse(...)`` instead.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return aio.run(aparse(path, options))
    logger.debug("parse() inside a running event loop: parsing on a worker thread")
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="pagereader-parse") as pool:
        return pool.submit(lambda: aio.run(aparse(path, options))).result()


def document_writer(folder: Path, options: Options) -> DocumentWriter:
    """The writer of one document's folder, chunks.jsonl included (cut as ``options.output``
    says)."""
    return DocumentWriter(folder, options)


async def aparse_to_folder(
    path: str | Path,
    folder: Path,
    ctx: Runtime,
    cache: PageCache | None = None,
    name: str | None = None,
) -> DocumentResult:
    """Parse one document and write its outputs into ``folder``: every finished page gets
    its overlay, also one served from the cache. Returns the document as its document.json
    records it (an output not written is an error there: ``partial``); raises OutputError
    when the folder or document.json cannot be written. The folder appears whole when the
    document is done; until then, and when anything raises, it stays as an earlier run left
    it (document/writer.py). ``name``: as for :func:`aparse`."""
    with document_writer(folder, ctx.options) as writer:

        def on_page(result: PageResult, rendered: RenderedPage | None) -> None:
            if rendered is not None:
                writer.write_overlay(result, rendered.image, rendered.scale)

        started = time.perf_counter()
        result = await aparse(path, ctx=ctx, on_page=on_page, cache=cache, name=name)
        elapsed = time.perf_counter() - started
        budget = ctx.options.budget.target_page_s
        return await asyncio.to_thread(writer.finish, result, budget, elapsed)
