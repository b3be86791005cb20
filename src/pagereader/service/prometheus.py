"""``GET /metrics`` in Prometheus text format (prometheus-client), one registry per app.

Counters move when a job finishes (pages by class, seconds per page by class and stage, engine
calls and failures by engine, from the result's timings and attempts); the jobs by status and
the review queue are read from the stores at each scrape, so they are right after a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from pagereader.types import DocumentResult

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
PAGE_SECONDS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)


class _StoreCollector(Collector):
    """Gauges computed at scrape time."""

    def __init__(
        self, job_counts: Callable[[], dict[str, int]], queue_length: Callable[[], int]
    ) -> None:
        self.job_counts = job_counts
        self.queue_length = queue_length

    def collect(self) -> Iterator[GaugeMetricFamily]:
        jobs = GaugeMetricFamily(
            "pagereader_jobs", "Jobs in the store by status", labels=["status"]
        )
        for status, count in sorted(self.job_counts().items()):
            jobs.add_metric([status], count)
        yield jobs
        yield GaugeMetricFamily(
            "pagereader_review_queue_blocks",
            "Blocks the verifier flagged for review that nobody has decided yet",
            value=self.queue_length(),
        )


class ServiceMetrics:
    """The service's metrics and the registry that exports them."""

    def __init__(
        self, job_counts: Callable[[], dict[str, int]], queue_length: Callable[[], int]
    ) -> None:
        self.registry = CollectorRegistry()
        self.pages = Counter(
            "pagereader_pages", "Pages parsed by page class", ["page_class"], registry=self.registry
        )
        self.page_seconds = Histogram(
            "pagereader_page_seconds",
            "Seconds per page by page class and stage",
            ["page_class", "stage"],
            buckets=PAGE_SECONDS_BUCKETS,
            registry=self.registry,
        )
        self.engine_calls = Counter(
            "pagereader_engine_calls", "Engine calls by engine", ["engine"], registry=self.registry
        )
        self.engine_failures = Counter(
            "pagereader_engine_failures",
            "Engine calls that failed, by engine",
            ["engine"],
            registry=self.registry,
        )
        self.jobs_finished = Counter(
            "pagereader_jobs_finished",
            "Jobs finished by outcome",
            ["status"],
            registry=self.registry,
        )
        self.registry.register(_StoreCollector(job_counts, queue_length))

    def observe(self, result: DocumentResult) -> None:
        """Count a finished job's pages, stage times and engine calls."""
        self.jobs_finished.labels(result.status).inc()
        for page in result.pages:
            page_class = page.decision.page_class if page.decision else "unknown"
            self.pages.labels(page_class).inc()
            if page.timings is not None:
                for stage, seconds in page.timings.stages.items():
                    self.page_seconds.labels(page_class, stage).observe(seconds)
                self.page_seconds.labels(page_class, "total").observe(page.timings.total)
            for block in page.blocks:
                for attempt in block.attempts:
                    self.engine_calls.labels(attempt.engine).inc()
                    if not attempt.ok:
                        self.engine_failures.labels(attempt.engine).inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
