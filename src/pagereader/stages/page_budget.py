"""The work bound of one page: characters of its text layer, blocks, and seconds.

Real pages sit far inside the bounds (a dense legal page has 3-6k characters and under a
hundred blocks, a slide a few hundred words); a crafted page does not: 100,000 one-point text
objects in a 300 KB PDF asked for minutes and most of a GB of the text-layer path. So a text
layer over ``classify.max_page_chars`` is not used (the page is read as a scan, and says so),
blocks past ``budget.max_page_blocks`` are cut, and a page past ``budget.max_page_s`` stops at
the next block. The same stop serves cancellation: a cancelled page's worker threads end at
their next block instead of finishing work nobody will read.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

from pagereader.config.options import BudgetOptions, ClassifyOptions
from pagereader.errors import PagereaderError
from pagereader.types import Block, BlockResult, ErrorItem, Finding, Verdict

CHARS_KEY = "classify.max_page_chars"
BLOCKS_KEY = "budget.max_page_blocks"
SECONDS_KEY = "budget.max_page_s"
STOP_GRACE_S = 10.0
"""How long a stage may run past the page's seconds before it is abandoned: one block's work
(an OCR of a crop, a served request is bounded by its own timeout) ends well within it."""

T = TypeVar("T")


class PageStopped(PagereaderError):
    """The page's work was stopped: its seconds ran out, or it was cancelled."""

    stage = "parse"
    default_hint = f"raise {SECONDS_KEY} for pages that need longer"


@dataclass
class PageBudget:
    """One page's deadline and stop flag, shared by its stages and their worker threads."""

    max_s: float | None = None
    started: float = field(default_factory=time.monotonic)
    _stop: threading.Event = field(default_factory=threading.Event)
    _halted: int = 0
    _recorded: bool = False

    @classmethod
    def start(cls, options: BudgetOptions) -> PageBudget:
        """A budget counting from now."""
        return cls(max_s=options.max_page_s)

    def stop(self) -> None:
        """Ask every stage of the page to stop at its next block (the page was cancelled)."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    def remaining(self) -> float | None:
        """Seconds left, or None without a bound."""
        if self.max_s is None:
            return None
        return self.max_s - (time.monotonic() - self.started)

    def spent(self) -> bool:
        """Whether the page must stop: cancelled, or out of seconds."""
        left = self.remaining()
        return self.cancelled or (left is not None and left <= 0)

    def reason(self, stage: str) -> str:
        if self.cancelled:
            return f"cancelled during {stage}"
        return (
            f"the page's work passed {SECONDS_KEY} ({self.max_s:g} s) during {stage}: "
            "what was not read by then is missing"
        )

    def halt(self, stage: str) -> str:
        """Count a piece of work not done because the page must stop; the reason."""
        self._halted += 1
        return self.reason(stage)

    def check(self, stage: str) -> None:
        """Raise PageStopped when the page must stop; called between blocks, also in threads."""
        if self.spent():
            raise PageStopped(self.halt(stage))

    def record(self, errors: list[ErrorItem], file: str, page: int, stage: str) -> None:
        """Add the page's one error when work of ``stage`` was left undone (once per page)."""
        if self._recorded or not self._halted:
            return
        self._recorded = True
        error = PageStopped(self.reason(stage), file=file, page=page)
        errors.append(error.to_item(stage))

    async def bound(self, stage: str, work: Awaitable[T]) -> T:
        """Await a stage, abandoned (and told to stop) ``STOP_GRACE_S`` after the page's
        seconds: a stage that misses its block checks cannot hold the page; a cancelled one
        tells its threads to stop."""
        left = self.remaining()
        try:
            async with asyncio.timeout(None if left is None else max(0.0, left) + STOP_GRACE_S):
                return await work
        except TimeoutError as exc:
            self.stop()
            raise PageStopped(self.reason(stage)) from exc
        except asyncio.CancelledError:
            self.stop()
            raise


def unverified(result: BlockResult, reason: str) -> BlockResult:
    """A block the verifier had no time for: kept, and flagged for a person."""
    finding = Finding(check="budget", message=f"not verified: {reason}")
    return result.model_copy(update={"verdict": Verdict(outcome="review", findings=(finding,))})


def text_read_bound(options: ClassifyOptions) -> int:
    """Characters of a PDF page's text layer worth reading at all: twice the bound (the count
    PDFium gives holds spaces and line ends, the bound counts the rest); past it the page is a
    scan whatever its text, and reading the layer would cost seconds."""
    return 2 * options.max_page_chars


def text_layer_over(chars: int, options: ClassifyOptions) -> str:
    """Why a text layer is too large to use (empty when it is not): past the bound its layout
    costs more than reading the raster, and grows faster than the page."""
    if chars <= options.max_page_chars:
        return ""
    return (
        f"text layer has {chars:,} characters, over {CHARS_KEY} ({options.max_page_chars:,}): "
        "read as a scan"
    )


def cap_blocks(
    blocks: list[Block], options: BudgetOptions, file: str, page: int
) -> tuple[list[Block], ErrorItem | None]:
    """The first ``budget.max_page_blocks`` blocks in reading order, and the error saying
    what was cut (a gap in the page, so the document is ``partial``)."""
    limit = options.max_page_blocks
    if len(blocks) <= limit:
        return blocks, None
    cut = len(blocks) - limit
    return blocks[:limit], ErrorItem(
        file=file,
        page=page,
        stage="layout",
        message=(
            f"{len(blocks):,} blocks, over {BLOCKS_KEY} ({limit:,}): the last {cut:,} in "
            "reading order are not read"
        ),
        hint=f"raise {BLOCKS_KEY} to read them",
    )
