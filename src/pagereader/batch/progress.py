"""Counting a batch as it goes: documents and pages done and failed, pages per second, and the
end summary (p50/p95 seconds a page by page class, failures with their messages).

Two rates: over the whole run, and steady, from the first document started to the last one
done. The second leaves out the workers' start (a process each, and its models loaded), a
fixed cost of a run: it is the rate a long corpus runs at, the one to size a cluster by."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from pagereader.batch.manifest import Outcome
from pagereader.timing import percentile


@dataclass
class BatchStats:
    """Running totals of one batch; the driver updates it, the CLI draws it."""

    started: float = field(default_factory=time.perf_counter)
    documents: int = 0
    failed: int = 0
    partial: int = 0
    skipped: int = 0
    pages: int = 0
    tasks: int = 0
    cache_hits: int = 0
    reused: int = 0
    in_flight: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    page_seconds: dict[str, list[float]] = field(default_factory=dict)
    first_started: float | None = None
    last_done: float = 0.0

    def add(self, outcome: Outcome, now: float | None = None) -> None:
        """Count a finished document (``now``: when it came back, on this clock)."""
        now = time.perf_counter() if now is None else now
        if outcome.seconds > 0:
            began = now - outcome.seconds
            self.first_started = (
                began if self.first_started is None else min(self.first_started, began)
            )
            self.last_done = now
        self.documents += 1
        self.pages += outcome.pages
        self.cache_hits += outcome.cache_hits
        self.reused += outcome.reused
        if outcome.status == "failed":
            self.failed += 1
            self.failures.append((outcome.uri, outcome.error))
        elif outcome.status == "partial":
            self.partial += 1
        for page_class, seconds in outcome.page_classes:
            self.page_seconds.setdefault(page_class, []).append(seconds)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def workers_start_s(self) -> float:
        """Seconds from the run's start to its first document's: the workers' start."""
        return 0.0 if self.first_started is None else self.first_started - self.started

    @property
    def steady_pages_per_second(self) -> float:
        """Pages per second from the first document started to the last one done."""
        if self.first_started is None or self.last_done <= self.first_started:
            return 0.0
        return self.pages / (self.last_done - self.first_started)

    def line(self) -> str:
        """The live progress line."""
        return (
            f"documents {self.documents} done, {self.failed} failed, {self.skipped} skipped"
            f" | pages {self.pages} | {self.pages_per_second:.2f} pages/s"
            f" | in flight {self.in_flight} | {self.elapsed:.0f} s"
        )

    def summary(self) -> dict[str, object]:
        """The end summary, also stored with the run in the manifest."""
        return {
            "documents": self.documents,
            "failed": self.failed,
            "partial": self.partial,
            "skipped": self.skipped,
            "pages": self.pages,
            "tasks": self.tasks,
            "seconds": round(self.elapsed, 3),
            "pages_per_second": round(self.pages_per_second, 3),
            "steady_pages_per_second": round(self.steady_pages_per_second, 3),
            "workers_start_s": round(self.workers_start_s, 3),
            "duplicate_pages": self.cache_hits,
            "reused_pages": self.reused,
            "seconds_per_page": {
                page_class: {
                    "pages": len(values),
                    "p50": round(percentile(values, 0.50), 3),
                    "p95": round(percentile(values, 0.95), 3),
                }
                for page_class, values in sorted(self.page_seconds.items())
            },
            "failures": [{"uri": uri, "error": error} for uri, error in self.failures],
        }
