"""`pagereader plan calibrate` against the real server: distinct crops, a warm-up per pixel
budget and a non-negative fit give terms that are non-negative, plausible and stable within 25%
over two runs on a server that has served, or named as drifting or uncertain (a repeated crop
hit vLLM's caches: prefill fitted 2.8-4.4 s a 1k tokens in one run, 0 in the next, and a
negative decode step)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app
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
def runs(vllm: VllmSet, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Calibrations of the same server, one after the other, after a first one that warms a
    fresh CPU server up (measured in five sessions, a fresh server's first calibration fits a
    prefill 1.3-1.4x the later ones'). Two, and a third when those two disagree: between two
    runs this CPU server's decode step once moved from 6.1 to 9.5 ms (both runs steady within
    themselves, drift 0.07 and 0.14), a change of the machine no calibration can see."""
    folder = tmp_path_factory.mktemp("calibrate")
    done = [_calibrate(vllm, folder, n) for n in (0, 1, 2)][1:]
    if _unexplained(done[0], done[1]):
        done.append(_calibrate(vllm, folder, 3))
    return done


def test_calibrate_is_non_negative_and_plausible(runs: list[dict[str, Any]]) -> None:
    for entry in runs:
        assert entry["plausible"] is True, entry["warnings"]
        assert all(entry[t] > 0 for t in TERMS), {t: entry[t] for t in TERMS}
        assert entry["fixed_ms"] >= 0
        assert set(entry["uncertainty"]) == set(TERMS)
        # the decode step is most of every latency: every run pins it down
        assert entry["uncertainty"]["decode_ms_batch1"] <= UNCERTAIN_LIMIT, entry["uncertainty"]


def test_calibrate_is_stable_over_two_runs_or_says_why_not(runs: list[dict[str, Any]]) -> None:
    """Two calibrations (of three, when the first two disagree) agree term by term:
    within 25%, or within what the runs' own 90% intervals allow (1.5 times their combined
    half-widths: a 1-in-70 chance for two honest intervals), or a run says why another may
    differ: the server's speed moved under it, or the term is uncertain (its interval over
    resampled requests reaches past 25%). On this 2-core machine the server slows down within a
    run (a 128-token answer from 600 to 840 ms over 64 requests), and the prefill, a tenth of a
    request's latency at this crop, came out 107 and 159 ms a 1k tokens in two runs that drifted
    15% and 9%: a user must learn that from the calibration itself."""
    problems = [_unexplained(a, b) for a, b in itertools.combinations(runs, 2)]
    assert any(not p for p in problems), problems


def _unexplained(first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    """The terms two runs disagree on with neither run's drift nor uncertainty to say why."""
    out = []
    for term in TERMS:
        a, b = first[term], second[term]
        ha, hb = (e["uncertainty"][term] or 0.0 for e in (first, second))
        if not _apart(a, b) or abs(a - b) <= 1.5 * math.hypot(ha * a, hb * b):
            continue
        runs = (first, second)
        drifted = [e for e in runs if e["drift"] > DRIFT_LIMIT]
        unsure = [e for e in runs if (e["uncertainty"][term] or 0) > UNCERTAIN_LIMIT]
        said = [w for e in drifted + unsure for w in e["warnings"]]
        named = any("latency moved" in w or w.startswith(f"{term} is uncertain") for w in said)
        if not named:
            out.append(
                f"{term}: {a} vs {b} (+-{ha}, +-{hb}; drift {first['drift']}, {second['drift']})"
            )
    return out


def _apart(a: float, b: float) -> bool:
    return abs(a - b) > 0.25 * max(a, b)
