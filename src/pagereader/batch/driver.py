"""The batch driver: an actor pool of DocumentWorkers fed from a lazy input stream.

Backpressure: at most ``in_flight_per_worker`` tasks per actor are submitted at a time (page
ranges and merges wait in a queue like inputs), and the next input is read only when one
finishes, so neither the driver's memory nor Ray's object store ever holds the whole corpus.
Long PDFs come back from their first task as ``Split`` and go out again as page ranges; when
every range is done a merge task writes the document.
Actors are restarted by Ray when their process dies and their pending calls retried
(``max_task_retries``); a document whose retries run out is recorded as failed.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import ray

from pagereader.batch.inputs import InputItem, iter_inputs
from pagereader.batch.manifest import Manifest, Outcome, batch_options_digest
from pagereader.batch.page_sharing import Sharing, merge_rows, sharing_mode
from pagereader.batch.progress import BatchStats
from pagereader.batch.storage import BATCH_DIR, Destination
from pagereader.batch.worker import DocumentWorker, Split, actor_options, page_ranges
from pagereader.config.options import Options
from pagereader.errors import PagereaderError

logger = logging.getLogger(__name__)

BatchCallback = Callable[[BatchStats], None]


@dataclass(frozen=True)
class BatchConfig:
    """How a batch is spread over the cluster."""

    workers: int | None = None
    cpus_per_worker: float = 1.0
    max_pages_per_task: int = 50
    in_flight_per_worker: int = 2
    max_retries: int = 3
    resume: bool = True
    reuse_pages: bool = True


@dataclass
class _Job:
    kind: str
    item: InputItem
    name: str
    actor: int
    ranges: list[Any] = field(default_factory=list)


def _one_line(exc: BaseException) -> str:
    """A one-line message for an error that came back from Ray."""
    cause = getattr(exc, "cause", None) or exc
    if isinstance(cause, PagereaderError):
        return cause.to_item().line()
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[-1] if text else ''}".strip()


def cluster_workers(cpus_per_worker: float) -> int:
    """As many actors as the cluster's CPUs hold (an actor that does not fit would never
    start, and the tasks sent to it would wait forever)."""
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    cpus = float(resources.get("CPU", 1))
    return max(1, int(cpus // cpus_per_worker))


class BatchRun:
    """One batch over a Ray cluster that is already initialised."""

    def __init__(
        self,
        out: str,
        options: Options,
        config: BatchConfig,
        manifest: Manifest,
        storage_options: dict[str, object] | None = None,
        on_progress: BatchCallback | None = None,
    ) -> None:
        self.options = options
        self.config = config
        self.manifest = manifest
        self.destination = Destination(out, storage_options)
        self.digest = batch_options_digest(options)
        self.run_id = uuid.uuid4().hex[:12]
        self.stats = BatchStats()
        self.on_progress = on_progress or (lambda _: None)
        self._pending: dict[Any, _Job] = {}
        self._load: list[int] = []
        self._actors: list[Any] = []
        self._ranges_left: dict[str, int] = {}
        self._parents: dict[str, _Job] = {}
        self._waiting: deque[tuple[Any, ...]] = deque()
        self.sharing: Sharing = "off"

    def _size_pool(self) -> None:
        """How many actors: asked for, or as many as fit; they start at the first task, so
        a run that finds everything complete loads no models."""
        fits = cluster_workers(self.config.cpus_per_worker)
        count = min(self.config.workers or fits, fits)
        if self.config.workers and count < self.config.workers:
            logger.warning(
                "%d workers asked for, the cluster's CPUs hold %d at %s CPUs each: using %d",
                self.config.workers,
                fits,
                self.config.cpus_per_worker,
                count,
            )
        self._load = [0] * count

    def _start_actors(self) -> None:
        actor_class = ray.remote(DocumentWorker).options(
            num_cpus=self.config.cpus_per_worker,
            max_restarts=-1,
            max_task_retries=self.config.max_retries,
        )
        options = actor_options(self.options, self.config.cpus_per_worker)
        found: list[dict[str, Any]] = ray.nodes()  # type: ignore[no-untyped-call]
        nodes = sum(1 for node in found if node.get("Alive"))
        self.sharing = sharing_mode(self.destination, self.config.reuse_pages, nodes)
        self._actors = [
            actor_class.remote(options, self.destination, self.sharing)
            for _ in range(len(self._load))
        ]

    def _submit(self, kind: str, item: InputItem, name: str, *args: Any) -> None:
        if not self._actors:
            self._start_actors()
        actor = min(range(len(self._actors)), key=self._load.__getitem__)
        method = getattr(self._actors[actor], kind)
        ref = method.remote(item, *args) if kind != "merge" else method.remote(item, name, *args)
        self._pending[ref] = _Job(kind, item, name, actor)
        self._load[actor] += 1
        self.stats.tasks += 1

    def _fill(self, items: Any) -> bool:
        """Submit queued ranges and merges, then new inputs, until the pool is full; False
        once the inputs are exhausted."""
        limit = len(self._load) * self.config.in_flight_per_worker
        while len(self._pending) < limit and self._waiting:
            self._submit(*self._waiting.popleft())
        while len(self._pending) < limit:
            item = next(items, None)
            if item is None:
                return False
            if self.config.resume and self.manifest.complete(item.uri, self.digest):
                self.stats.skipped += 1
                continue
            name = self.manifest.name_for(item.uri, item.stem, item.suffix)
            self._submit("parse_document", item, name, name, self.config.max_pages_per_task)
        return True

    def _finish(self, outcome: Outcome) -> None:
        self.manifest.record(outcome, self.digest, self.run_id)
        self.stats.add(outcome)
        if outcome.status == "failed":
            logger.info("failed: %s", outcome.error or outcome.uri)  # listed at the end

    def _collect(self, ref: Any, job: _Job) -> None:
        """A finished task. Range results stay in the object store (the merge task reads
        them there); a failed range surfaces as the merge's error."""
        if job.kind == "parse_range":
            self._range_done(job, ref)
            return
        try:
            value = ray.get(ref)
        except Exception as exc:
            message = _one_line(exc)
            self._finish(Outcome(uri=job.item.uri, name=job.name, status="failed", error=message))
            return
        if isinstance(value, Split):
            self._split(job, value.page_count)
        else:
            self._finish(value)

    def _split(self, job: _Job, page_count: int) -> None:
        ranges = page_ranges(page_count, self.config.max_pages_per_task)
        self._ranges_left[job.item.uri] = len(ranges)
        self._parents[job.item.uri] = job
        self._waiting.extend(
            ("parse_range", job.item, job.name, first, last) for first, last in ranges
        )

    def _range_done(self, job: _Job, ref: Any) -> None:
        parent = self._parents[job.item.uri]
        parent.ranges.append(ref)
        self._ranges_left[job.item.uri] -= 1
        if self._ranges_left[job.item.uri] == 0:
            del self._ranges_left[job.item.uri]
            del self._parents[job.item.uri]
            self._waiting.appendleft(("merge", job.item, job.name, *parent.ranges))

    def _finish_pages(self) -> None:
        """Close every worker's page store; private stores' new rows are merged into OUT's,
        one worker's rows in memory at a time. A worker that cannot answer loses only its new
        rows (the store is an accelerator)."""
        if self.sharing == "off" or not self._actors:
            return

        def parts() -> Iterator[list[Any]]:
            for actor in self._actors:
                try:
                    yield ray.get(actor.finish_pages.remote(), timeout=120)
                except Exception as exc:
                    logger.warning("a worker's new pages were not merged: %s", _one_line(exc))

        if self.sharing == "shared":
            for _ in parts():
                pass
            return
        try:
            held = merge_rows(self.destination, parts())
            logger.info("page store: %d pages after the merge", held)
        except (OSError, PagereaderError) as exc:
            logger.warning("the workers' new pages were not merged: %s", exc)

    def run(self, inputs: Iterable[str]) -> BatchStats:
        """Parse every input not already complete; returns the totals."""
        cleaned = self.destination.clean_staging()
        if cleaned:
            logger.info("removed %d staging folders left by an interrupted run", cleaned)
        self.manifest.start_run(self.run_id, self.options, self.digest)
        self._size_pool()
        items = iter_inputs(inputs, self.destination.storage_options, self.destination.out)
        exhausted: Iterator[InputItem] = iter(())
        more = True
        last_report = 0.0
        try:
            while True:
                more = self._fill(items if more else exhausted) and more
                if not self._pending:
                    break
                ready, _ = ray.wait(list(self._pending), num_returns=1, timeout=1.0)
                for ref in ready:
                    job = self._pending.pop(ref)
                    self._load[job.actor] -= 1
                    self._collect(ref, job)
                self.stats.in_flight = len(self._pending)
                if ready or time.perf_counter() - last_report > 2.0:
                    self.on_progress(self.stats)
                    last_report = time.perf_counter()
        finally:
            self._finish_pages()
            for actor in self._actors:
                ray.kill(actor)
            self.destination.clean_staging()
            self.manifest.finish_run(self.run_id, self.stats.summary())
            self.destination.put_bytes(f"{BATCH_DIR}/status.jsonl", self.manifest.status_jsonl())
        self.on_progress(self.stats)
        return self.stats
