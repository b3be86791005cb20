"""The service's workers: claim queued jobs, parse them, record the outcome, cancel on request.

Workers are asyncio tasks of the server's own loop; they share one Runtime, so models load
once, and at most ``workers`` documents are parsed at a time. Each job runs in its own task so
that DELETE can cancel it; a job interrupted by a stop (or a crash) stays ``running`` in the
store and is queued again at the next start.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import shutil
from collections.abc import Callable
from pathlib import Path

from pagereader.atomic import sweep_staged
from pagereader.config.options import Options
from pagereader.engine_check import EngineCheck
from pagereader.errors import PagereaderError, PasswordRequiredError
from pagereader.pipeline import aparse_to_folder, make_context
from pagereader.reuse.cache import PageCache
from pagereader.runtime import ProgressEvent
from pagereader.service.data_lock import DataDirLock
from pagereader.service.jobs.store import FINISHED, Job, JobStore
from pagereader.service.logs import job_context
from pagereader.service.policy import ServiceLimits
from pagereader.service.prometheus import ServiceMetrics
from pagereader.service.reviews.corrections import ReviewStore, load_original, regenerate
from pagereader.service.reviews.crops import CleanPages
from pagereader.types import DocumentResult, ErrorItem

logger = logging.getLogger(__name__)

PASSWORD_HINT = (
    "the service takes no passwords: decrypt the PDF first (e.g. with qpdf --decrypt) and "
    "upload the result"
)


class Service:
    """The store, the cache, the shared runtime and the workers of one app."""

    def __init__(self, data_dir: Path, options: Options, workers: int, limits: ServiceLimits):
        self.data_dir = data_dir
        # the page cap is checked when a document is opened, like every other input limit
        options = options.model_copy(
            update={"limits": options.limits.model_copy(update={"max_pages": limits.max_pages})}
        )
        self.lock = DataDirLock(data_dir)
        self.lock.acquire()  # at once: a second server on the folder is refused before it starts
        self.options = options
        self.limits = limits
        self.workers = max(1, workers)
        self.uploads = data_dir / "uploads"
        self.outputs = data_dir / "jobs"
        self.store = JobStore(data_dir / "jobs.sqlite")
        self.cache = PageCache(data_dir / "cache.sqlite")
        self.reviews = ReviewStore(data_dir / "reviews.sqlite")
        self.metrics = ServiceMetrics(self.store.counts, self.review_queue_length)
        self._flagged: dict[str, frozenset[tuple[int, int]]] = {}
        self.review_lock = asyncio.Lock()  # one regeneration of a job's outputs at a time
        self.ctx = make_context(options)
        self.clean_pages = CleanPages(options)
        self.engines = EngineCheck(self.ctx)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._running: dict[str, asyncio.Task[None]] = {}
        self._cancelled: set[str] = set()
        self._stopping = False

    def _sweep(self) -> None:
        """Remove the folders of uploads cut off by a crash (and of half-deleted jobs): a folder
        whose job is not in the store belongs to nobody. Outputs a crash cut off while being
        written are removed first, a job's previous outputs put back if they were aside."""
        sweep_staged(self.outputs)
        known = {job.id for job in self.store.list_jobs()}
        for root in (self.uploads, self.outputs):
            stray = [p for p in root.iterdir() if p.name not in known] if root.is_dir() else []
            for folder in stray:
                shutil.rmtree(folder, ignore_errors=True)
            if stray:
                logger.warning("removed %d folder(s) without a job from %s", len(stray), root)

    def upload_path(self, job: Job) -> Path:
        return self.uploads / job.id / job.file_name

    def _progress(self, job_id: str) -> Callable[[ProgressEvent], None]:
        """Pipeline progress of one job's document -> its row."""

        def on_event(event: ProgressEvent) -> None:
            if event["event"] == "document_start":
                self.store.set_total(job_id, int(event["pages"]))
            elif event["event"] == "page_done":
                self.store.page_done(job_id)

        return on_event

    def start(self) -> None:
        """The start-up work (in the app's lifespan, with the data folder locked): jobs a dead
        server left running go back in the queue, stray folders go, the workers start."""
        requeued = self.store.requeue_running()
        if requeued:
            logger.warning("re-queued %d interrupted job(s)", requeued)
        self._sweep()
        self._tasks = [asyncio.create_task(self._work()) for _ in range(self.workers)]
        self._tasks.append(asyncio.create_task(self._check_engines()))
        self._wake.set()

    async def _check_engines(self) -> None:
        """The served engines' start-up check, off the request path: the service answers at
        once, and the first job waits for the check if it is still running."""
        try:
            problems = await self.engines.refresh()
        except Exception:
            logger.exception("the served engines' start-up check failed")
            return
        for name, problem in problems.items():
            logger.warning("engine %s failed its start-up check: %s", name, problem.message)

    async def stop(self, grace_s: float = 0.0) -> None:
        """Stop: take no new job, give running ones ``grace_s`` to finish, then cancel the
        rest and put them back in the queue (the next start parses them again), and close."""
        self._stopping = True
        running = dict(self._running)
        if running and grace_s > 0:
            logger.info("waiting up to %.0f s for %d running job(s)", grace_s, len(running))
            await asyncio.wait(running.values(), timeout=grace_s)
        for job_id, task in running.items():
            if not task.done():
                task.cancel()
                self._cancelled.add(job_id)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, *running.values(), return_exceptions=True)
        for job_id in running:
            job = self.store.get(job_id)
            if job is not None and job.status == "running":
                self.store.requeue(job_id)
                logger.warning("job %s: stopped before it finished; queued again", job_id)
        await asyncio.gather(
            *(engine.aclose() for engine in self.ctx.engines.values()), return_exceptions=True
        )
        self.cache.close()
        self.reviews.close()
        self.store.close()
        self.clean_pages.close()
        self.lock.release()

    def notify(self) -> None:
        self._wake.set()

    async def _work(self) -> None:
        while not self._stopping:
            job = self.store.claim()
            if job is None:
                self._wake.clear()
                job = self.store.claim()
            if job is None:
                await self._wake.wait()
                continue
            task = asyncio.create_task(self._run(job))
            self._running[job.id] = task
            try:
                await task
            except asyncio.CancelledError:
                if job.id not in self._cancelled:
                    raise
                logger.info("job %s: cancelled", job.id)
            finally:
                self._running.pop(job.id, None)
                self._cancelled.discard(job.id)

    async def _run(self, job: Job) -> None:
        with job_context(job.id):
            await self._parse(job)

    async def _parse(self, job: Job) -> None:
        folder = Path(job.output)
        logger.info("job %s: parsing %s", job.id, job.file_name)
        try:  # a folder an earlier run of the job left stays until this one replaces it
            await self.engines.refresh()
            ctx = dataclasses.replace(self.ctx, on_event=self._progress(job.id))
            result = await aparse_to_folder(self.upload_path(job), folder, ctx, self.cache)
        except PagereaderError as exc:
            self.store.finish(job.id, "failed", [self._line(job, exc.to_item())])
            logger.info("job %s: failed", job.id)
        except Exception as exc:
            logger.exception("job %s failed", job.id)
            self.store.finish(
                job.id, "failed", [f"{job.file_name}: internal error: {type(exc).__name__}: {exc}"]
            )
        else:
            self._finish(job, result)

    def _finish(self, job: Job, result: DocumentResult) -> None:
        self.metrics.observe(result)
        self._flagged[job.id] = flagged_blocks(result)
        decided = self.reviews.current(job.id)
        if decided:
            regenerate(Path(job.output), decided, self.options)
            logger.info("job %s: %d decision(s) of reviewers applied again", job.id, len(decided))
        lines = [self._line(job, item) for item in result.errors]
        self.store.finish(job.id, result.status, lines)
        logger.info("job %s: %s, %d page(s)", job.id, result.status, len(result.pages))

    def flagged(self, job: Job) -> frozenset[tuple[int, int]]:
        """(page, block) of every block the verifier flagged in a finished job."""
        if job.id not in self._flagged:
            result = load_original(Path(job.output)) if job.status in FINISHED else None
            if result is None:
                return frozenset()
            self._flagged[job.id] = flagged_blocks(result)
        return self._flagged[job.id]

    def review_queue_length(self) -> int:
        """Flagged blocks of finished jobs that no reviewer has decided yet."""
        total = 0
        for job in self.store.list_jobs():
            flagged = self.flagged(job)
            if flagged:
                total += len(flagged - self.reviews.current(job.id).keys())
        return total

    def _line(self, job: Job, item: ErrorItem) -> str:
        """An error line naming the uploaded file, not the server's copy of it, with hints that
        make sense for an API caller."""
        update: dict[str, str] = {}
        if item.file in (str(self.upload_path(job)), job.file_name):
            update["file"] = job.file_name
        if item.hint == PasswordRequiredError.default_hint:
            update["hint"] = PASSWORD_HINT
        return item.model_copy(update=update).line() if update else item.line()

    async def delete(self, job_id: str) -> tuple[Job | None, bool]:
        """Delete a job and its files, cancelling it first when it runs; returns the job (None
        when unknown) and whether it was cancelled."""
        job = self.store.get(job_id)
        if job is None:
            return None, False
        task = self._running.get(job_id)
        cancelled = task is not None and job.status not in FINISHED
        if task is not None:
            self._cancelled.add(job_id)
            task.cancel()
            await asyncio.wait([task], timeout=30)
        self.store.delete(job_id)
        self._flagged.pop(job_id, None)
        for folder in (Path(job.output), self.uploads / job_id):
            await asyncio.to_thread(shutil.rmtree, folder, True)
        return job, cancelled


def flagged_blocks(result: DocumentResult) -> frozenset[tuple[int, int]]:
    """(page, block) of the blocks the verifier kept but flagged for a person."""
    return frozenset(
        (page.index, block.block.order)
        for page in result.pages
        for block in page.blocks
        if block.verdict.outcome == "review"
    )
