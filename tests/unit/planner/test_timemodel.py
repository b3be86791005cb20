"""The time model against the real H200 measurement in ../shared/measured/ (read relative to
the repository root; missing files fail the test), and its terms computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pagereader.planner import get_gpu, get_model
from pagereader.planner.measured import (
    FACTS,
    compare_prefills,
    compare_steps,
    fit_eager,
    load_prefills,
    load_steps,
)
from pagereader.planner.slide import Served, critical_path
from pagereader.planner.timeconst import VLLM, cpu_stages_from_timings
from pagereader.planner.timemodel import decode_step_seconds, prefill_seconds

from shared_data import shared


@pytest.fixture(scope="module")
def folder() -> Path:
    measured = shared("measured")
    assert (measured / FACTS).is_file(), f"the H200 measurement is missing: {measured}"
    return measured


def test_every_measured_prefill_is_predicted_within_25_percent(folder: Path) -> None:
    k = fit_eager(folder)
    prefills = load_prefills(folder)
    assert {p.model.key for p in prefills} >= {"paddleocr-vl", "qwen3-vl-8b", "qwen3-vl-32b"}
    rows = compare_prefills(prefills, k)
    moe = "qwen3-vl-30b-a3b"
    checked = [r for r in rows if not (r.label.startswith(moe) and "vision" not in r.label)]
    assert len(checked) >= 4 * 2 * 3 + 2
    off = [f"{r.label}: {r.measured_ms:.1f} vs {r.predicted_ms:.1f}" for r in checked]
    assert all(0.75 <= r.ratio <= 1.25 for r in checked), off
    # The MoE's eager language prefill loops over 128 experts a layer in Python; the model
    # (fused experts) must stay below it, never above.
    for r in rows:
        if r.label.startswith(moe) and "language" in r.label:
            assert r.predicted_ms < r.measured_ms


def test_the_parser_prefill_is_no_longer_six_milliseconds(folder: Path) -> None:
    """PaddleOCR-VL's page prefill measured 54 ms (33 ms vision); FLOPs alone give ~6 ms."""
    k = fit_eager(folder)
    (row,) = [
        r
        for r in compare_prefills(load_prefills(folder), k)
        if r.label == "paddleocr-vl batch 1 total"
    ]
    assert row.measured_ms == pytest.approx(54.36, abs=0.01)
    assert row.predicted_ms == pytest.approx(row.measured_ms, rel=0.1)


def test_decode_steps_with_a_per_layer_floor_match_the_cuda_graph_measurement(
    folder: Path,
) -> None:
    rows = compare_steps(load_steps(folder), fit_eager(folder))
    assert len(rows) == 6
    assert all(0.85 <= r.ratio <= 1.15 for r in rows), [(r.label, r.ratio) for r in rows]


def test_the_planner_defaults_are_the_fit_of_the_measurement(folder: Path) -> None:
    """The constants written in timeconst.py are what the file gives (rounded)."""
    k = fit_eager(folder)
    for name in (
        "vision_efficiency",
        "vision_half_patches",
        "prefill_efficiency",
        "decode_floor_ms_per_layer",
    ):
        assert getattr(VLLM, name).value == pytest.approx(getattr(k, name).value, rel=0.05), name


def test_paddleocr_vl_parameters_are_what_the_gpu_holds(folder: Path) -> None:
    facts = json.loads((folder / FACTS).read_text(encoding="utf-8"))["models"]["paddleocr-vl"]
    model = get_model("paddleocr-vl")
    assert model.params_b == pytest.approx(facts["params"]["total"] / 1e9, rel=0.002)
    assert model.vision_params_b == pytest.approx(facts["params"]["vision_total"] / 1e9, rel=0.002)
    # The checkpoint's 0.96B: the unused SigLIP pooling head and packing position embedding.
    head = 1152 + (4 * 1152 * 1152 + 4 * 1152) + 2 * 1152 + (2 * 1152 * 4304 + 4304 + 1152)
    packing = 32768 * 1152
    assert (facts["params"]["total"] + head + packing) / 1e9 == pytest.approx(0.9586, abs=1e-4)


def test_prefill_and_decode_terms_by_hand() -> None:
    model, a100 = get_model("qwen3-vl-8b"), get_gpu("a100-40")
    # 8B decode step at batch 1 on an A100 40: 36 layers x 0.105 ms, plus decoder and LM head
    # (7.5684B + 0.6223B untied head) x 2 bytes over 1555 GB/s x 0.7, plus 1,000 tokens of KV
    # (147,456 B each), plus 2 x 8.1907e9 FLOPs over 312 TFLOPS x 0.53.
    weights = (8.7671e9 - 0.5764e9 - 151936 * 4096) * 2
    kv = 1000 * 147456
    expected = 36 * 0.105e-3 + (weights + kv) / (1555e9 * 0.7) + 2 * weights / 2 / (312e12 * 0.53)
    got = decode_step_seconds(model, a100, "bf16", 1, VLLM, 1, 1000)
    assert got == pytest.approx(expected, rel=0.01)
    # The parser's prefill of 8 x 300 tokens is launch-bound: 18 layers x 0.105 ms.
    parser = get_model("paddleocr-vl")
    assert prefill_seconds(parser, get_gpu("h200"), 1, VLLM, 1, 300) == pytest.approx(18 * 0.105e-3)


def test_critical_path_is_cpu_then_the_slowest_engine() -> None:
    a100 = get_gpu("a100-40")
    served = [Served(get_model("parser"), "bf16", 1), Served(get_model("qwen3-vl-8b"), "bf16", 1)]
    path = critical_path(served, a100)
    parser, general = path.groups
    assert parser.label == "paddleocr-vl x8" and general.label == "qwen3-vl-8b x1"
    assert path.bottleneck is general
    cpu = sum(t.seconds for t in path.cpu)
    assert path.seconds == pytest.approx(cpu + general.seconds)
    decode = next(t for t in general.terms if t.name == "decode")
    assert decode.seconds > 0.8 * general.seconds
    assert set(decode.uses) <= set(path.constants)
    assert path.constants["gpu_bandwidth"].source == "datasheet: A100 40GB"


def test_cpu_stages_come_from_a_bench_timings_file(tmp_path: Path) -> None:
    pages = [
        {"stages": {"render": r, "classify": 0.01, "layout": lay}}
        for r, lay in ((0.1, 0.3), (0.2, 0.5), (0.4, 0.4))
    ]
    path = tmp_path / "timings.json"
    path.write_text(json.dumps({"pages": pages, "summary": {}}), encoding="utf-8")
    cpu = cpu_stages_from_timings(path)
    assert (cpu.render_s.value, cpu.classify_s.value, cpu.layout_s.value) == (0.2, 0.01, 0.4)
    assert cpu.render_s.source == "measured: median of 3 pages in timings.json"
