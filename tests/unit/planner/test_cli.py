"""`pagereader plan` through Typer, mounted the way the root app mounts it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pagereader.cli import plan
from pagereader.config.file import load_config
from pagereader.config.options import OpenAIEngineOptions
from pagereader.planner import ModelReport, PlanReport
from pagereader.planner.reporting import PathReport

root = typer.Typer()
root.add_typer(plan.app, name="plan")
runner = CliRunner()


def test_plan_model_json_pins_the_figures_and_follows_the_schema() -> None:
    result = runner.invoke(
        root, ["plan", "model", "qwen3-vl-32b", "--image", "1654x2339", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    ModelReport.model_validate(data)
    assert data["kv_bytes_per_token"] == {"bf16": 262144, "fp8": 131072}
    assert data["weights_gb"] == {"bf16": 66.8, "fp8": 33.4, "int4": 18.37}
    assert data["visual_tokens"] == 3796
    assert data["image"]["resized_width"] == 1664
    assert data["image"]["resized_height"] == 2336


def test_plan_model_max_pixels() -> None:
    result = runner.invoke(
        root,
        [
            "plan",
            "model",
            "paddleocr-vl",
            "--image",
            "1654x2339",
            "--max-pixels",
            "1003520",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["visual_tokens"] == 1260


def test_plan_json_has_table_layout_commands_and_notes() -> None:
    result = runner.invoke(root, ["plan", "--gpus", "2xA100-40,2xA100-80", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = PlanReport.model_validate_json(result.output)
    assert report.schema_version == 1
    assert report.gpus == ["2xA100-40", "2xA100-80"]
    assert len(report.table) == 7 * 2
    cells = {(c.model, c.gpus): c for c in report.table}
    assert cells[("qwen3-vl-235b-a22b", "2xA100-40")].cell == "no"
    assert cells[("qwen3-vl-32b", "2xA100-40")].dtype == "int4"
    first = report.layouts[0]
    assert [i.model for i in first.instances] == ["paddleocr-vl", "qwen3-vl-8b"]
    assert "vllm serve PaddlePaddle/PaddleOCR-VL" in first.instances[0].command
    assert any("no FP8 tensor cores" in w for w in first.warnings)
    assert {n.name.split()[0] for n in report.notes} == {"TPU", "Apple"}
    schema = PlanReport.model_json_schema()
    assert {"table", "layouts", "notes", "schema_version"} <= set(schema["properties"])


def test_plan_table_and_markdown_formats() -> None:
    table = runner.invoke(root, ["plan", "--gpus", "2xA100-40"])
    assert table.exit_code == 0, table.output
    assert "What fits where" in table.output
    assert "qwen3-vl-8b" in table.output
    md = runner.invoke(
        root,
        ["plan", "--gpus", "4xA100-40", "--models", "parser,qwen3-vl-8b", "--format", "markdown"],
    )
    assert md.exit_code == 0, md.output
    assert md.output.startswith("| Model | BF16 weights | INT4 weights | 4xA100-40 |")
    assert "| qwen3-vl-8b | 17.5 GB | 4.8 GB | one per card (45 req) |" in md.output


def test_emit_config_writes_a_loadable_pipeline_config(tmp_path: Path) -> None:
    out = tmp_path / "pagereader.toml"
    result = runner.invoke(
        root, ["plan", "--gpus", "2xA100-40", "--target-s", "5", "--emit-config", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = tomllib.loads(out.read_text(encoding="utf-8"))
    assert sorted(data["engines"]) == ["general", "parser"]
    assert data["engines"]["parser"]["prompt_style"] == "paddleocr-vl"
    assert data["routes"]["*.figure"] == ["general"]
    assert data["budget"]["page_deadline_s"] == 5.0
    options = load_config(out)
    parser = options.engines["parser"]
    assert isinstance(parser, OpenAIEngineOptions)
    assert parser.base_url == "http://127.0.0.1:8000/v1"
    assert parser.model == "PaddlePaddle/PaddleOCR-VL"
    assert parser.max_concurrency == 64
    assert options.routes["scan.text"] == ("parser", "rapidocr")
    assert options.budget.page_deadline_s == 5.0


def test_bad_input_exits_2_with_a_clear_message() -> None:
    result = runner.invoke(root, ["plan", "--gpus", "2xA100-41"])
    assert result.exit_code == 2
    assert "unknown GPU 'A100-41'" in result.output
    result = runner.invoke(root, ["plan", "model", "qwen3-vl-8b", "--image", "big"])
    assert result.exit_code == 2
    assert "cannot read image size 'big'" in result.output
    result = runner.invoke(
        root, ["plan", "--gpus", "2xA100-40,2xA100-80", "--emit-config", "x.toml"]
    )
    assert result.exit_code == 2
    assert "exactly one GPU set" in result.output


def test_plan_prints_the_critical_path_by_term_with_sources() -> None:
    result = runner.invoke(root, ["plan", "--gpus", "2xA100-40", "--format", "json"])
    assert result.exit_code == 0, result.output
    path = PlanReport.model_validate_json(result.output).layouts[0].critical_path
    assert path is not None
    assert [t.name for t in path.cpu] == ["render", "classify", "layout"]
    terms = {g.engine: [t.name for t in g.terms] for g in path.groups}
    assert terms["paddleocr-vl x8"] == ["overhead", "preprocess", "vision", "prefill", "decode"]
    named = {c.name: c for c in path.constants}
    for group in path.groups:
        for term in group.terms:
            assert set(term.uses) <= set(named), term
        assert group.seconds == pytest.approx(sum(t.seconds for t in group.terms), abs=2e-3)
    assert named["gpu_bandwidth"].value == 1555
    assert named["prefill_efficiency"].source.startswith("measured: h200_vlm_facts.json")
    assert named["cpu_render_s"].source.startswith("assumed")
    table = runner.invoke(root, ["plan", "--gpus", "2xA100-40"])
    assert "Critical path of a slide: 5.25 s (vllm constants)" in table.output
    assert "- decode_floor_ms_per_layer = 0.105 ms a decoder layer: measured" in table.output


def test_plan_takes_cpu_stages_from_a_bench_timings_file(tmp_path: Path) -> None:
    timings = tmp_path / "timings.json"
    stages = {"render": 0.5, "classify": 0.05, "layout": 1.0, "recognize": 9.0}
    timings.write_text(json.dumps({"pages": [{"stages": stages}]}), encoding="utf-8")
    args = ["plan", "--gpus", "2xA100-40", "--format", "json"]
    base = PlanReport.model_validate_json(runner.invoke(root, args).output)
    result = runner.invoke(root, [*args, "--timings", str(timings)])
    assert result.exit_code == 0, result.output
    path = PlanReport.model_validate_json(result.output).layouts[0].critical_path
    before = base.layouts[0].critical_path
    assert path is not None and before is not None
    assert [t.seconds for t in path.cpu] == [0.5, 0.05, 1.0]
    assert path.seconds == pytest.approx(before.seconds + (1.55 - 0.42), abs=2e-3)
    missing = runner.invoke(root, [*args, "--timings", str(tmp_path / "none.json")])
    assert missing.exit_code == 2
    assert "timings file not found" in missing.output


def test_plan_workload_options_change_the_terms_they_should() -> None:
    args = ["plan", "--gpus", "2xA100-40", "--format", "json"]
    base = PlanReport.model_validate_json(runner.invoke(root, args).output)
    short = runner.invoke(root, [*args, "--figure-tokens", "128", "--blocks", "4"])
    assert short.exit_code == 0, short.output
    before, after = (
        r.layouts[0].critical_path for r in (base, PlanReport.model_validate_json(short.output))
    )
    assert before is not None and after is not None
    assert [g.engine for g in after.groups] == ["paddleocr-vl x4", "qwen3-vl-8b x1"]

    def decode(path: PathReport, engine: str) -> float:
        group = next(g for g in path.groups if g.engine == engine)
        return next(t.seconds for t in group.terms if t.name == "decode")

    # Same step at batch 1, half the steps.
    assert decode(after, "qwen3-vl-8b x1") == pytest.approx(
        decode(before, "qwen3-vl-8b x1") / 2, rel=0.01
    )
    assert after.seconds < before.seconds
