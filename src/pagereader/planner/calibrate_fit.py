"""The fit of a calibration: latencies of timed requests to the time model's constants.

Batch-1 latencies (the median of each pair of prompt and output tokens, so that a straggler
does not move the fit) are fitted by non-negative least squares to ``fixed + prefill x prompt
tokens + step x output tokens`` (a cost cannot be negative; a term held at zero is reported);
the step at batch 8 is the difference of the long and short rounds' means over the difference
of their output tokens. A fit that cannot be right is flagged implausible, a server whose
speed moved under the series is named, and so is a term the series could not pin down: the
spread of fits to resampled requests says how far another calibration may land (a prefill that
is a tenth of each latency is lost in a 15% jitter; calibrate.py sends the requests).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pagereader.errors import PagereaderError


class CalibrationError(PagereaderError):
    """An endpoint that could not be calibrated."""


@dataclass(frozen=True)
class Sample:
    """One timed request (batch 1) or round of concurrent requests (batch 8)."""

    batch: int
    max_pixels: int
    max_tokens: int
    prompt_tokens: float
    completion_tokens: float
    seconds: float


DRIFT_LIMIT = 0.15
"""A shape's median latency moving more than this between the halves of the series is a
server whose speed changed under the calibration (warned of; the fit is kept)."""

UNCERTAIN_LIMIT = 0.25
"""A term whose 90% interval reaches further than this from its value is named uncertain."""
RESAMPLES = 200
"""Bootstrap resamples of the batch-1 requests behind each term's interval."""
TERMS = ("prefill_ms_per_1k", "decode_ms_batch1", "decode_ms_batch8")

#: Server flags that keep caches out of a calibration (documented in the command's help).
CLEAN_SERVER_FLAGS = "--no-enable-prefix-caching --mm-processor-cache-gb 0"


@dataclass(frozen=True)
class Fit:
    """Fitted constants of one endpoint, in milliseconds, with the fit's residual."""

    fixed_ms: float
    prefill_ms_per_1k: float
    decode_ms_batch1: float
    decode_ms_batch8: float
    residual_ms: float
    drift: float | None = None
    """The most a shape's median latency moved between the first and second half of the
    series (0.24: a quarter slower or faster), None with too few requests to tell."""
    uncertainty: dict[str, float | None] = field(default_factory=dict)
    """Per term, how far its 90% interval reaches from the value, relative to it (0.3: 30%
    either way); None for a term fitted 0."""
    warnings: tuple[str, ...] = ()
    plausible: bool = True


def nnls(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Non-negative least squares for a few columns: the best of the least-squares solutions
    on each subset of columns whose coefficients are all non-negative (the NNLS optimum is one
    of them: the unconstrained solution on its own active set)."""
    columns = x.shape[1]
    best = np.zeros(columns)
    best_error = float(np.sum(y**2))
    for mask in range(1, 2**columns):
        chosen = [c for c in range(columns) if mask >> c & 1]
        coef, *_ = np.linalg.lstsq(x[:, chosen], y, rcond=None)
        if np.any(coef < 0):
            continue
        full = np.zeros(columns)
        full[chosen] = coef
        error = float(np.sum((x @ full - y) ** 2))
        if error < best_error - 1e-12:
            best, best_error = full, error
    return best


def _implausible(values: dict[str, float], residual: float, mean_ms: float) -> list[str]:
    """What makes a fit unbelievable: a cost held at zero, or noise as large as the signal."""
    out = [
        f"{name} fitted 0: the latency did not grow with it (a cache or a busy server hides "
        f"it; start the server with {CLEAN_SERVER_FLAGS} and calibrate again)"
        for name in ("prefill_ms_per_1k", "decode_ms_batch1")
        if values[name] <= 0
    ]
    if values["decode_ms_batch8"] <= 0:
        out.append(
            "decode_ms_batch8 fitted 0 or less: the long round was not slower than the short one"
        )
    if residual > 0.5 * mean_ms:
        out.append(
            f"the residual ({residual:.0f} ms) is over half the mean latency ({mean_ms:.0f} ms): "
            "the server's latency varied with something other than tokens"
        )
    return out


def _medians(single: list[Sample]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """One point per (prompt tokens, output tokens) pair at its median latency: a request
    slowed by something else on the machine moves the fit no more than its neighbours allow."""
    groups: dict[tuple[float, float], list[float]] = {}
    for s in single:
        groups.setdefault((s.prompt_tokens, s.completion_tokens), []).append(s.seconds * 1000)
    keys = sorted(groups)
    x = np.array([[1.0, p / 1000, c] for p, c in keys])
    y = np.array([statistics.median(groups[k]) for k in keys])
    return x, y


def drift(single: list[Sample]) -> float | None:
    """How far each shape's median latency moved from the first half of its requests to the
    second, at most: a server still warming up, or slowing down as its caches fill, gives
    constants that the next calibration will not repeat."""
    groups: dict[tuple[int, int], list[float]] = {}
    for s in single:
        groups.setdefault((s.max_pixels, s.max_tokens), []).append(s.seconds)
    moves = []
    for seconds in groups.values():
        half = len(seconds) // 2
        if half >= 2:
            first, second = seconds[:half], seconds[-half:]
            moves.append(abs(statistics.median(second) / statistics.median(first) - 1))
    return round(max(moves), 3) if moves else None


def _relative(low: float, high: float, value: float) -> float | None:
    return round((high - low) / 2 / value, 3) if value > 0 else None


def uncertainty(
    single: list[Sample], rounds: list[Sample], values: dict[str, float]
) -> dict[str, float | None]:
    """How well the series pins each term down. Batch 1: the 5th to 95th percentile of the
    terms fitted to resamples of each shape's requests (drawn with replacement, a fixed seed, so
    one series always gives one answer). Batch 8: the steps of the two pairs of rounds, each a
    short and a long round, half their difference (a steady drift moves them apart though
    their mean cancels it, so this errs wide)."""
    groups: dict[tuple[float, float], list[Sample]] = {}
    for s in single:
        groups.setdefault((s.prompt_tokens, s.completion_tokens), []).append(s)
    rng = np.random.default_rng(0)
    fits = []
    for _ in range(RESAMPLES):
        drawn = [g[i] for g in groups.values() for i in rng.integers(0, len(g), len(g))]
        fits.append(nnls(*_medians(drawn)))
    low, high = np.percentile(np.array(fits), [5, 95], axis=0)
    out: dict[str, float | None] = {
        name: _relative(float(low[c]), float(high[c]), values[name])
        for c, name in ((1, "prefill_ms_per_1k"), (2, "decode_ms_batch1"))
    }
    steps = [_step(rounds[n : n + 2]) for n in range(0, len(rounds) - 1, 2)]
    known = [s for s in steps if s is not None]
    out["decode_ms_batch8"] = (
        _relative(min(known), max(known), values["decode_ms_batch8"]) if len(known) > 1 else None
    )
    return out


def _step(rounds: list[Sample]) -> float | None:
    """The batch step from rounds of two lengths: the long ones' mean less the short ones',
    over the difference of their output tokens."""
    fewest = min(s.completion_tokens for s in rounds)
    short = [s for s in rounds if s.completion_tokens == fewest]
    long = [s for s in rounds if s.completion_tokens != fewest]
    if not long:
        return None
    spread = statistics.mean(s.completion_tokens for s in long) - fewest
    gain = statistics.mean(s.seconds for s in long) - statistics.mean(s.seconds for s in short)
    return gain * 1000 / spread


def _unsure(spread: dict[str, float | None], values: dict[str, float]) -> list[str]:
    return [
        f"{name} is uncertain: {values[name]:.1f}, give or take {share:.0%} (90% of fits to "
        "resampled requests): its share of each latency is small against the server's jitter; "
        "calibrate with more --requests or a larger --crop"
        for name, share in spread.items()
        if share is not None and share > UNCERTAIN_LIMIT
    ]


def fit(samples: list[Sample]) -> Fit:
    """Non-negative least squares over the batch-1 samples; the batch-8 step from the mean
    long and mean short round."""
    single = [s for s in samples if s.batch == 1]
    rounds = [s for s in samples if s.batch > 1]
    if len(single) < 4 or len(rounds) < 2:
        raise CalibrationError("too few samples to fit (need 4 at batch 1 and 2 rounds)")
    x = np.array([[1.0, s.prompt_tokens / 1000, s.completion_tokens] for s in single])
    y = np.array([s.seconds * 1000 for s in single])
    if np.linalg.matrix_rank(x) < 3:
        raise CalibrationError(
            "prompt or output tokens did not vary between requests: the endpoint ignores "
            "mm_processor_kwargs.max_pixels or max_tokens"
        )
    coef = nnls(*_medians(single))
    residual = float(np.sqrt(np.mean((x @ coef - y) ** 2)))
    step8 = _step(rounds)
    if step8 is None:
        raise CalibrationError("the batch-8 rounds returned the same number of output tokens")
    values = {
        "fixed_ms": float(coef[0]),
        "prefill_ms_per_1k": float(coef[1]),
        "decode_ms_batch1": float(coef[2]),
        "decode_ms_batch8": step8,
    }
    warnings = _implausible(values, residual, float(np.mean(y)))
    moved = drift(single)
    unsteady = []
    if moved is not None and moved > DRIFT_LIMIT:
        unsteady.append(
            f"the server's latency moved {moved:.0%} between the first and second half of the "
            "series: it was still warming up or slowing down, and another calibration will "
            f"differ; calibrate again on a server that has served a while, started with "
            f"{CLEAN_SERVER_FLAGS}"
        )
    spread = uncertainty(single, rounds, values)
    clean = {k: round(max(0.0, v), 4) for k, v in values.items()}
    return Fit(
        **clean,
        residual_ms=round(residual, 3),
        drift=moved,
        uncertainty=spread,
        warnings=tuple(warnings + unsteady + _unsure(spread, values)),
        plausible=not warnings,
    )
