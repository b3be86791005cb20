"""A circuit breaker per endpoint: stop sending to a server that keeps failing, probe it later.

Closed: requests flow and consecutive failures are counted. After ``failure_threshold`` of
them the circuit opens: requests are refused at once (the route falls through to its next
engine instead of waiting out timeouts). After ``reset_after_s`` one probe request is let
through (half-open); its success closes the circuit, its failure opens it again.

A refusal that will repeat (the server was started without a flag every request needs, or does
not serve the model) opens the circuit at once with :meth:`CircuitBreaker.trip`: sending the
rest of a document's blocks would only collect the same answer. The last failure's reason is
kept, so that "circuit open" can say why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

State = Literal["closed", "open", "half-open"]


class CircuitBreaker:
    """Consecutive-failure breaker with a single half-open probe."""

    def __init__(
        self,
        failure_threshold: int = 5,
        reset_after_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.failure_threshold = failure_threshold
        self.reset_after_s = reset_after_s
        self._clock = clock
        self._failures = 0
        self._opened_at: float | None = None
        self._probing = False
        self.reason = ""
        self.hint = ""

    @property
    def state(self) -> State:
        if self._opened_at is None:
            return "closed"
        if self._probing or self._clock() - self._opened_at >= self.reset_after_s:
            return "half-open"
        return "open"

    def allow(self) -> bool:
        """Whether a request may go out now (claims the probe slot when half-open)."""
        if self._opened_at is None:
            return True
        if self._probing:
            return False
        if self._clock() - self._opened_at >= self.reset_after_s:
            self._probing = True
            return True
        return False

    def retry_in(self) -> float:
        """Seconds until the next probe is allowed (0 when closed)."""
        if self._opened_at is None:
            return 0.0
        return max(0.0, self.reset_after_s - (self._clock() - self._opened_at))

    def record_success(self) -> None:
        self._failures = 0
        self._opened_at = None
        self._probing = False
        self.reason = self.hint = ""

    def record_failure(self, reason: str = "", hint: str = "") -> None:
        self._failures += 1
        self.reason = reason or self.reason
        self.hint = hint or self.hint
        if self._probing or self._failures >= self.failure_threshold:
            self._opened_at = self._clock()
        self._probing = False

    def trip(self, reason: str, hint: str = "") -> None:
        """Open the circuit now: the failure will repeat whatever is retried."""
        self._failures = max(self._failures, self.failure_threshold)
        self._opened_at = self._clock()
        self._probing = False
        self.reason, self.hint = reason, hint

    def probe_now(self) -> None:
        """Let the next request through as the probe at once: a check asked for on purpose
        (engine_check.py) need not wait out ``reset_after_s``."""
        if self._opened_at is not None and not self._probing:
            self._opened_at = min(self._opened_at, self._clock() - self.reset_after_s)

    def release_probe(self) -> None:
        """Give the probe slot back when a probe ended without a verdict (cancelled)."""
        self._probing = False
