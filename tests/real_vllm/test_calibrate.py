"""`pagereader plan calibrate` against the real server: distinct crops, a warm-up per pixel
budget and a non-negative fit give terms that are non-negative, plausible and stable within 25%
over two runs on a server that has served (a repeated crop hit vLLM's caches: prefill fitted
2.8-4.4 s a 1k tokens in one run, 0 in the next, and a negative decode step)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pagereader.cli.app import app
from pagereader.planner.calibrate_fit import DRIFT_LIMIT
from real_vllm.servers import VllmSet

pytestmark = pytest.mark.vllm

TERMS = ("prefill_ms_per_1k", "decode_ms_batch1", "decode_ms_batch8")


def _calibrate(vllm: VllmSet, tmp_path: Path, n: int) -> dict[str, Any]:
    server = vllm.family("qwen2_vl")
    config = tmp_path / "c.toml"
    config.write_text(
        "\n".join(
            [
                "[engines.vlm]",
                'kind = "openai"',
                f'base_url = "{server.base_url}"',
                f'model = "{server.model}"',
                'prompt_style = "qwen-vl"',
                "timeout_s = 300",
            ]
        ),
        encoding="utf-8",
    )
    out = tmp_path / f"calib{n}.json"
    args = ["plan", "calibrate", "--config", str(config), "-o", str(out), "--requests", "64"]
    args += ["--crop", "960x720"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    entry: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))["endpoints"]["vlm"]
    return entry


@pytest.fixture(scope="module")
def two_runs(vllm: VllmSet, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Two calibrations of the same server, one after the other, after a first one that warms
    a fresh CPU server up: measured in five sessions, a fresh server's first calibration fits a
    prefill 1.3-1.4x the later ones' (warm-up rounds until no shape speeds up do not remove
    it), and the next four agree within 10-25%."""
    folder = tmp_path_factory.mktemp("calibrate")
    return [_calibrate(vllm, folder, n) for n in (0, 1, 2)][1:]


def test_calibrate_is_non_negative_and_plausible(two_runs: list[dict[str, Any]]) -> None:
    for entry in two_runs:
        assert entry["plausible"] is True, entry["warnings"]
        assert all(entry[t] > 0 for t in TERMS), {t: entry[t] for t in TERMS}
        assert entry["fixed_ms"] >= 0


def test_calibrate_is_stable_over_two_runs_or_says_it_drifted(
    two_runs: list[dict[str, Any]],
) -> None:
    """Two calibrations agree within 25%, or one of them warns that the server's speed moved
    under it. On this 2-core machine the server with the recommended flags slows down within a
    run (a 128-token answer from 600 to 840 ms over 64 requests) and the terms moved 20-40%
    between runs in two of four sessions: a user must learn that from the calibration itself."""
    first, second = two_runs
    apart = {t: (first[t], second[t]) for t in TERMS if _apart(first[t], second[t])}
    drifts = [entry["drift"] for entry in two_runs]
    assert all(d is not None and d >= 0 for d in drifts), drifts
    if apart:
        assert any(d > DRIFT_LIMIT for d in drifts), (apart, drifts)
        assert any("latency moved" in w for e in two_runs for w in e["warnings"])


def _apart(a: float, b: float) -> bool:
    return abs(a - b) > 0.25 * max(a, b)
