"""What one slide asks of the served models, and its critical path through them.

A slide is read as its block crops batched to the parser and its figures sent to the general
model at the same time (the design notes' serving page: "one parser call and one or two Qwen
calls in parallel"); pagereader renders, classifies and lays the slide out on the client
before either call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pagereader.pixels import smart_resize
from pagereader.planner.catalog import ModelSpec
from pagereader.planner.hardware import GpuSpec
from pagereader.planner.memory import (
    PAGE_H,
    PAGE_W,
    PROMPT_TOKENS,
    REQUEST_MAX_PIXELS,
    REQUEST_MIN_PIXELS,
    WeightDtype,
)
from pagereader.planner.timeconst import CPU_STAGES, VLLM, CpuStages, TimeConstants, profile_for
from pagereader.planner.timemodel import (
    Calibrated,
    CallShape,
    CriticalPath,
    EngineGroup,
    calibrated_terms,
    call_terms,
    cpu_constants,
    cpu_terms,
    engine_constants,
)


@dataclass(frozen=True)
class Slide:
    """The requests of one slide. Defaults: the design notes' 6 to 12 blocks, a paragraph-sized
    answer each, one figure described from the whole slide."""

    blocks: int = 8
    block_width: int = 1000
    block_height: int = 500
    block_output: int = 256
    #: Text tokens of a parser prompt ("OCR:" in the chat template): 32 in the measurement.
    block_prompt: int = 32
    figures: int = 1
    figure_output: int = 256
    figure_prompt: int = PROMPT_TOKENS


DEFAULT_SLIDE = Slide()


def _shape(model: ModelSpec, n: int, width: int, height: int, prompt: int, out: int) -> CallShape:
    h, w = smart_resize(height, width, model.factor, REQUEST_MIN_PIXELS, REQUEST_MAX_PIXELS)
    tokens = (h // model.factor) * (w // model.factor)
    return CallShape(n, tokens, prompt, out, width * height)


def block_shape(model: ModelSpec, slide: Slide = DEFAULT_SLIDE) -> CallShape:
    """The slide's block crops, all at once, under the pipeline's default pixel bounds."""
    return _shape(
        model,
        slide.blocks,
        slide.block_width,
        slide.block_height,
        slide.block_prompt,
        slide.block_output,
    )


def figure_shape(model: ModelSpec, slide: Slide = DEFAULT_SLIDE) -> CallShape:
    """The slide's figure requests: the page image at the default request bound."""
    return _shape(model, slide.figures, PAGE_W, PAGE_H, slide.figure_prompt, slide.figure_output)


def shape_for(model: ModelSpec, slide: Slide = DEFAULT_SLIDE) -> CallShape:
    """What a model of this role is asked for one slide."""
    return block_shape(model, slide) if model.role == "parser" else figure_shape(model, slide)


@dataclass(frozen=True)
class Served:
    """A served model as the time model needs it."""

    model: ModelSpec
    dtype: WeightDtype
    tp: int
    calibration: Calibrated | None = None


@dataclass(frozen=True)
class Estimate:
    """Inputs of a critical path beyond the layout: constants, CPU stages, the slide."""

    constants: TimeConstants = VLLM
    cpu: CpuStages = CPU_STAGES
    slide: Slide = DEFAULT_SLIDE
    calibration: dict[str, Calibrated] = field(default_factory=dict)


def group(served: Served, gpu: GpuSpec, est: Estimate, shape: CallShape) -> EngineGroup:
    """One model's calls for the slide, from its calibration when there is one."""
    label = f"{served.model.key} x{shape.requests}"
    if served.calibration is not None:
        return EngineGroup(label, calibrated_terms(served.calibration, served.model.key, shape))
    terms = call_terms(served.model, gpu, served.dtype, served.tp, est.constants, shape)
    return EngineGroup(label, terms)


def critical_path(
    served: list[Served], gpu: GpuSpec, est: Estimate | None = None, serial: bool = False
) -> CriticalPath:
    """CPU stages, then one group a served model in parallel. Without a parser the general
    model also reads the blocks; without a general model the parser also reads the figures."""
    est = est or Estimate()
    groups: list[EngineGroup] = []
    constants = cpu_constants(est.cpu)
    roles = {s.model.role for s in served}
    for s in served:
        shapes = [shape_for(s.model, est.slide)]
        if s.model.role == "general" and "parser" not in roles:
            shapes.insert(0, block_shape(s.model, est.slide))
        if s.model.role == "parser" and "general" not in roles and est.slide.figures:
            shapes.append(figure_shape(s.model, est.slide))
        if s.calibration is not None:
            constants.update(s.calibration.constants(s.model.key))
        else:
            constants.update(engine_constants(est.constants, gpu))
        parts = [group(s, gpu, est, shape) for shape in shapes if shape.requests > 0]
        if parts:
            label = " + ".join(p.label for p in parts)
            groups.append(EngineGroup(label, [t for p in parts for t in p.terms]))
    used = {name for g in groups for t in g.terms for name in t.uses}
    used |= {name for t in cpu_terms(est.cpu) for name in t.uses}
    return CriticalPath(
        cpu_terms(est.cpu), groups, {k: v for k, v in constants.items() if k in used}, serial
    )


def engine_seconds(model: ModelSpec, dtype: WeightDtype, tp: int, gpu: GpuSpec) -> float:
    """A model's own share of a slide with the default constants (to compare options)."""
    served = Served(model, dtype, tp)
    est = Estimate(constants=profile_for(gpu.platform, VLLM))
    return group(served, gpu, est, shape_for(model)).seconds
