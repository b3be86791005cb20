"""The start-up check of served engines: one tiny request each before any page is read.

A server that refuses pagereader's requests (a missing ``--trust-request-mm-kwargs``, a model it
does not serve), is down or fails is found once, up front, and every document of the run reports
it (stages/engine_faults.py). ``parse`` checks once per run; the service and the batch workers,
which live longer than one run, check at start and again before a document while an engine is
failing, at most every ``recheck_s`` seconds, so a server that comes up later is used as soon as
it answers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from pagereader.errors import PagereaderError
from pagereader.protocols import ServedEngine
from pagereader.runtime import Runtime
from pagereader.types import ErrorItem

logger = logging.getLogger(__name__)


async def preflight(ctx: Runtime) -> dict[str, ErrorItem]:
    """Check every served engine of ``ctx`` now; its ``engine_problems`` become the answer
    (engine name -> the error, empty when all answered)."""
    served = [e for e in ctx.engines.values() if isinstance(e, ServedEngine)]
    bounds = ctx.options.classify
    low, high = bounds.min_pixels, max(bounds.min_pixels, bounds.sparse_max_pixels)
    answers = await asyncio.gather(*(e.preflight(low, high) for e in served))
    for engine, problem in zip(served, answers, strict=True):
        if problem is None:
            ctx.engine_problems.pop(engine.name, None)
            continue
        if isinstance(problem, PagereaderError):
            item = problem.to_item("preflight")
        else:
            item = ErrorItem(file="", stage="preflight", message=str(problem))
        ctx.engine_problems[engine.name] = item
        logger.info("%s", item.message)
    return dict(ctx.engine_problems)


class EngineCheck:
    """The check for a long-lived process: made at its start, made again before a document
    while an engine is failing (not more often than ``recheck_s``), once at a time."""

    def __init__(
        self, ctx: Runtime, recheck_s: float = 30.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ctx = ctx
        self.recheck_s = recheck_s
        self._clock = clock
        self._checked_at: float | None = None
        self._lock = asyncio.Lock()

    async def refresh(self) -> dict[str, ErrorItem]:
        """The engines failing now: checked if never checked, or if one failed at the last
        check and ``recheck_s`` has passed since."""
        async with self._lock:
            due = self._checked_at is None or (
                self.ctx.engine_problems and self._clock() - self._checked_at >= self.recheck_s
            )
            if due:
                await preflight(self.ctx)
                self._checked_at = self._clock()
            return dict(self.ctx.engine_problems)

    def status(self) -> dict[str, str]:
        """Each served engine's state at the last check: ``ok``, ``unchecked`` or the error."""
        served = [e.name for e in self.ctx.engines.values() if isinstance(e, ServedEngine)]
        if self._checked_at is None:
            return dict.fromkeys(served, "unchecked")
        problems = self.ctx.engine_problems
        return {name: problems[name].message if name in problems else "ok" for name in served}
