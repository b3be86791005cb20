"""RunContext: what a run shares across documents and pages. Passed, never global."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pagereader.options import Options
from pagereader.protocols import Engine

ProgressEvent = dict[str, Any]
ProgressCallback = Callable[[ProgressEvent], None]


def _ignore(_: ProgressEvent) -> None:
    return None


@dataclass
class RunContext:
    """Options, engines, semaphores and the progress sink of one run.

    ``engines`` maps route names to engine objects (see engines/registry.py); the pipeline
    builds them once per run so that models load once.
    """

    options: Options
    engines: Mapping[str, Engine] = field(default_factory=dict)
    on_event: ProgressCallback = _ignore
    semaphores: dict[str, asyncio.Semaphore] = field(default_factory=dict)

    def emit(self, kind: str, **data: Any) -> None:
        """Send a progress event to whoever listens (the CLI's progress bars, the service)."""
        self.on_event({"event": kind, **data})

    def semaphore(self, name: str, limit: int) -> asyncio.Semaphore:
        """The per-engine concurrency bound, created on first use."""
        if name not in self.semaphores:
            self.semaphores[name] = asyncio.Semaphore(limit)
        return self.semaphores[name]
