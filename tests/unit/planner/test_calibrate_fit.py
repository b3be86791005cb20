"""The calibration fit on samples of known constants: the batch-8 step from rounds sent short,
long, long, short is right even while the server speeds up at a steady rate."""

from __future__ import annotations

import pytest

from pagereader.planner.calibrate import BATCH, BATCH_ROUNDS, pixel_budgets
from pagereader.planner.calibrate_fit import DRIFT_LIMIT, Sample, fit

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
