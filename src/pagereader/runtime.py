"""Runtime: what a run shares across documents and pages. Passed, never global."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from pagereader.config.options import Options, RapidOCREngineOptions
from pagereader.protocols import Engine, LineDetector, LineReader
from pagereader.types import ErrorItem, PageResult, Script

ProgressEvent = dict[str, Any]
ProgressCallback = Callable[[ProgressEvent], None]


@dataclass(frozen=True)
class SharedPage:
    """A page read before: its finished result and where it was read (document and page)."""

    result: PageResult
    source: str
    page: int


class PageLookup(Protocol):
    """Finished pages of other documents and earlier runs, found by what the page holds: its
    raster's digest, its text layer's digest and the options' digest. A page never finds
    itself (the same ``source`` and ``page``): a retried document is read again."""

    def find(
        self, raster: str, layer: str, options: str, source: str, page: int
    ) -> SharedPage | None:
        """The page read earlier with these digests, or None."""
        ...

    def keep(self, raster: str, layer: str, options: str, source: str, result: PageResult) -> None:
        """Offer a freshly read page (without errors) for later pages to reuse."""
        ...


class Capabilities(Protocol):
    """What the decision layer asks of the embedded engines, by what they can do rather than
    by name (engines/registry.py answers)."""

    def line_detector(self, options: RapidOCREngineOptions | None = None) -> LineDetector:
        """The line detector at these OCR options."""
        ...

    def script_reader(
        self, script: Script, options: RapidOCREngineOptions | None = None
    ) -> LineReader:
        """The reader of line crops in ``script``."""
        ...

    def engine_for_script(self, script: Script) -> tuple[str, str]:
        """The engine that reads ``script`` here and why (``none`` when none does)."""
        ...

    def text_layer(self) -> Engine:
        """The engine that answers from the page's own text layer."""
        ...


def _ignore(_: ProgressEvent) -> None:
    return None


@dataclass(frozen=True)
class Runtime:
    """Options, engines, semaphores and the progress sink of one run.

    ``engines`` maps route names to engine objects and ``capabilities`` finds the embedded
    engines by what they can do (see engines/registry.py); the pipeline builds them once per
    run so that models load once. ``shared_pages``, when set, lets a page
    reuse the result of an identical page read in another document or an earlier run.
    """

    options: Options
    capabilities: Capabilities
    engines: Mapping[str, Engine] = field(default_factory=dict)
    on_event: ProgressCallback = _ignore
    semaphores: dict[str, asyncio.Semaphore] = field(default_factory=dict)
    shared_pages: PageLookup | None = None
    engine_problems: dict[str, ErrorItem] = field(default_factory=dict)
    """Served engines that failed their start-up check (see engine_check.py)."""

    def with_options(self, options: Options) -> Runtime:
        """This run's engines, semaphores and progress sink, with other options (one
        document's page selection): a new Runtime, so that documents parsed at once never read
        each other's options."""
        return dataclasses.replace(self, options=options)

    def emit(self, kind: str, **data: Any) -> None:
        """Send a progress event to whoever listens (the CLI's progress bars, the service)."""
        self.on_event({"event": kind, **data})

    def semaphore(self, name: str, limit: int) -> asyncio.Semaphore:
        """The per-engine concurrency bound, created on first use."""
        if name not in self.semaphores:
            self.semaphores[name] = asyncio.Semaphore(limit)
        return self.semaphores[name]
