"""``pagereader plan calibrate`` against the real mlx-vlm server: with ``server = "mlx-vlm"``
the pixel bounds are kept (two budgets, two prompt-token counts) and the fit gives positive
terms; with the default ``server = "vllm"`` the server ignores ``mm_processor_kwargs`` and
calibrate fails with one line that names the fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.planner.calibrate_fit import TERMS
from pagereader.planner.calibrate_series import MIN_REQUESTS
from real_mlx.servers import MlxSet

pytestmark = pytest.mark.mlx

CROP = "448x336"


def _config(mlx: MlxSet, path: Path, server: str) -> Path:
    served = mlx.family("qwen2_vl")
    lines = [
        "[engines.vlm]",
        'kind = "openai"',
        f'base_url = "{served.base_url}"',
        f'model = "{served.model}"',
        'prompt_style = "qwen-vl"',
        f'server = "{server}"',
        "timeout_s = 300",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _run(config: Path, out: Path) -> Any:
    args = ["plan", "calibrate", "--config", str(config), "-o", str(out)]
    args += ["--requests", str(MIN_REQUESTS), "--crop", CROP]
    return CliRunner().invoke(app, args)


def test_calibrate_fits_an_mlx_vlm_server(mlx: MlxSet, tmp_path: Path) -> None:
    out = tmp_path / "calib.json"
    result = _run(_config(mlx, tmp_path / "c.toml", "mlx-vlm"), out)
    assert result.exit_code == 0, result.output
    entry: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))["endpoints"]["vlm"]
    single = [s for s in entry["samples"] if s["batch"] == 1]
    # the two budgets cost different prompt tokens: the bounds reached the processor
    assert len({s["prompt_tokens"] for s in single}) == 2
    # the random model never stops: every answer has its asked length without min_tokens
    assert all(s["completion_tokens"] == s["max_tokens"] for s in entry["samples"])
    assert entry["decode_ms_batch1"] > 0 and entry["decode_ms_batch8"] > 0
    assert all(entry[t] >= 0 for t in TERMS)
    assert f"vlm ({entry['model']}): fixed" in result.output


def test_calibrate_names_the_server_option_when_the_bounds_are_ignored(
    mlx: MlxSet, tmp_path: Path
) -> None:
    out = tmp_path / "calib.json"
    result = _run(_config(mlx, tmp_path / "c.toml", "vllm"), out)
    assert result.exit_code != 0
    text = " ".join(result.output.split())
    assert "the server ignored the pixel bounds sent as mm_processor_kwargs" in text
    assert '[engines.vlm] server = "mlx-vlm"' in text
    assert not out.exists()
