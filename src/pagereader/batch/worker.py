"""The parser that lives in a Ray actor: it builds the engines once and then reads documents,
page ranges of long documents, and merges ranges, writing through the exactly-once writer.

Nothing here imports Ray: the pool wraps this class in an actor, and tests may call it
directly. The pipeline is used as ``parse`` uses it, so a document's files are the same.
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from pagereader.batch.inputs import InputItem
from pagereader.batch.manifest import Outcome
from pagereader.batch.page_sharing import LabelledPages, Sharing, WorkerPages
from pagereader.batch.storage import Destination
from pagereader.config.file import override
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.document.finish import PagesRead, finish_document, merge_reads
from pagereader.engine_check import EngineCheck
from pagereader.errors import InputError, PagereaderError
from pagereader.heap import bound_heap
from pagereader.pipeline import (
    aparse_to_folder,
    aread_pages,
    document_writer,
    load_embedded_models,
    make_context,
)
from pagereader.reuse.page_store import Row
from pagereader.runtime import Runtime
from pagereader.sources import InflateLimits, open_source
from pagereader.sources.base import RenderedPage
from pagereader.types import DocumentResult, PageResult


@dataclass(frozen=True)
class Split:
    """A document too long for one task: the driver sends its page ranges out."""

    page_count: int


@dataclass(frozen=True)
class RangeResult:
    """Pages ``first``..``last`` of a document as read, not finished (document/finish.py),
    with their overlays (PNG bytes by page)."""

    read: PagesRead
    started: float
    ended: float
    overlays: dict[int, bytes] = field(default_factory=dict)


def actor_options(options: Options, cpus: float) -> Options:
    """An actor keeps to its CPUs: the models' threads, and (with no VLM endpoint, whose
    latency more pages in flight would hide) as many pages at a time as it has CPUs."""
    threads = max(1, int(cpus))
    changes: dict[tuple[str, ...], object] = {("ocr", "threads"): threads}
    if not any(isinstance(o, OpenAIEngineOptions) for o in options.engines.values()):
        changes[("budget", "pages_in_flight")] = threads
    return override(options, changes, source="batch --cpus-per-worker")


def _display_name(item: InputItem) -> str | None:
    """A remote input goes by its URI in results and errors, not by its download's path."""
    return item.uri if item.is_remote else None


def page_ranges(page_count: int, per_task: int) -> list[tuple[int, int]]:
    """Consecutive 1-based inclusive ranges of at most ``per_task`` pages."""
    return [
        (first, min(first + per_task - 1, page_count))
        for first in range(1, page_count + 1, per_task)
    ]


def _outcome(item: InputItem, name: str, result: DocumentResult, seconds: float) -> Outcome:
    classes = tuple(
        (
            page.decision.page_class if page.decision else "none",
            page.timings.total if page.timings else 0.0,
        )
        for page in result.pages
    )
    error = result.errors[0].line() if result.errors and result.status == "failed" else ""
    return Outcome(
        uri=item.uri,
        name=name,
        status=result.status,
        pages=len(result.pages),
        seconds=seconds,
        error=error,
        page_classes=classes,
        cache_hits=sum(
            1
            for page in result.pages
            if page.duplicate_of is not None and page.duplicate_of_source is None
        ),
        reused=sum(1 for page in result.pages if page.duplicate_of_source is not None),
    )


class DocumentWorker:
    """One parser process: options and engines built once, one event loop for every call;
    with page sharing on, the cross-document page store (see page_sharing.py) opened once."""

    def __init__(
        self, options: Options, destination: Destination, sharing: Sharing = "off"
    ) -> None:
        bound_heap()  # a Ray actor is a process of its own, not started by the CLI
        self.options = options  # pickled by Ray with its secrets; a JSON dump would mask them
        cv2.setNumThreads(self.options.ocr.threads)  # OpenCV's pool, like the models'
        load_embedded_models(self.options)  # at actor start, not inside the first document
        self.destination = destination
        self.ctx = make_context(self.options)
        self.page_store = WorkerPages.open(sharing, destination)
        self._loop = asyncio.new_event_loop()
        self.engines = EngineCheck(self.ctx)
        self._loop.run_until_complete(self.engines.refresh())  # at actor start, once

    def _context(self, item: InputItem, options: Options | None = None) -> Runtime:
        """The runtime for one document: its pages are named by its input in the store; a
        served engine that failed its check is checked again first (engine_check.py)."""
        self._loop.run_until_complete(self.engines.refresh())
        lookup = None
        if self.page_store is not None:
            label = item.uri if item.is_remote else str(Path(item.uri))
            lookup = LabelledPages(self.page_store.store, label)
        return dataclasses.replace(self.ctx, options=options or self.options, shared_pages=lookup)

    def finish_pages(self) -> list[Row]:
        """Close the page store at the end of a run: the new rows of a private store, to be
        merged into OUT's (none for the shared one, which holds them already)."""
        if self.page_store is None:
            return []
        rows = self.page_store.finish()
        self.page_store = None
        return rows

    @contextmanager
    def _local(self, item: InputItem) -> Iterator[Path]:
        """The document as a local file: itself, or a download into a private folder (with
        the destination's storage options: one object store for inputs and outputs)."""
        if not item.is_remote:
            yield Path(item.uri)
            return
        import fsspec

        folder = Path(tempfile.mkdtemp(prefix="pagereader-in-"))
        try:
            local = folder / Path(item.uri).name
            try:
                remote = fsspec.open(item.uri, "rb", **self.destination.storage_options)
                with remote as src, local.open("wb") as dst:
                    shutil.copyfileobj(src, dst)
            except OSError as exc:
                raise InputError(
                    f"could not download the document: {exc}",
                    file=item.uri,
                    hint="check the URI and the object store's credentials and endpoint",
                ) from exc
            yield local
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _page_count(self, path: Path) -> int:
        """Pages of a PDF, or 0 when it cannot be opened (the parse reports why)."""
        try:
            source = open_source(
                path,
                password=self.options.pdf_password(),
                max_image_pixels=self.options.render.max_image_pixels,
                inflate_limits=InflateLimits.from_mb(
                    self.options.limits.max_inflated_mb,
                    self.options.limits.max_document_inflated_mb,
                ),
            )
        except PagereaderError:
            return 0
        try:
            return source.page_count
        finally:
            source.close()

    def parse_document(self, item: InputItem, name: str, max_pages: int) -> Outcome | Split:
        """Parse and commit a whole document, or answer Split when it is a PDF over
        ``max_pages`` pages (other types are converted once and read in one task)."""
        started = time.perf_counter()
        with self._local(item) as path:
            if max_pages and item.suffix == ".pdf" and not self.options.pages:
                count = self._page_count(path)
                if count > max_pages:
                    return Split(count)
            folder = self.destination.folder(name)
            try:
                ctx = self._context(item)
                result = self._loop.run_until_complete(
                    aparse_to_folder(path, folder, ctx, name=_display_name(item))
                )
                self.destination.commit(name, folder)
            except BaseException:
                self.destination.discard(folder)
                raise
        return _outcome(item, name, result, time.perf_counter() - started)

    def parse_range(self, item: InputItem, first: int, last: int) -> RangeResult:
        """Pages ``first``..``last`` of a document, with overlays drawn here."""
        started = time.time()
        ctx = self._context(
            item, self.options.model_copy(update={"pages": list(range(first, last + 1))})
        )
        folder = Path(tempfile.mkdtemp(prefix="pagereader-range-"))
        try:
            with document_writer(folder / "range", self.options) as writer:  # never finished

                def on_page(page: PageResult, rendered: RenderedPage | None) -> None:
                    if rendered is not None:
                        writer.write_overlay(page, rendered.image, rendered.scale)

                with self._local(item) as path:
                    read = self._loop.run_until_complete(
                        aread_pages(path, ctx, on_page=on_page, name=_display_name(item))
                    )
                overlays = {
                    page.index: writer.overlay_path(page.index).read_bytes()
                    for page in read.pages
                    if writer.overlay_path(page.index).is_file()
                }
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return RangeResult(read=read, started=started, ended=time.time(), overlays=overlays)

    def merge(self, item: InputItem, name: str, *ranges: RangeResult) -> Outcome:
        """One document from its ranges, in page order, written and committed like a whole one."""
        read = merge_reads([part.read for part in ranges])
        file = _display_name(item) or item.uri
        result = finish_document(dataclasses.replace(read, file=file), self.options)
        wall = max(part.ended for part in ranges) - min(part.started for part in ranges)
        folder = self.destination.folder(name)
        try:
            with document_writer(folder, self.options) as writer:
                for part in ranges:
                    for index, data in part.overlays.items():
                        path = writer.overlay_path(index)
                        path.parent.mkdir(parents=True, exist_ok=True)
                        path.write_bytes(data)
                        writer.written.add(index)  # drawn by the range's worker
                result = writer.finish(result, self.options.budget.target_page_s, wall)
            self.destination.commit(name, folder)
        except BaseException:
            self.destination.discard(folder)
            raise
        return _outcome(item, name, result, wall)
