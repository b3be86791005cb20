"""Seconds for one engine call group and for a slide's critical path, term by term.

An engine call group is the requests of one slide that go to one served model at once (a
slide's 6 to 12 block crops batch together in vLLM). Its terms: request overhead, image
preprocessing on the server's CPU, the vision encoder (FLOPs of its patches), language prefill
(FLOPs of every prompt token, or the launch floor of its layers when that is slower) and decode
(output tokens x the step time at that batch). The slide's critical path is pagereader's CPU
stages, then the slowest of the engine groups running in parallel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from pagereader.planner.catalog import ModelSpec
from pagereader.planner.hardware import GpuSpec
from pagereader.planner.memory import BYTES_PER_PARAM, WeightDtype, kv_bytes_per_token
from pagereader.planner.timeconst import Const, CpuStages, TimeConstants

#: Patches a Qwen2.5-VL attention window holds: 112 px windows of 14 px patches.
WINDOW_PATCHES = 64


@dataclass(frozen=True)
class Term:
    """One addend of an estimate: what it is, seconds, and the names of the constants it
    rests on (listed with their sources beside the path)."""

    name: str
    seconds: float
    uses: tuple[str, ...]


@dataclass(frozen=True)
class CallShape:
    """n concurrent requests of one kind: image tokens, prompt text, output, and the pixels
    of the image as sent (the server's processor resizes from those)."""

    requests: int
    visual_tokens: int
    text_tokens: int
    output_tokens: int
    pixels: int


@dataclass(frozen=True)
class Calibrated:
    """One endpoint's fitted constants (``pagereader plan calibrate``)."""

    fixed_ms: float
    prefill_ms_per_1k: float
    decode_ms_batch1: float
    decode_ms_batch8: float
    source: str

    def constants(self, key: str) -> dict[str, Const]:
        """Its numbers as named constants, all from the calibration."""
        return {
            f"{key}.fixed_ms": Const(self.fixed_ms, "ms a request group", self.source),
            f"{key}.prefill_ms_per_1k": Const(
                self.prefill_ms_per_1k, "ms a 1k tokens", self.source
            ),
            f"{key}.decode_ms_batch1": Const(self.decode_ms_batch1, "ms a step", self.source),
            f"{key}.decode_ms_batch8": Const(self.decode_ms_batch8, "ms a step", self.source),
        }

    def step_ms(self, batch: int) -> float:
        """Linear in the batch through the two measured points (never below batch 1's)."""
        slope = (self.decode_ms_batch8 - self.decode_ms_batch1) / 7
        return max(self.decode_ms_batch1, self.decode_ms_batch1 + slope * (batch - 1))


def lm_head_params(model: ModelSpec) -> float:
    """The LM head (and, untied, the input embedding) is vocab x hidden."""
    return float(model.vocab_size * model.hidden_size)


def decoder_params(model: ModelSpec) -> float:
    """Parameters a token passes through in the decoder layers (active ones for MoE)."""
    total = (model.active_params_b or model.params_b) - model.vision_params_b
    embeddings = lm_head_params(model) * (1 if model.tied_embeddings else 2)
    return total * 1e9 - embeddings


def vision_flops(model: ModelSpec, visual_tokens: int) -> float:
    """One image: every patch through the tower, merged tokens through the merger, and
    full attention over the patches in the non-windowed layers."""
    patches = visual_tokens * model.merge_size**2
    linear = 2 * model.vision_patch_params_b * 1e9 * patches
    merger = 2 * model.vision_merger_b * 1e9 * visual_tokens
    full = model.vision_layers - model.vision_window_layers
    attention = 4 * patches * patches * model.vision_hidden * full
    windowed = 4 * patches * WINDOW_PATCHES * model.vision_hidden * model.vision_window_layers
    return linear + merger + attention + windowed


def prefill_flops(model: ModelSpec, tokens: int, logits_every_position: bool) -> float:
    """One sequence: 2 x decoder parameters a token, causal attention, and the LM head."""
    attention = 2 * tokens * tokens * model.hidden_size * model.kv_layers
    logits = tokens if logits_every_position else 1
    return 2 * decoder_params(model) * tokens + attention + 2 * lm_head_params(model) * logits


def _peak(gpu: GpuSpec, tp: int, efficiency: Const) -> float:
    """FLOP/s the group reaches."""
    return gpu.bf16_tflops * 1e12 * tp * efficiency.value


def vision_seconds(
    model: ModelSpec, gpu: GpuSpec, tp: int, k: TimeConstants, images: int, visual_tokens: int
) -> float:
    """Compute-bound encoder, unless an eager window-by-window loop is slower."""
    patches = images * visual_tokens * model.merge_size**2
    share = patches / (patches + k.vision_half_patches.value)
    compute = images * vision_flops(model, visual_tokens) / _peak(gpu, tp, k.vision_efficiency)
    compute /= share
    windows = math.ceil(visual_tokens * model.merge_size**2 / WINDOW_PATCHES)
    loop = images * windows * model.vision_window_layers * k.vision_window_call_ms.value / 1000
    return max(compute, loop)


def prefill_seconds(
    model: ModelSpec, gpu: GpuSpec, tp: int, k: TimeConstants, sequences: int, tokens: int
) -> float:
    """The slower of launching every layer and computing every prompt token."""
    flops = sequences * prefill_flops(model, tokens, k.logits_every_position)
    floor = model.layers * k.prefill_floor_ms_per_layer.value / 1000
    return max(floor, flops / _peak(gpu, tp, k.prefill_efficiency))


def decode_bytes_per_token(
    model: ModelSpec, dtype: WeightDtype, tp: int, batch: int, context: int
) -> float:
    """What one decode step reads on one rank: the weights a token passes through (the
    input embedding only as one row) and every sequence's KV cache."""
    weights = (decoder_params(model) + lm_head_params(model)) * BYTES_PER_PARAM[dtype] / tp
    return weights + batch * context * kv_bytes_per_token(model, "bf16", tp)


def tokens_per_s_bound(
    model: ModelSpec, gpu: GpuSpec, dtype: WeightDtype, tp: int, context: int
) -> float:
    """The ceiling of one sequence's decode: bandwidth / bytes read a token."""
    return gpu.bandwidth_gbs * 1e9 / decode_bytes_per_token(model, dtype, tp, 1, context)


def decode_step_seconds(
    model: ModelSpec,
    gpu: GpuSpec,
    dtype: WeightDtype,
    tp: int,
    k: TimeConstants,
    batch: int,
    context: int,
) -> float:
    """Launch floor + weights read once + every sequence's KV read + the batch's FLOPs.
    For a MoE the weights are one token's active experts: a batch reads more, so this is a
    lower bound there."""
    floor = model.layers * k.decode_floor_ms_per_layer.value / 1000
    read = decode_bytes_per_token(model, dtype, tp, batch, context) / (
        gpu.bandwidth_gbs * 1e9 * k.bandwidth_efficiency.value
    )
    compute = 2 * (decoder_params(model) + lm_head_params(model)) * batch
    return floor + read + compute / _peak(gpu, tp, k.prefill_efficiency)


def call_terms(
    model: ModelSpec,
    gpu: GpuSpec,
    dtype: WeightDtype,
    tp: int,
    k: TimeConstants,
    shape: CallShape,
) -> list[Term]:
    """The terms of one group of concurrent requests to one served model."""
    n = shape.requests
    prompt = shape.visual_tokens + shape.text_tokens
    context = prompt + shape.output_tokens // 2
    step = decode_step_seconds(model, gpu, dtype, tp, k, n, context)
    vision = ("vision_efficiency", "vision_half_patches", "vision_window_call_ms", "gpu_tflops")
    return [
        Term("overhead", k.request_overhead_ms.value / 1000, ("request_overhead_ms",)),
        Term(
            "preprocess",
            n * shape.pixels / 1e6 * k.preprocess_ms_per_mpixel.value / 1000,
            ("preprocess_ms_per_mpixel",),
        ),
        Term("vision", vision_seconds(model, gpu, tp, k, n, shape.visual_tokens), vision),
        Term(
            "prefill",
            prefill_seconds(model, gpu, tp, k, n, prompt),
            ("prefill_efficiency", "prefill_floor_ms_per_layer", "gpu_tflops"),
        ),
        Term(
            "decode",
            shape.output_tokens * step,
            ("decode_floor_ms_per_layer", "bandwidth_efficiency", "gpu_bandwidth", "gpu_tflops"),
        ),
    ]


def calibrated_terms(cal: Calibrated, key: str, shape: CallShape) -> list[Term]:
    """The same group from an endpoint's fitted constants: prefill covers the encoder and
    the server's preprocessing too."""
    tokens = shape.requests * (shape.visual_tokens + shape.text_tokens)
    steps = (f"{key}.decode_ms_batch1", f"{key}.decode_ms_batch8")
    return [
        Term("overhead", cal.fixed_ms / 1000, (f"{key}.fixed_ms",)),
        Term(
            "prefill", tokens / 1000 * cal.prefill_ms_per_1k / 1000, (f"{key}.prefill_ms_per_1k",)
        ),
        Term("decode", shape.output_tokens * cal.step_ms(shape.requests) / 1000, steps),
    ]


@dataclass(frozen=True)
class EngineGroup:
    """One served model's share of a slide: who serves it and what it is asked."""

    label: str
    terms: list[Term]

    @property
    def seconds(self) -> float:
        return sum(t.seconds for t in self.terms)


@dataclass(frozen=True)
class CriticalPath:
    """CPU stages, then the engine groups in parallel: the slowest one is on the path.
    ``constants`` names every constant a term uses, with its value and source."""

    cpu: list[Term]
    groups: list[EngineGroup]
    constants: dict[str, Const]
    #: One device serving every model (a Mac): the groups queue instead of overlapping.
    serial: bool = False

    @property
    def bottleneck(self) -> EngineGroup | None:
        return max(self.groups, key=lambda g: g.seconds) if self.groups else None

    @property
    def seconds(self) -> float:
        cpu = sum(t.seconds for t in self.cpu)
        if self.serial:
            return cpu + sum(g.seconds for g in self.groups)
        slowest = self.bottleneck
        return cpu + (slowest.seconds if slowest else 0.0)


def cpu_terms(cpu: CpuStages) -> list[Term]:
    return [Term(name, c.value, (f"cpu_{name}_s",)) for name, c in cpu.terms()]


def engine_constants(k: TimeConstants, gpu: GpuSpec) -> dict[str, Const]:
    """The named constants of a profile and a GPU's datasheet figures."""
    named = {f.name: getattr(k, f.name) for f in fields(k) if isinstance(getattr(k, f.name), Const)}
    sheet = f"datasheet: {gpu.name}"
    named["gpu_tflops"] = Const(gpu.bf16_tflops, f"TFLOPS {gpu.tflops_kind}", sheet)
    named["gpu_bandwidth"] = Const(gpu.bandwidth_gbs, "GB/s", sheet)
    return named


def cpu_constants(cpu: CpuStages) -> dict[str, Const]:
    return {f"cpu_{name}_s": c for name, c in cpu.terms()}
