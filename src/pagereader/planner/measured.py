"""The H200 measurement (``h200_vlm_facts.json``, ``h200_decode_floor.json``) as the time
model's reference: constants fitted from it, and the model's predictions beside it.

The measurement ran transformers eagerly (sdpa, random BF16 weights, built from the published
configs), so its profile differs from vLLM's in three ways the model names: logits for every
prompt position, a per-layer launch floor of eager PyTorch, and Qwen2.5-VL's windowed vision
attention run window by window. Two measured terms are eager artefacts the model does not
predict and only bounds from below: that window loop is fitted from Qwen2.5-VL itself, and the
MoE's language prefill (a Python loop over 128 experts a layer) is left out of the fit.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pagereader.errors import ConfigError
from pagereader.planner.catalog import ModelSpec, get_model
from pagereader.planner.hardware import GpuSpec, get_gpu
from pagereader.planner.timeconst import VLLM, Const, TimeConstants
from pagereader.planner.timemodel import (
    WINDOW_PATCHES,
    decode_step_seconds,
    decoder_params,
    lm_head_params,
    prefill_flops,
    prefill_seconds,
    vision_flops,
    vision_seconds,
)

FACTS = "h200_vlm_facts.json"
FLOOR = "h200_decode_floor.json"
#: The model whose batch-1 prefill is launch-bound (its FLOPs take under a tenth of its time).
FLOOR_MODEL = "paddleocr-vl"
WINDOW_MODEL = "qwen2.5-vl-7b"


@dataclass(frozen=True)
class Prefill:
    """One measured prefill: a model, a batch of pages, and its milliseconds."""

    model: ModelSpec
    batch: int
    visual_tokens: int
    text_tokens: int
    vision_ms: float
    language_ms: float

    @property
    def total_ms(self) -> float:
        return self.vision_ms + self.language_ms

    @property
    def tokens(self) -> int:
        return self.visual_tokens + self.text_tokens


@dataclass(frozen=True)
class Step:
    """One measured decode step (CUDA graph, gqa_nomask) at a batch and context."""

    model: ModelSpec
    batch: int
    context: int
    ms: float


def _read(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError("measurement file not found", file=path) from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not valid JSON: {exc}", file=path) from exc
    return data


def load_prefills(folder: Path) -> list[Prefill]:
    """Every prefill of every model in the facts file that ran."""
    found: list[Prefill] = []
    for key, entry in _read(folder / FACTS)["models"].items():
        if entry.get("status") != "ok":
            continue
        model = get_model(entry.get("planner_key") or key)
        for run in ("prefill_1_page", "prefill_8_pages"):
            t = entry["timings"][run]
            found.append(
                Prefill(
                    model=model,
                    batch=int(t["batch"]),
                    visual_tokens=int(t["visual_tokens_per_image"]),
                    text_tokens=int(t["text_tokens_per_image"]),
                    vision_ms=float(t["vision_ms"]),
                    language_ms=float(t["language_model_ms_approx"]),
                )
            )
    return found


def load_steps(folder: Path) -> list[Step]:
    """The CUDA-graph decode steps of the decode-floor file (the gqa_nomask variant)."""
    data = _read(folder / FLOOR)
    context = int(data["settings"]["ctx"])
    found: list[Step] = []
    for key, entry in data["models"].items():
        if entry.get("status") != "ok":
            continue
        for batch, run in entry["runs"]["gqa_nomask"].items():
            if run.get("status") == "ok":
                found.append(Step(get_model(key), int(batch), context, float(run["ms_per_step"])))
    return found


H200 = get_gpu("h200")


def _vision_efficiency(p: Prefill, gpu: GpuSpec) -> float:
    flops = p.batch * vision_flops(p.model, p.visual_tokens)
    return flops / (p.vision_ms / 1000 * gpu.bf16_tflops * 1e12)


def _prefill_efficiency(p: Prefill, gpu: GpuSpec) -> float:
    flops = p.batch * prefill_flops(p.model, p.tokens, logits_every_position=True)
    return flops / (p.language_ms / 1000 * gpu.bf16_tflops * 1e12)


def _fit_vision(prefills: list[Prefill], gpu: GpuSpec) -> tuple[float, float]:
    """Asymptote and half-saturation patches from each encoder's one-page and eight-page runs
    (efficiency e = a x P / (P + h) through both points), the median over models."""
    fits: list[tuple[float, float]] = []
    for model in {p.model.key: p.model for p in prefills}.values():
        if model.moe or model.vision_window_layers:
            continue
        runs = sorted((p for p in prefills if p.model is model), key=lambda p: p.batch)
        if len(runs) < 2:
            continue
        (e1, p1), (e2, p2) = (
            (_vision_efficiency(r, gpu), r.batch * r.visual_tokens * model.merge_size**2)
            for r in (runs[0], runs[-1])
        )
        r = e1 / e2
        half = (p1 * p2 * (1 - r)) / (r * p2 - p1)
        fits.append((e1 * (p1 + half) / p1, half))
    if not fits:
        raise ConfigError("no encoder with runs at two batches in the measurement")
    return statistics.median(a for a, _ in fits), statistics.median(h for _, h in fits)


def fit_eager(folder: Path, gpu: GpuSpec = H200) -> TimeConstants:
    """Constants for transformers eager on the measured GPU, fitted from the files."""
    prefills = load_prefills(folder)
    steps = load_steps(folder)
    where = f"measured: {folder.name}/{FACTS}"
    floor_run = next(p for p in prefills if p.model.key == FLOOR_MODEL and p.batch == 1)
    floor_ms = floor_run.language_ms / floor_run.model.layers
    vision_eff, half = _fit_vision(prefills, gpu)
    floor_s = {id(p): p.model.layers * floor_ms / 1000 for p in prefills}
    bound = [
        p
        for p in prefills
        if not p.model.moe
        and prefill_flops(p.model, p.tokens, True) * p.batch / (gpu.bf16_tflops * 1e12 * 0.5)
        > 1.5 * floor_s[id(p)]
    ]
    prefill_eff = statistics.median(_prefill_efficiency(p, gpu) for p in bound)
    window_run = next(p for p in prefills if p.model.key == WINDOW_MODEL and p.batch == 1)
    windows = math.ceil(window_run.visual_tokens * window_run.model.merge_size**2 / WINDOW_PATCHES)
    window_ms = window_run.vision_ms / (windows * window_run.model.vision_window_layers)
    step = next(s for s in steps if s.model.key == FLOOR_MODEL and s.batch == 1)
    weights = (decoder_params(step.model) + lm_head_params(step.model)) * 2
    read_ms = weights / (gpu.bandwidth_gbs * 1e9 * VLLM.bandwidth_efficiency.value) * 1000
    decode_floor = (step.ms - read_ms) / step.model.layers
    floor_src = f"measured: {folder.name}/{FLOOR}"
    return replace(
        VLLM,
        name=f"transformers eager on {gpu.name}",
        vision_efficiency=Const(round(vision_eff, 4), "of peak BF16 (asymptote)", where),
        vision_half_patches=Const(round(half), "patches in a batch", where),
        prefill_efficiency=Const(round(prefill_eff, 4), "of peak BF16", where),
        prefill_floor_ms_per_layer=Const(round(floor_ms, 4), "ms a decoder layer", where),
        decode_floor_ms_per_layer=Const(round(decode_floor, 4), "ms a decoder layer", floor_src),
        vision_window_call_ms=Const(round(window_ms, 4), "ms a window a layer", where),
        logits_every_position=True,
    )


@dataclass(frozen=True)
class Compared:
    """A measured figure beside the model's prediction."""

    label: str
    measured_ms: float
    predicted_ms: float

    @property
    def ratio(self) -> float:
        return self.predicted_ms / self.measured_ms


def compare_prefills(
    prefills: list[Prefill], k: TimeConstants, gpu: GpuSpec = H200
) -> list[Compared]:
    """Vision, language and total prefill of every measured run, predicted with ``k``."""
    rows: list[Compared] = []
    for p in prefills:
        vision = vision_seconds(p.model, gpu, 1, k, p.batch, p.visual_tokens) * 1000
        language = prefill_seconds(p.model, gpu, 1, k, p.batch, p.tokens) * 1000
        name = f"{p.model.key} batch {p.batch}"
        rows.append(Compared(f"{name} vision", p.vision_ms, vision))
        rows.append(Compared(f"{name} language", p.language_ms, language))
        rows.append(Compared(f"{name} total", p.total_ms, vision + language))
    return rows


def compare_steps(steps: list[Step], k: TimeConstants, gpu: GpuSpec = H200) -> list[Compared]:
    """Decode steps at each measured batch, predicted with ``k``."""
    return [
        Compared(
            f"{s.model.key} step batch {s.batch}",
            s.ms,
            decode_step_seconds(s.model, gpu, "bf16", 1, k, s.batch, s.context) * 1000,
        )
        for s in steps
    ]
