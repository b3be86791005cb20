"""Memory math: weights, KV cache, visual tokens, and how many requests fit on a card.

The constants below are planning estimates, named so that a measurement can replace them;
the design notes warn that the table they feed is an estimate, not a measurement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from pagereader.config.defaults import DEFAULT_MAX_PIXELS, DEFAULT_MIN_PIXELS
from pagereader.errors import ConfigError
from pagereader.pixels import smart_resize
from pagereader.planner.accelerator import GpuSpec
from pagereader.planner.catalog import ModelSpec

WeightDtype = Literal["bf16", "fp8", "int4", "q4", "q8"]
KvDtype = Literal["bf16", "fp8"]

#: MLX affine quantization (mlx-vlm's convert): groups of 64 weights share a 16-bit scale
#: and a 16-bit bias, so a weight costs its bits plus 32/64.
MLX_GROUP_SIZE = 64
#: Bytes a parameter: BF16 2, FP8 1, INT4 AWQ/GPTQ about 0.55 (group scales and zeros
#: included), MLX 4-bit (4 + 0.5) / 8 and 8-bit (8 + 0.5) / 8.
BYTES_PER_PARAM: dict[str, float] = {
    "bf16": 2.0,
    "fp8": 1.0,
    "int4": 0.55,
    "q4": (4 + 32 / MLX_GROUP_SIZE) / 8,
    "q8": (8 + 32 / MLX_GROUP_SIZE) / 8,
}
#: mlx-vlm's convert skips the vision tower (``skip_multimodal_module``): it stays 16-bit.
MLX_DTYPES = ("q4", "q8")
KV_BYTES: dict[str, int] = {"bf16": 2, "fp8": 1}
#: CUDA graphs, NCCL buffers, allocator slack: outside the weights, inside vLLM's budget.
RUNTIME_OVERHEAD_BYTES = int(1.5 * 1024**3)
#: Peak activation buffers of one prefill chunk, in units of tokens x hidden x 2 bytes.
ACTIVATION_FACTOR = 12
#: Peak vision-encoder buffers, in units of patches x vision hidden x 2 bytes.
VISION_FACTOR = 16
DEFAULT_BATCHED_TOKENS = 8192
MAX_MODEL_LEN = 16384

#: A4 at 200 DPI: the page size the design notes' figures are quoted for.
PAGE_W, PAGE_H = 1654, 2339
#: What the pipeline sends per request by default (option_defaults.py).
REQUEST_MIN_PIXELS = DEFAULT_MIN_PIXELS
REQUEST_MAX_PIXELS = DEFAULT_MAX_PIXELS
#: The server-side ceiling on pixels (dense pages get up to this many per request).
SERVE_MAX_PIXELS = 2822400
PROMPT_TOKENS = 256
OUTPUT_TOKENS = 1536
GB = 1e9


def visual_tokens(
    model: ModelSpec,
    width: int,
    height: int,
    min_pixels: int | None = None,
    max_pixels: int | None = None,
) -> int:
    """Tokens one image costs the language model: H'W' / factor^2."""
    lo = model.min_pixels if min_pixels is None else min_pixels
    hi = model.max_pixels if max_pixels is None else max_pixels
    if lo > hi:
        raise ConfigError(f"min_pixels {lo} is above max_pixels {hi}")
    h, w = smart_resize(height, width, model.factor, lo, hi)
    return (h // model.factor) * (w // model.factor)


def weights_bytes(model: ModelSpec, dtype: WeightDtype) -> float:
    """All parameters at one precision (vision tower included); MLX keeps the tower 16-bit."""
    if dtype in MLX_DTYPES:
        vision = model.vision_params_b * 1e9 * BYTES_PER_PARAM["bf16"]
        return model.language_params_b * 1e9 * BYTES_PER_PARAM[dtype] + vision
    return model.params_b * 1e9 * BYTES_PER_PARAM[dtype]


def kv_heads_per_rank(model: ModelSpec, tp: int) -> int:
    """KV heads are split across tensor-parallel ranks, and replicated when tp exceeds them."""
    return max(1, math.ceil(model.kv_heads / tp))


def kv_bytes_per_token(model: ModelSpec, kv_dtype: KvDtype = "bf16", tp: int = 1) -> int:
    """2 (K and V) x KV layers x KV heads x head dim x bytes, on one rank."""
    heads = model.kv_heads if tp == 1 else kv_heads_per_rank(model, tp)
    return 2 * model.kv_layers * heads * model.head_dim * KV_BYTES[kv_dtype]


def linear_state_bytes(model: ModelSpec, tp: int = 1) -> int:
    """Per-sequence Gated DeltaNet state (recurrent + conv), constant in sequence length."""
    if not model.hybrid:
        return 0
    recurrent = (
        model.linear_value_heads
        * model.linear_key_dim
        * model.linear_value_dim
        * model.linear_state_bytes
    )
    conv_dim = (
        2 * model.linear_key_heads * model.linear_key_dim
        + model.linear_value_heads * model.linear_value_dim
    )
    conv = conv_dim * (model.linear_conv_kernel - 1) * 2
    return model.linear_layers * (recurrent + conv) // tp


@dataclass(frozen=True)
class RequestShape:
    """The tokens of one typical request: image, prompt, output."""

    visual: int
    prompt: int = PROMPT_TOKENS
    output: int = OUTPUT_TOKENS

    @property
    def total(self) -> int:
        return self.visual + self.prompt + self.output


def typical_request(model: ModelSpec, max_pixels: int = REQUEST_MAX_PIXELS) -> RequestShape:
    """A page-sized image under the pipeline's default bounds, a prompt and a long answer."""
    return RequestShape(visual_tokens(model, PAGE_W, PAGE_H, REQUEST_MIN_PIXELS, max_pixels))


def headroom_bytes(model: ModelSpec, tp: int, batched_tokens: int) -> float:
    """What a replica needs besides weights and KV: runtime, activations, vision encoder."""
    activation = batched_tokens * model.hidden_size * 2 * ACTIVATION_FACTOR / tp
    patches = visual_tokens(model, PAGE_W, PAGE_H, REQUEST_MIN_PIXELS, SERVE_MAX_PIXELS)
    vision = patches * model.merge_size**2 * model.vision_hidden * 2 * VISION_FACTOR
    return RUNTIME_OVERHEAD_BYTES + activation + vision


def batched_tokens(model: ModelSpec) -> int:
    """The prefill chunk vLLM profiles with: the recipe's value where it sets one."""
    for flag in model.extra_serve_flags:
        if flag.startswith("--max-num-batched-tokens"):
            return int(flag.split()[-1])
    return DEFAULT_BATCHED_TOKENS


@dataclass(frozen=True)
class Budget:
    """One replica's memory on each of its ranks, and the requests it can hold at once."""

    dtype: WeightDtype
    tp: int
    utilization: float
    card_bytes: float
    weights_per_rank: float
    headroom_per_rank: float
    kv_budget_per_rank: float
    request_bytes_per_rank: float
    concurrency: int


def budget(
    model: ModelSpec,
    gpu: GpuSpec,
    dtype: WeightDtype = "bf16",
    tp: int = 1,
    utilization: float | None = None,
    kv_dtype: KvDtype = "bf16",
    request: RequestShape | None = None,
) -> Budget:
    """Split one rank's share of the card: weights, headroom, then KV for concurrent requests.
    A Mac's share is of the memory its GPU may wire, not of all unified memory."""
    utilization = gpu.max_utilization if utilization is None else utilization
    card = gpu.planned_bytes * utilization
    weights = weights_bytes(model, dtype) / tp
    headroom = headroom_bytes(model, tp, batched_tokens(model))
    kv = card - weights - headroom
    shape = request or typical_request(model)
    per_request = shape.total * kv_bytes_per_token(model, kv_dtype, tp) + linear_state_bytes(
        model, tp
    )
    concurrency = max(0, math.floor(kv / per_request)) if kv > 0 else 0
    return Budget(dtype, tp, utilization, card, weights, headroom, kv, per_request, concurrency)
