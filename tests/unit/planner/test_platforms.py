"""Apple silicon, Cloud TPU and the added GPUs, each figure held against arithmetic from the
published numbers written here (Apple Tech Specs, Google Cloud TPU pages, vendor datasheets,
the models' configs), not against the planner's own constants."""

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
from pagereader.planner import PlanReport, get_gpu, get_model, parse_gpus
from pagereader.planner.memory import weights_bytes
from pagereader.planner.timeconst import APPLE

root = typer.Typer()
root.add_typer(plan.app, name="plan")
runner = CliRunner()
GIB = 1024**3

# Qwen3-VL-8B: 8.77B parameters, vision tower 0.5764B, vocab 151936 x hidden 4096 (untied),
# 36 layers, 8 KV heads of 128: KV 2 x 36 x 8 x 128 x 2 bytes a token.
Q8B_PARAMS, Q8B_VISION, Q8B_EMBED = 8.77e9, 0.5764e9, 151936 * 4096
Q8B_KV = 2 * 36 * 8 * 128 * 2
# A page at max_pixels 1,003,520 is 962 visual tokens at factor 32; a figure prompt 256 more.
Q8B_FIGURE_CONTEXT = 962 + 256
# MLX affine 4-bit: 4 bits + a 16-bit scale and a 16-bit bias a group of 64 = 4.5 bits.
MLX4 = 4.5 / 8


def plan_json(*args: str) -> PlanReport:
    result = runner.invoke(root, ["plan", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return PlanReport.model_validate_json(result.output)


def test_mlx_weights_from_parameter_counts_against_the_design_notes() -> None:
    q8b = (Q8B_PARAMS - Q8B_VISION) * MLX4 + Q8B_VISION * 2
    assert weights_bytes(get_model("qwen3-vl-8b"), "q4") == pytest.approx(q8b)
    # 32B: 33.4B, vision 0.5953B.
    q32b = (33.4e9 - 0.5953e9) * MLX4 + 0.5953e9 * 2
    assert weights_bytes(get_model("qwen3-vl-32b"), "q4") == pytest.approx(q32b)
    # The design notes: "about 5 GB" and "about 18 GB": the 4-bit language weights agree
    # (4.6 and 18.5 GB); the 16-bit vision tower adds 1.2 GB to each.
    language_8b = weights_bytes(get_model("qwen3-vl-8b"), "q4") - Q8B_VISION * 2
    language_32b = weights_bytes(get_model("qwen3-vl-32b"), "q4") - 0.5953e9 * 2
    assert abs(language_8b / 1e9 - 5) < 0.5
    assert abs(language_32b / 1e9 - 18) < 0.5
    q8 = (Q8B_PARAMS - Q8B_VISION) * 8.5 / 8 + Q8B_VISION * 2
    assert weights_bytes(get_model("qwen3-vl-8b"), "q8") == pytest.approx(q8)


def test_m1_max_plan_is_bandwidth_and_compute_arithmetic() -> None:
    report = plan_json("--gpus", "1xM1-Max-64")
    lay = report.layouts[0]
    assert lay.platform == "apple" and lay.server == "mlx-vlm"
    general = next(i for i in lay.instances if i.model == "qwen3-vl-8b")
    assert general.dtype == "q4"
    # Apple: M1 Max 400 GB/s. A token reads the decoder and LM head (not the input
    # embedding) at 4.5 bits, and one figure's KV.
    read = (Q8B_PARAMS - Q8B_VISION - Q8B_EMBED) * MLX4 + Q8B_FIGURE_CONTEXT * Q8B_KV
    assert general.decode_tokens_per_s_bound == pytest.approx(400e9 / read, abs=0.05)
    assert 89 < general.decode_tokens_per_s_bound < 91
    path = lay.critical_path
    assert path is not None and path.serial
    # One GPU: the groups add up.
    total = sum(t.seconds for t in path.cpu) + sum(g.seconds for g in path.groups)
    assert path.seconds == pytest.approx(total, abs=2e-3)
    figure = next(g for g in path.groups if g.engine.startswith("qwen3-vl-8b"))
    prefill = next(t.seconds for t in figure.terms if t.name == "prefill")
    # 2 x decoder parameters x tokens + causal attention + the LM head once, at 10.4 TFLOPS
    # (Apple's M1 Max figure) x 0.67 (pp512 of an M1 Max run: 499.58 x 2 x 6.98e9 / 10.4e12).
    decoder = Q8B_PARAMS - Q8B_VISION - 2 * Q8B_EMBED
    n = Q8B_FIGURE_CONTEXT
    flops = 2 * decoder * n + 2 * n * n * 4096 * 36 + 2 * Q8B_EMBED
    assert pytest.approx(499.58 * 2 * 6.98e9 / 10.4e12, abs=0.005) == 0.67
    assert APPLE.prefill_efficiency.value == 0.67
    # tg128 46.2 tokens/s x about 4.7 GB read a token, of 400 GB/s.
    assert APPLE.bandwidth_efficiency.value == pytest.approx(46.2 * 4.7e9 / 400e9, abs=0.01)
    assert prefill == pytest.approx(flops / (10.4e12 * 0.67), rel=1e-3)
    # The verdict is computed: far above five seconds, and the warnings say what a Mac is for.
    assert not lay.meets_target and lay.slide_s > 10
    assert any("development and evaluation" in w for w in lay.warnings)
    assert any("measure the budget on the GPUs" in w for w in lay.warnings)


def test_mac_memory_is_the_wired_share_of_unified_memory() -> None:
    m1 = get_gpu("m1-max-64")
    assert m1.planned_bytes == pytest.approx(0.75 * 64 * GIB)
    small = get_gpu("m1-pro-16")
    assert small.planned_bytes == pytest.approx(2 / 3 * 16 * GIB)
    # M4 Max with 36 GB is the 32-core bin at 410 GB/s; no Apple TFLOPS: 32 x 13.6 / 38.
    m4 = get_gpu("m4-max-36")
    assert m4.bandwidth_gbs == 410
    assert m4.bf16_tflops == pytest.approx(32 * 13.6 / 38, abs=0.01)
    assert get_gpu("m4-max-128").bandwidth_gbs == 546
    assert get_gpu("m3-max-96").bandwidth_gbs == 300
    assert get_gpu("m2-ultra-192").bf16_tflops == 27.2


def test_mac_commands_and_config(tmp_path: Path) -> None:
    out = tmp_path / "mac.toml"
    result = runner.invoke(root, ["plan", "--gpus", "Apple M1 Max", "--emit-config", str(out)])
    assert result.exit_code == 0, result.output
    report = plan_json("--gpus", "Apple M1 Max")
    lay = report.layouts[0]
    assert lay.gpus == "1xM1-MAX-64"
    assert any("read as M1 Max 64 GB" in w for w in lay.warnings)
    command = next(i.command for i in lay.instances if i.model == "qwen3-vl-8b")
    assert command.startswith("mlx_vlm.server --model mlx-community/Qwen3-VL-8B-Instruct-4bit")
    # Flags of mlx-vlm 0.7.10's server (mlx_vlm/server/cli.py).
    flags = {w for w in command.split() if w.startswith("--")}
    mlx_flags = {"--model", "--host", "--port", "--min-pixels", "--max-pixels", "--max-num-seqs"}
    assert flags <= mlx_flags
    assert "CUDA_VISIBLE_DEVICES" not in command
    options = load_config(out)
    general = options.engines["general"]
    assert isinstance(general, OpenAIEngineOptions)
    assert general.model == "mlx-community/Qwen3-VL-8B-Instruct-4bit"
    assert general.base_url.startswith("http://127.0.0.1:800") and general.base_url.endswith("/v1")
    data = tomllib.loads(out.read_text(encoding="utf-8"))
    assert data["budget"]["page_deadline_s"] >= 2 * lay.slide_s


def test_tpu_places_the_confirmed_fallback_and_says_why() -> None:
    lay = plan_json("--gpus", "8xTPU-v6e").layouts[0]
    assert lay.platform == "tpu"
    assert {i.model for i in lay.instances} == {"qwen2.5-vl-7b"}
    assert len(lay.instances) == 8  # one server a chip: a chip is not shared
    joined = " ".join(lay.warnings)
    assert "qwen3-vl-8b on TPU: listed untested" in joined
    assert "2026-10-22" in joined and "tpu-inference" in joined
    assert "Gemma 4" in joined
    # Google: v6e 1,640 GB/s. Qwen2.5-VL-7B: 8.29B, vision 0.6766B, vocab 152064 x 3584,
    # 28 layers, 4 KV heads of 128; a figure is 1260 visual tokens + 256 at max_pixels 1,003,520.
    read = (8.29e9 - 0.6766e9 - 152064 * 3584) * 2 + (1260 + 256) * 2 * 28 * 4 * 128 * 2
    assert lay.instances[0].decode_tokens_per_s_bound == pytest.approx(1640e9 / read, abs=0.05)
    assert lay.instances[0].command.startswith("TPU_VISIBLE_CHIPS=0 ")


def test_tpu_v5e_needs_two_chips_for_a_7b_at_bf16() -> None:
    # 16 GB a v5e chip x 0.9 is below 8.29B x 2 bytes: tensor parallel over two chips.
    assert 16e9 * 0.9 < 8.29e9 * 2
    lay = plan_json("--gpus", "4xTPU-v5e").layouts[0]
    assert [(i.tp, i.cards) for i in lay.instances] == [(2, [0, 1]), (2, [2, 3])]
    command = lay.instances[1].command
    assert "TPU_VISIBLE_CHIPS=2,3 TPU_CHIPS_PER_PROCESS_BOUNDS=1,2,1" in command
    assert "TPU_PROCESS_PORT=8477" in command and "--tensor-parallel-size 2" in command
    assert "vllm serve Qwen/Qwen2.5-VL-7B-Instruct" in command


def test_tpu_v7x_counts_two_devices_a_chip() -> None:
    lay = plan_json("--gpus", "tpu-v7x-1").layouts[0]
    assert "--tensor-parallel-size 2" in lay.instances[0].command
    assert any("TensorCores a chip" in w for w in lay.warnings)


@pytest.mark.parametrize(
    ("name", "key", "count"),
    [
        ("Apple M1 Max", "m1-max-64", 1),
        ("m1-max-64", "m1-max-64", 1),
        ("1xM1-Max-64", "m1-max-64", 1),
        ("A100", "a100-80", 1),
        ("tpu-v6e-8", "tpu-v6e", 8),
        ("8xTPU-v6e", "tpu-v6e", 8),
        ("4xTPU-v5e", "tpu-v5e", 4),
        ("v5litepod-4", "tpu-v5e", 4),
        ("1xL4", "l4", 1),
        ("1xRTX4090", "rtx4090", 1),
        ("RTX 5090", "rtx5090", 1),
        ("2xH100-PCIe", "h100-pcie", 2),
        ("H100 SXM", "h100-80", 1),
        ("1xMI300X", "mi300x", 1),
        ("1xB200", "b200", 1),
    ],
)
def test_names_as_people_write_them(name: str, key: str, count: int) -> None:
    (found,) = parse_gpus(name)
    assert (found.gpu.key, found.count) == (key, count)


def test_a100_alone_means_80_gb_with_a_note() -> None:
    lay = plan_json("--gpus", "1xA100").layouts[0]
    assert any("'A100' read as the 80 GB card" in w for w in lay.warnings)


def test_list_holds_the_published_figures() -> None:
    result = runner.invoke(root, ["plan", "--list", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {r["key"]: r for r in json.loads(result.output)}
    published = {
        "l4": (300, 121),
        "l40s": (864, 362),
        "rtx4090": (1008, 165.2),
        "rtx5090": (1792, 209.5),
        "h100-pcie": (2000, 756),
        "h100-80": (3350, 989),
        "h200": (4800, 989),
        "b200": (8000, 2250),
        "mi300x": (5300, 1307.4),
        "mi325x": (6000, 1307.4),
        "tpu-v5e": (819, 197),
        "tpu-v6e": (1640, 918),
        "tpu-v7x": (7370, 2307),
        "m1-max-64": (400, 10.4),
        "m1-ultra-128": (800, 21),
    }
    for key, (gbs, tflops) in published.items():
        assert (rows[key]["bandwidth_gbs"], rows[key]["tflops"]) == (gbs, tflops), key
    assert rows["tpu-v7x"]["memory_gb"] == 192 and rows["mi325x"]["memory_gb"] == 256
    table = runner.invoke(root, ["plan", "--list"])
    assert table.exit_code == 0 and "m1-max-64" in table.output


@pytest.mark.parametrize(
    "gpus", ["1xM1-Max-64", "8xTPU-v6e", "4xTPU-v5e", "1xL4", "1xRTX4090", "1xMI300X", "1xB200"]
)
@pytest.mark.parametrize("fmt", ["table", "json", "markdown"])
def test_every_platform_prints_a_sized_plan_with_commands(gpus: str, fmt: str) -> None:
    result = runner.invoke(root, ["plan", "--gpus", gpus, "--format", fmt])
    assert result.exit_code == 0, result.output
    server = "mlx_vlm.server --model" if "M1" in gpus else "vllm serve"
    assert server in result.output
    assert "Critical path of a slide" in result.output or fmt == "json"
