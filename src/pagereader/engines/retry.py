"""Retry policy for served endpoints: which failures are worth another try, and how long to wait.

Connect errors, 429 and 5xx are transient on a busy vLLM server and are retried; 4xx other than
429 means the request itself is wrong and retrying cannot help. A timeout is not retried: a
server that did not answer within ``timeout_s`` would hold the block for another full timeout,
so the openai engine reports it at once and the route's next engine answers. Waits grow
exponentially with full jitter so that the blocks of a page, failing together, do not retry
in lockstep; a server's ``Retry-After`` is honoured up to the cap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with full jitter: ``uniform(0, min(cap, base * 2**attempt))``."""

    base_s: float = 0.25
    cap_s: float = 8.0

    def delay(
        self, attempt: int, retry_after_s: float | None = None, rng: random.Random | None = None
    ) -> float:
        """Seconds to wait before retry number ``attempt`` (0 for the first retry)."""
        if retry_after_s is not None and retry_after_s >= 0:
            return min(self.cap_s, retry_after_s)
        ceiling = min(self.cap_s, self.base_s * (2**attempt))
        return (rng or random).uniform(0.0, ceiling)


def is_retryable_status(status: int) -> bool:
    """Whether an HTTP status is transient (busy, overloaded, or a server fault)."""
    return status in RETRYABLE_STATUS or status >= 500


def parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds (the HTTP-date form is rare from inference servers: ignored)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None
