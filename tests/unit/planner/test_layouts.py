"""The what-fits-where cells, the recommended layouts, the serve commands and the config."""

from __future__ import annotations

import tomllib

import pytest

from pagereader.errors import ConfigError
from pagereader.planner import emit_config, fit, get_model, parse_gpus, recommend, serve_command


def one(spec: str):  # type: ignore[no-untyped-def]
    return parse_gpus(spec)[0]


def test_parse_gpus_reads_sets_and_rejects_unknown_kinds() -> None:
    sets = parse_gpus("2xA100-40, 4x a100-80,H100")
    assert [(s.count, s.gpu.key) for s in sets] == [(2, "a100-40"), (4, "a100-80"), (1, "h100-80")]
    with pytest.raises(ConfigError, match="unknown GPU 'B999'"):
        parse_gpus("2xB999")
    with pytest.raises(ConfigError, match="a plan sizes one Mac"):
        parse_gpus("2xM1-Max-64")
    with pytest.raises(ConfigError, match="unknown GPU 'M1-Max-48'"):
        parse_gpus("M1-Max-48")
    with pytest.raises(ConfigError, match=r"outside 1\.\.64"):
        parse_gpus("0xA100-40")
    with pytest.raises(ConfigError, match="unknown model"):
        get_model("gpt-9")


@pytest.mark.parametrize(
    ("model", "gpus", "label"),
    [
        ("qwen3-vl-8b", "2xA100-40", "one per card"),
        ("qwen3-vl-4b", "2xA100-80", "two per card"),
        ("qwen3-vl-4b", "2xA100-40", "one per card"),
        ("qwen3-vl-32b", "2xA100-40", "INT4 on one card"),
        ("qwen3-vl-32b", "4xA100-40", "TP4"),
        ("qwen3.5-27b", "2xA100-40", "TP2"),
        ("qwen3-vl-235b-a22b", "4xA100-40", "INT4 TP4"),
    ],
)
def test_fit_labels_match_the_seed_where_it_is_right(model: str, gpus: str, label: str) -> None:
    f = fit(get_model(model), one(gpus))
    assert f.option is not None
    assert f.option.label() == label


def test_235b_does_not_fit_two_40gb_cards() -> None:
    assert fit(get_model("qwen3-vl-235b-a22b"), one("2xA100-40")).cell() == "no"


def test_fp8_is_offered_only_where_fp8_tensor_cores_exist() -> None:
    on_a100 = fit(get_model("qwen3-vl-32b"), one("1xA100-80"))
    on_h100 = fit(get_model("qwen3-vl-32b"), one("1xH100"))
    assert on_a100.option is not None and on_a100.option.dtype == "bf16"
    assert on_a100.alternative is not None and on_a100.alternative.dtype == "int4"
    assert on_h100.alternative is not None and on_h100.alternative.dtype == "fp8"


def test_two_40gb_cards_put_the_parser_on_card_0_and_the_8b_on_card_1() -> None:
    layout = recommend([get_model("parser"), get_model("qwen3-vl-8b")], one("2xA100-40"), 5.0)
    got = [(i.model.key, i.dtype, i.tp, i.cards, i.port) for i in layout.instances]
    assert got == [
        ("paddleocr-vl", "bf16", 1, [0], 8000),
        ("qwen3-vl-8b", "bf16", 1, [1], 8001),
    ]
    # The 8B's 256-token figure description is bandwidth-bound on an A100 (about 18 ms a
    # step): the slide misses 5 s by a little, and the warning names the slow model.
    assert layout.path is not None and layout.path.bottleneck is not None
    assert layout.path.bottleneck.label == "qwen3-vl-8b x1"
    assert 5.0 < layout.slide_s < 5.5
    assert not layout.meets_target
    assert any("qwen3-vl-8b x1 is the slowest" in w for w in layout.warnings)


def test_four_40gb_cards_replicate_both_models() -> None:
    layout = recommend([get_model("parser"), get_model("qwen3-vl-8b")], one("4xA100-40"), 5.0)
    keys = sorted((i.cards[0], i.model.key) for i in layout.instances)
    assert [k for _, k in keys] == ["paddleocr-vl"] * 2 + ["qwen3-vl-8b"] * 2


def test_80gb_cards_share_a_card_and_take_the_32b_at_int4() -> None:
    models = [get_model(k) for k in ("parser", "qwen3-vl-8b", "qwen3-vl-32b")]
    layout = recommend(models, one("2xA100-80"), 5.0)
    by_card: dict[int, list[str]] = {}
    for inst in layout.instances:
        by_card.setdefault(inst.cards[0], []).append(f"{inst.model.key}:{inst.dtype}")
        assert 0 < inst.utilization <= 0.9
    assert len(by_card) == 2
    assert sorted(x for keys in by_card.values() for x in keys) == [
        "paddleocr-vl:bf16",
        "qwen3-vl-32b:int4",
        "qwen3-vl-8b:bf16",
    ]
    for card in by_card:
        share = sum(i.utilization for i in layout.instances if i.cards[0] == card)
        assert share <= 0.9 + 1e-9
    # No precision of the 32B describes a figure in 5 s on an A100 80: INT4 (a quarter of the
    # bytes a step) is the fastest, so it is taken, and the slide misses the target.
    assert layout.path is not None and layout.path.bottleneck is not None
    assert layout.path.bottleneck.label == "qwen3-vl-32b x1"
    assert not layout.meets_target


def test_serve_command_for_paddleocr_vl_carries_the_recipe_flags() -> None:
    layout = recommend([get_model("parser")], one("1xA100-40"), 5.0)
    cmd = serve_command(layout.instances[0], layout.gpus.gpu)
    assert cmd.startswith("CUDA_VISIBLE_DEVICES=0 vllm serve PaddlePaddle/PaddleOCR-VL")
    for flag in (
        "--trust-remote-code",
        "--max-num-batched-tokens 16384",
        "--no-enable-prefix-caching",
        "--mm-processor-cache-gb 0",
        "--tensor-parallel-size 1",
        "--max-model-len 16384",
        "--max-num-seqs 64",
        "--gpu-memory-utilization 0.90",
        """--mm-processor-kwargs '{"min_pixels": 112896, "max_pixels": 2822400}'""",
        """--limit-mm-per-prompt '{"image": 1, "video": 0}'""",
        "--trust-request-mm-kwargs",
    ):
        assert flag in cmd


def test_emitted_config_carries_each_engines_start_commands_and_image_factor() -> None:
    import tomllib

    from pagereader.planner.vllm import START_PREFIX, emit_config

    layout = recommend(
        [get_model("qwen2.5-vl-7b"), get_model("qwen3-vl-8b")], one("2xA100-80"), 5.0
    )
    text = emit_config(layout)
    starts = [line for line in text.splitlines() if line.startswith(START_PREFIX)]
    assert len(starts) == len(layout.instances)
    for inst in layout.instances:
        line = next(s for s in starts if f"--port {inst.port}" in s)
        assert f"vllm serve {inst.model.repo} " in line
        assert "--trust-request-mm-kwargs" in line
    engines = tomllib.loads(text)["engines"]
    factors = {e["model"]: e["image_factor"] for e in engines.values()}
    assert factors == {"Qwen/Qwen2.5-VL-7B-Instruct": 28, "Qwen/Qwen3-VL-8B-Instruct": 32}


def test_gdn_model_on_hopper_gets_the_triton_backend_and_warnings() -> None:
    from pagereader.planner.vllm import layout_warnings

    layout = recommend([get_model("qwen3.5-35b-a3b")], one("1xH100"), 5.0)
    cmd = serve_command(layout.instances[0], layout.gpus.gpu)
    assert "--gdn-prefill-backend triton" in cmd
    warnings = " ".join(layout_warnings(layout))
    assert "JIT-compiles the FlashInfer GDN prefill kernel" in warnings
    assert "Instruct (non-thinking)" in warnings
    a100 = recommend([get_model("qwen3-vl-8b")], one("1xA100-40"), 5.0)
    assert "no FP8 tensor cores" in layout_warnings(a100)[0]
    assert "--gdn-prefill-backend" not in serve_command(a100.instances[0], a100.gpus.gpu)


def test_int4_command_uses_awq_marlin() -> None:
    layout = recommend([get_model("qwen3-vl-32b")], one("1xA100-40"), 5.0)
    inst = layout.instances[0]
    assert inst.dtype == "int4"
    cmd = serve_command(inst, layout.gpus.gpu)
    assert "--quantization awq_marlin" in cmd
    assert "--served-model-name Qwen/Qwen3-VL-32B-Instruct" in cmd


def test_emitted_config_has_the_pipeline_schema() -> None:
    layout = recommend([get_model("parser"), get_model("qwen3-vl-8b")], one("2xA100-40"), 4.0)
    data = tomllib.loads(emit_config(layout))
    assert set(data) == {"engines", "routes", "budget"}
    parser, general = data["engines"]["parser"], data["engines"]["general"]
    assert parser == {
        "kind": "openai",
        "base_url": "http://127.0.0.1:8000/v1",
        "model": "PaddlePaddle/PaddleOCR-VL",
        "prompt_style": "paddleocr-vl",
        "max_concurrency": 64,
        "timeout_s": 60,
        "retries": 2,
        "image_factor": 28,
    }
    assert general["image_factor"] == 32
    assert general["base_url"] == "http://127.0.0.1:8001/v1"
    assert general["model"] == "Qwen/Qwen3-VL-8B-Instruct"
    assert general["prompt_style"] == "qwen-vl"
    assert data["routes"] == {
        "digital.text": ["textlayer"],
        "scan.text": ["parser", "rapidocr"],
        "dense.*": ["parser", "rapidocr"],
        "*.figure": ["general"],
        "*.table": ["parser", "rapidocr"],
    }
    assert data["budget"] == {"page_deadline_s": 4.0}
