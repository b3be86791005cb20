"""Every constant of the time model, in one place, each with where it comes from.

Three kinds of source: ``measured`` (the H200 run in ../shared/measured/, see its README),
``datasheet`` (the GPU figures in hardware.py) and ``assumed`` (a planning guess that a
measurement should replace). ``pagereader plan calibrate`` replaces the engine terms with the
user's own servers (``calibrated``), and a ``pagereader bench`` timings.json replaces the
client-side CPU stages.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, replace
from pathlib import Path

from pagereader.errors import ConfigError


@dataclass(frozen=True)
class Const:
    """One number of the model, its unit, and its source in words."""

    value: float
    unit: str
    source: str


@dataclass(frozen=True)
class TimeConstants:
    """The engine-side constants: how fast a serving stack turns FLOPs and bytes into time.

    Prefill is ``max(launch floor, FLOPs / (peak x efficiency))``: the host launches kernels
    while the GPU runs them, so the slower of the two sets the pace. The vision encoder's GEMMs
    are narrow (1,152 wide), so its efficiency grows with the patches in the batch,
    ``asymptote x P / (P + half)``. A
    decode step is a per-layer launch floor plus the bytes it reads (weights once, the KV of
    every sequence in the batch) plus its FLOPs, so it grows slowly with the batch.
    """

    name: str
    vision_efficiency: Const
    vision_half_patches: Const
    prefill_efficiency: Const
    prefill_floor_ms_per_layer: Const
    decode_floor_ms_per_layer: Const
    bandwidth_efficiency: Const
    vision_window_call_ms: Const
    preprocess_ms_per_mpixel: Const
    request_overhead_ms: Const
    logits_every_position: bool = False


_FACTS = "h200_vlm_facts.json"
_FLOOR = "h200_decode_floor.json"

#: What the planner assumes of vLLM on any card, until a calibration replaces it.
VLLM = TimeConstants(
    name="vllm",
    vision_efficiency=Const(
        0.31,
        "of peak BF16 (asymptote)",
        f"measured: {_FACTS}, PaddleOCR-VL and Qwen3-VL encoders, 21% of peak at one page "
        "and 29% at eight",
    ),
    vision_half_patches=Const(
        1850,
        "patches in a batch",
        f"measured: {_FACTS}, the batch at which the encoder reaches half its asymptote",
    ),
    prefill_efficiency=Const(
        0.53,
        "of peak BF16",
        f"measured: {_FACTS}, the compute-bound prefills of Qwen3-VL-8B/32B and Qwen2.5-VL-7B",
    ),
    prefill_floor_ms_per_layer=Const(
        0.105,
        "ms a decoder layer",
        f"assumed: the CUDA-graph step floor of {_FLOOR} (vLLM captures prefill piecewise)",
    ),
    decode_floor_ms_per_layer=Const(
        0.105,
        "ms a decoder layer",
        f"measured: {_FLOOR}, PaddleOCR-VL step 2.11 ms at batch 1 less its weight reads, "
        "over 18 layers (unfused modules: an upper bound for vLLM's fused kernels)",
    ),
    bandwidth_efficiency=Const(
        0.7,
        "of peak HBM bandwidth",
        f"assumed; checked by {_FLOOR}: Qwen3-VL-8B step predicted 8.7 ms, measured 8.67 ms",
    ),
    vision_window_call_ms=Const(
        0.0,
        "ms a window a layer",
        "assumed: vLLM runs windowed vision attention as one varlen kernel a layer",
    ),
    preprocess_ms_per_mpixel=Const(
        10.0,
        "ms an input megapixel",
        f"measured: {_FACTS}, the image processors on a 1654x2339 page (26-54 ms) and on a "
        "1024x1024 image (8-18 ms), CPU, server side",
    ),
    request_overhead_ms=Const(
        10.0, "ms a request group", "assumed: HTTP, JSON, base64 and scheduling on loopback"
    ),
)


_NORMIE = "brand-o/normiebench issue 40"

#: Apple silicon under MLX: the two efficiencies from a public llama.cpp (Metal) run on an
#: M1 Max 64 GB, the closest measurement in the sources; the rest as vLLM, assumed.
APPLE = replace(
    VLLM,
    name="apple",
    prefill_efficiency=Const(
        0.67,
        "of peak FP32",
        f"measured by others: {_NORMIE}, Llama 3.1 8B Q4_K_M on an M1 Max, pp512 499.58 "
        "tokens/s x 2 x 6.98e9 decoder parameters = 6.97 TFLOPS of 10.4 (llama.cpp, not MLX)",
    ),
    bandwidth_efficiency=Const(
        0.55,
        "of peak memory bandwidth",
        f"measured by others: {_NORMIE}, tg128 46.2 tokens/s x about 4.7 GB of Q4_K_M "
        "weights read a token = 217 GB/s of 400 (llama.cpp, not MLX)",
    ),
)


def profile_for(platform: str, constants: TimeConstants) -> TimeConstants:
    """The default profile of a platform; a profile the user chose stays."""
    return APPLE if platform == "apple" and constants is VLLM else constants


@dataclass(frozen=True)
class CpuStages:
    """pagereader's own client-side stages before any engine call: render, classify, layout."""

    render_s: Const
    classify_s: Const
    layout_s: Const

    def terms(self) -> list[tuple[str, Const]]:
        return [("render", self.render_s), ("classify", self.classify_s), ("layout", self.layout_s)]


#: Until a `pagereader bench` timings.json is given.
CPU_STAGES = CpuStages(
    render_s=Const(0.15, "s a slide", "assumed: pdfium at 200 DPI; run `pagereader bench`"),
    classify_s=Const(0.02, "s a slide", "assumed; run `pagereader bench`"),
    layout_s=Const(0.25, "s a slide", "assumed: rapid-layout on CPU; run `pagereader bench`"),
)


def cpu_stages_from_timings(path: Path) -> CpuStages:
    """The median seconds of render, classify and layout over the pages of a timings.json."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        pages = data["pages"]
        values = {
            stage: statistics.median(float(p["stages"][stage]) for p in pages)
            for stage in ("render", "classify", "layout")
        }
    except FileNotFoundError as exc:
        raise ConfigError("timings file not found", file=path) from exc
    except (ValueError, KeyError, TypeError, statistics.StatisticsError) as exc:
        raise ConfigError(
            f"not a pagereader timings.json ({exc})",
            file=path,
            hint="pass the timings.json that `pagereader bench` writes",
        ) from exc
    source = f"measured: median of {len(pages)} pages in {path.name}"
    return CpuStages(
        render_s=Const(round(values["render"], 4), "s a slide", source),
        classify_s=Const(round(values["classify"], 4), "s a slide", source),
        layout_s=Const(round(values["layout"], 4), "s a slide", source),
    )
