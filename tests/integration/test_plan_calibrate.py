"""`pagereader plan calibrate` over loopback: against the fault server with known, injected
latencies (the fit must recover them within 10%), and a smoke run against the embedded
engine server; `plan --calibration` then uses the fitted constants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from pagereader.cli import plan
from pagereader.engine_server.server import create_app, serve_in_thread
from pagereader.planner.calibrate import SCHEMA, read_calibration
from pagereader.planner.calibrate_series import BATCH_ROUNDS
from pagereader.planner.reporting import PlanReport

from fault_server import Fault, FaultServer, Timing

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes

root = typer.Typer()
root.add_typer(plan.app, name="plan")
runner = CliRunner()

KNOWN = Timing(fixed_ms=30.0, prefill_ms_per_1k=250.0, decode_ms_batch1=8.0, decode_ms_batch8=11.0)


def _config(tmp_path: Path, url: str, model: str) -> Path:
    path = tmp_path / "engines.toml"
    path.write_text(
        f'[engines.parser]\nkind = "openai"\nbase_url = "{url}"\nmodel = "{model}"\n'
        "timeout_s = 60\n",
        encoding="utf-8",
    )
    return path


def entry_samples(out: Path) -> list[dict[str, Any]]:
    samples: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))["endpoints"][
        "parser"
    ]["samples"]
    return samples


def test_the_fit_recovers_known_latencies_within_10_percent(tmp_path: Path) -> None:
    server = FaultServer(Fault(timing=KNOWN))
    out = tmp_path / "calib.json"
    with serve_in_thread(server.app()) as url:
        config = _config(tmp_path, url, "PaddlePaddle/PaddleOCR-VL")
        result = runner.invoke(
            root, ["plan", "calibrate", "--config", str(config), "--requests", "44", "-o", str(out)]
        )
    assert result.exit_code == 0, result.output
    # untimed warm-ups (rounds of the 2 pixel budgets x 2 output lengths until no shape speeds
    # up: the scripted server's latency is settled from the first, give or take the first
    # connection; then a round of 8), 12 single requests and 4 rounds of 8 (short, long, long,
    # short answers), every one with the requested token count and a crop of its own (no cache
    # could answer one)
    warm_rounds, rest = divmod(len(server.requests) - (8 + 12 + 32), 4)
    assert rest == 0 and 2 <= warm_rounds <= 3, len(server.requests)
    rounds = [s["max_tokens"] for s in entry_samples(out) if s["batch"] == 8]
    assert rounds == [16, 128, 128, 16]
    urls = [body["messages"][0]["content"][0]["image_url"]["url"] for body in server.requests]
    assert len(set(urls)) == len(urls)
    warmups = {body["mm_processor_kwargs"]["max_pixels"] for body in server.requests[:4]}
    assert warmups == {s["max_pixels"] for s in entry_samples(out)}
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["schema"] == SCHEMA
    entry = data["endpoints"]["parser"]
    assert entry["catalog_key"] == "paddleocr-vl"
    singles = [s for s in entry["samples"] if s["batch"] == 1]
    assert {s["completion_tokens"] for s in singles} == {16, 128}
    assert len({s["prompt_tokens"] for s in singles}) == 2
    assert entry["prefill_ms_per_1k"] == pytest.approx(KNOWN.prefill_ms_per_1k, rel=0.1)
    assert entry["decode_ms_batch1"] == pytest.approx(KNOWN.decode_ms_batch1, rel=0.1)
    assert entry["decode_ms_batch8"] == pytest.approx(KNOWN.decode_ms_batch8, rel=0.1)
    # The intercept is the injected fixed cost plus this machine's loopback HTTP and image
    # decoding, which no test can know: at least the former, less what the slopes' own 10%
    # moves it at the smallest request (a loaded machine slows the long requests more).
    prompt = min(s["prompt_tokens"] for s in singles) / 1000 * KNOWN.prefill_ms_per_1k
    decode = min(s["completion_tokens"] for s in singles) * KNOWN.decode_ms_batch1
    assert entry["fixed_ms"] >= KNOWN.fixed_ms - 0.1 * (prompt + decode)
    assert entry["plausible"] is True and entry["warnings"] == []

    report = runner.invoke(
        root,
        [
            "plan",
            "--gpus",
            "1xH200",
            "--models",
            "parser",
            "--calibration",
            str(out),
            "--format",
            "json",
        ],
    )
    assert report.exit_code == 0, report.output
    path = PlanReport.model_validate_json(report.output).layouts[0].critical_path
    assert path is not None
    (group,) = path.groups
    assert group.engine.startswith("paddleocr-vl x8")
    decode = next(t for t in group.terms if t.name == "decode")
    # 8 blocks of 256 tokens decode together: 256 steps at the fitted batch-8 step.
    assert decode.seconds == pytest.approx(256 * entry["decode_ms_batch8"] / 1000, rel=1e-3)
    sources = {c.name: c.source for c in path.constants}
    assert sources["paddleocr-vl.decode_ms_batch8"].startswith("calibrated: calib.json, parser")


def test_calibrate_smoke_against_serve_engine(tmp_path: Path) -> None:
    out = tmp_path / "calib.json"
    with serve_in_thread(create_app()) as url:
        config = _config(tmp_path, url, "pagereader/embedded")
        args = ["plan", "calibrate", "--config", str(config), "-o", str(out), "--crop", "400x240"]
        result = runner.invoke(root, args)
    assert result.exit_code == 0, result.output
    assert "parser (pagereader/embedded): fixed" in result.output
    entry = json.loads(out.read_text(encoding="utf-8"))["endpoints"]["parser"]
    assert entry["catalog_key"] is None
    assert len(entry["samples"]) == 4 + len(BATCH_ROUNDS)
    assert all(s["prompt_tokens"] > 0 and s["seconds"] > 0 for s in entry["samples"])
    # The engine name "parser" is a catalog alias, so the plan can still use the constants.
    assert set(read_calibration(out)) == {"paddleocr-vl"}


def test_calibrate_refuses_a_config_without_openai_engines(tmp_path: Path) -> None:
    config = tmp_path / "empty.toml"
    config.write_text('[engines.ocr]\nkind = "rapidocr"\n', encoding="utf-8")
    result = runner.invoke(root, ["plan", "calibrate", "--config", str(config)])
    assert result.exit_code == 2
    assert "no openai engines to calibrate" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    result = runner.invoke(root, ["plan", "--calibration", str(bad)])
    assert result.exit_code == 2
    assert "not a calibration file" in result.output
