"""`pagereader plan calibrate` against the real server: distinct crops, a warm-up per pixel
budget and a non-negative fit give terms that are non-negative, plausible and stable within 25%
over two runs on a server that has served, or named as drifting or uncertain (a repeated crop
hit vLLM's caches: prefill fitted 2.8-4.4 s a 1k tokens in one run, 0 in the next, and a
negative decode step)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pagereader.cli.app import app
from pagereader.planner.calibrate_fit import DRIFT_LIMIT, TERMS, UNCERTAIN_LIMIT
from real_vllm.servers import VllmSet

pytestmark = pytest.mark.vllm


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


def test_calibrate_is_stable_over_two_runs_or_says_why_not(
    two_runs: list[dict[str, Any]],
) -> None:
    """Each term of two calibrations agrees within 25%, or within what the runs' own 90%
    intervals allow (1.5 times their combined half-widths: a 1-in-70 chance for two honest
    intervals), or a run says why another may differ: the server's speed moved under it, or
    the term is uncertain (its interval over resampled requests reaches past 25%). On this
    2-core machine the server slows down within a run (a 128-token answer from 600 to 840 ms
    over 64 requests), and the prefill, a tenth of a request's latency at this crop, came out
    107 and 159 ms a 1k tokens in two runs that drifted 15% and 9%: a user must learn that from
    the calibration itself. The decode step, most of every latency, is always pinned down."""
    first, second = two_runs
    for entry in two_runs:
        assert set(entry["uncertainty"]) == set(TERMS)
        assert entry["uncertainty"]["decode_ms_batch1"] <= UNCERTAIN_LIMIT, entry["uncertainty"]
    for term in TERMS:
        a, b = first[term], second[term]
        ha, hb = (e["uncertainty"][term] or 0.0 for e in two_runs)
        if not _apart(a, b) or abs(a - b) <= 1.5 * math.hypot(ha * a, hb * b):
            continue
        drifted = [e for e in two_runs if e["drift"] > DRIFT_LIMIT]
        unsure = [e for e in two_runs if (e["uncertainty"][term] or 0) > UNCERTAIN_LIMIT]
        said = [w for e in drifted + unsure for w in e["warnings"]]
        assert drifted or unsure, (term, a, b, ha, hb, [e["drift"] for e in two_runs])
        assert any("latency moved" in w or w.startswith(f"{term} is uncertain") for w in said)


def _apart(a: float, b: float) -> bool:
    return abs(a - b) > 0.25 * max(a, b)
