"""The calibration fit on samples of known constants: the batch-8 step from rounds sent short,
long, long, short is right even while the server speeds up at a steady rate."""

from __future__ import annotations

import numpy as np
import pytest

from pagereader.planner.calibrate_fit import DRIFT_LIMIT, UNCERTAIN_LIMIT, Sample, fit
from pagereader.planner.calibrate_series import BATCH, BATCH_ROUNDS, pixel_budgets

FIXED, PREFILL, STEP1, STEP8 = 40.0, 200.0, 5.0, 7.0


def _single(drift_ms: float = 0.0) -> list[Sample]:
    samples = []
    for n in range(16):
        prompt, tokens = (244.0, 890.0)[n % 2], (16, 128)[n // 2 % 2]
        ms = FIXED + PREFILL * prompt / 1000 + STEP1 * tokens - drift_ms * n
        samples.append(
            Sample(1, pixel_budgets((960, 720))[n % 2], tokens, prompt, tokens, ms / 1000)
        )
    return samples


def _rounds(drift_ms: float) -> list[Sample]:
    """The rounds in the order sent, each ``drift_ms`` faster than the one before."""
    return [
        Sample(BATCH, 172800, t, 244.0, t, (300.0 + STEP8 * t - drift_ms * n) / 1000)
        for n, t in enumerate(BATCH_ROUNDS)
    ]


def test_the_fit_recovers_the_constants() -> None:
    result = fit(_single() + _rounds(0.0))
    assert result.prefill_ms_per_1k == pytest.approx(PREFILL, rel=1e-3)
    assert result.decode_ms_batch1 == pytest.approx(STEP1, rel=1e-3)
    assert result.decode_ms_batch8 == pytest.approx(STEP8, rel=1e-3)
    assert result.plausible


def test_a_steady_speed_up_does_not_bias_the_batch_step() -> None:
    """120 ms faster every round: one short and one long round would fit 7 - 120/112 ms."""
    assert BATCH_ROUNDS == (16, 128, 128, 16)
    result = fit(_single() + _rounds(120.0))
    assert result.decode_ms_batch8 == pytest.approx(STEP8, rel=1e-3)


def test_a_server_that_slows_down_under_the_calibration_is_named() -> None:
    """Every request 12 ms slower than the one before: the long answers' median moves by more
    than the limit between the halves, and the fit says so."""
    steady = fit(_single() + _rounds(0.0))
    assert steady.drift == pytest.approx(0.0, abs=1e-6) and steady.warnings == ()
    slowing = fit(_single(drift_ms=-12.0) + _rounds(0.0))
    assert slowing.drift is not None and slowing.drift > DRIFT_LIMIT
    assert any("latency moved" in w for w in slowing.warnings)
    assert slowing.plausible  # the fit is kept; the warning says what to distrust


def test_a_term_lost_in_the_jitter_is_named_uncertain() -> None:
    """A prefill of 60 ms a 1k tokens moves a request by 39 ms between the two budgets, under a
    jitter of 15% of 700 ms: resampled fits spread it far past the limit, while the decode
    step (a 560 ms effect) stays pinned down."""
    rng = np.random.default_rng(7)
    samples = []
    for n in range(32):
        prompt, tokens = (244.0, 890.0)[n % 2], (16, 128)[n // 2 % 2]
        ms = (FIXED + 60.0 * prompt / 1000 + STEP1 * tokens) * rng.uniform(0.85, 1.15)
        samples.append(Sample(1, (172800, 691200)[n % 2], tokens, prompt, tokens, ms / 1000))
    result = fit(samples + _rounds(0.0))
    prefill, decode = (result.uncertainty[t] for t in ("prefill_ms_per_1k", "decode_ms_batch1"))
    assert prefill is not None and prefill > UNCERTAIN_LIMIT
    assert decode is not None and decode < 0.1
    assert result.uncertainty["decode_ms_batch8"] == pytest.approx(0.0, abs=1e-6)
    named = [w for w in result.warnings if "uncertain" in w]
    assert len(named) == 1 and named[0].startswith("prefill_ms_per_1k is uncertain")


def test_exact_samples_give_no_uncertainty() -> None:
    result = fit(_single() + _rounds(0.0))
    assert result.uncertainty == pytest.approx(
        {"prefill_ms_per_1k": 0.0, "decode_ms_batch1": 0.0, "decode_ms_batch8": 0.0}, abs=1e-6
    )
