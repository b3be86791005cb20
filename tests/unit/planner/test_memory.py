"""Pinned figures of the memory math: KV per token, weights, visual tokens."""

from __future__ import annotations

import pytest

from pagereader.errors import ConfigError
from pagereader.pixels import smart_resize
from pagereader.planner import get_model, kv_bytes_per_token, linear_state_bytes, visual_tokens
from pagereader.planner.hardware import get_gpu
from pagereader.planner.memory import budget, weights_bytes

KIB = 1024


def test_qwen3_vl_32b_kv_is_256_kib_a_token() -> None:
    model = get_model("qwen3-vl-32b")
    assert (model.kv_layers, model.kv_heads, model.head_dim) == (64, 8, 128)
    assert kv_bytes_per_token(model) == 2 * 64 * 8 * 128 * 2 == 256 * KIB
    assert kv_bytes_per_token(model, "fp8") == 128 * KIB


def test_qwen35_35b_a3b_keeps_kv_in_10_of_40_layers() -> None:
    model = get_model("Qwen/Qwen3.5-35B-A3B")
    assert (model.layers, model.kv_layers, model.kv_heads, model.head_dim) == (40, 10, 2, 256)
    assert model.hybrid
    assert kv_bytes_per_token(model) == 20 * KIB
    assert kv_bytes_per_token(model, "fp8") == 10 * KIB
    # 30 Gated DeltaNet layers x (32 x 128 x 128 fp32 state + 8192 x 3 bf16 conv state)
    assert linear_state_bytes(model) == 30 * (32 * 128 * 128 * 4 + 8192 * 3 * 2)


def test_dense_models_have_no_linear_state() -> None:
    assert linear_state_bytes(get_model("qwen3-vl-8b")) == 0


@pytest.mark.parametrize(
    ("name", "default", "capped"),
    [("qwen2.5-vl-7b", 4956, 1260), ("qwen3-vl-8b", 3796, 962), ("paddleocr-vl", 3550, 1260)],
)
def test_visual_tokens_of_a_1654x2339_page(name: str, default: int, capped: int) -> None:
    model = get_model(name)
    assert visual_tokens(model, 1654, 2339) == default
    assert visual_tokens(model, 1654, 2339, max_pixels=1003520) == capped


def test_1024_square_gives_37_by_37_tokens_with_factor_28() -> None:
    assert smart_resize(1024, 1024, 28, 3136, 12845056) == (37 * 28, 37 * 28)
    assert visual_tokens(get_model("qwen2.5-vl-7b"), 1024, 1024) == 1369


def test_smart_resize_scales_up_below_min_pixels_with_ceil() -> None:
    # 100x100 at factor 28 rounds to 112x112 = 12544 < 147384: scale by sqrt(14.7384), ceil.
    assert smart_resize(100, 100, 28, 147384, 2822400) == (392, 392)


def test_smart_resize_rejects_extreme_aspect_and_inverted_bounds() -> None:
    with pytest.raises(ConfigError, match="aspect ratio"):
        smart_resize(10, 4000, 28, 3136, 12845056)
    with pytest.raises(ConfigError, match="above max_pixels"):
        visual_tokens(get_model("qwen3-vl-8b"), 100, 100, min_pixels=10_000, max_pixels=100)


def test_weights_by_precision() -> None:
    assert weights_bytes(get_model("qwen3-vl-8b"), "bf16") / 1e9 == pytest.approx(17.5, abs=0.1)
    int4_32b = weights_bytes(get_model("qwen3-vl-32b"), "int4") / 1e9
    assert 18.0 <= int4_32b <= 19.0
    assert weights_bytes(get_model("qwen3.5-35b-a3b"), "fp8") / 1e9 == pytest.approx(35.0)


def test_budget_splits_a_card_into_weights_headroom_and_kv() -> None:
    b = budget(get_model("qwen3-vl-8b"), get_gpu("a100-40"))
    assert b.card_bytes == pytest.approx(40 * 1024**3 * 0.9)
    assert b.kv_budget_per_rank == pytest.approx(
        b.card_bytes - b.weights_per_rank - b.headroom_per_rank
    )
    assert b.concurrency == int(b.kv_budget_per_rank // b.request_bytes_per_rank)
    assert 30 <= b.concurrency <= 60


def test_tensor_parallel_splits_kv_heads_and_replicates_beyond_them() -> None:
    parser = get_model("paddleocr-vl")  # 2 KV heads
    assert kv_bytes_per_token(parser, tp=2) == kv_bytes_per_token(parser) // 2
    assert kv_bytes_per_token(parser, tp=4) == kv_bytes_per_token(parser) // 2
