"""A bound on the memory of images being read at once, shared by a server's requests.

The per-image pixel limit stops one bomb, not six honest large images arriving together: six
8000-pixel squares read at once took serve-engine from 0.1 to 3.8 GB. A request reserves its
image's weight (pixels from the header, times ``BYTES_PER_PIXEL``) before decoding and holds it
until its answer is built; the rest wait in arrival order. An image heavier than the whole
budget runs alone.
"""

from __future__ import annotations

import asyncio
import ctypes
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

# Pillow holds a decoded RGB pixel in 4 bytes, and the engines' working copies (the detector's
# resized page, its array) add about as much again: 8000x8000 measured 250 MB decoded, 230 MB more
# while read
BYTES_PER_PIXEL = 8
DEFAULT_IMAGE_MEMORY_BYTES = 512 * 1024 * 1024


class PixelBudget:
    """A weighted semaphore served first come, first served (no large image starves behind a
    stream of small ones)."""

    def __init__(self, budget_bytes: int = DEFAULT_IMAGE_MEMORY_BYTES) -> None:
        if budget_bytes < 1:
            raise ValueError("the image memory budget must be at least one byte")
        self.budget = budget_bytes
        self.held = 0
        self._waiters: deque[tuple[int, asyncio.Future[None]]] = deque()

    def weight(self, width: int, height: int) -> int:
        """The bytes an image of this size reserves, at most the whole budget."""
        return min(self.budget, max(1, width * height * BYTES_PER_PIXEL))

    @asynccontextmanager
    async def hold(self, weight: int) -> AsyncIterator[None]:
        """Wait until ``weight`` bytes are free (capped at the budget), hold them inside."""
        weight = min(self.budget, max(1, weight))
        if self._waiters or self.held + weight > self.budget:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            entry = (weight, future)
            self._waiters.append(entry)
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._release(weight)  # granted as it was cancelled: hand it on
                else:
                    if entry in self._waiters:
                        self._waiters.remove(entry)
                    self._wake()
                raise
        else:
            self.held += weight
        try:
            yield
        finally:
            self._release(weight)

    def _release(self, weight: int) -> None:
        self.held -= weight
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self.held + self._waiters[0][0] <= self.budget:
            weight, future = self._waiters.popleft()
            if future.cancelled():
                continue
            self.held += weight
            future.set_result(None)


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
        return trim
    except (OSError, AttributeError, TypeError):  # not glibc: nothing to hand back this way
        return None


_TRIM = _malloc_trim()


def return_freed_memory() -> None:
    """Hand freed heap pages back to the system (glibc's malloc_trim).

    glibc keeps what a thread frees in that thread's arena, and images are read on many pool
    threads: without this each arena keeps the peak of the largest image it ever read, and the
    server's RSS grows past the budget while no image is alive (six 8000x8000 images one after
    another: 1.47 GB without, 0.79 GB with)."""
    if _TRIM is not None:
        _TRIM(0)
