"""The planner's answers as typed, versioned JSON (written as text by report_text.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pagereader.pixels import smart_resize
from pagereader.planner.catalog import ModelSpec
from pagereader.planner.hardware import NOTES, GpuSpec
from pagereader.planner.memory import (
    GB,
    budget,
    kv_bytes_per_token,
    linear_state_bytes,
    visual_tokens,
    weights_bytes,
)
from pagereader.planner.placement import Fit, GpuSet, Instance, Layout
from pagereader.planner.slide import Estimate, figure_shape
from pagereader.planner.timemodel import (
    CriticalPath,
    Term,
    decode_step_seconds,
    tokens_per_s_bound,
)
from pagereader.planner.vllm import layout_warnings, max_num_seqs, serve_command

SCHEMA_VERSION = 1


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PerKvDtype(_Out):
    bf16: int
    fp8: int


class PerWeightDtype(_Out):
    bf16: float
    fp8: float
    int4: float


class ImageFacts(_Out):
    width: int
    height: int
    resized_width: int
    resized_height: int
    min_pixels: int
    max_pixels: int


class ModelReport(_Out):
    """`pagereader plan model NAME --format json`."""

    schema_version: int = SCHEMA_VERSION
    key: str
    repo: str
    role: str
    params_b: float
    active_params_b: float | None
    layers: int
    kv_layers: int
    kv_heads: int
    head_dim: int
    hybrid: bool
    reasoning: bool
    factor: int = Field(description="patch size x spatial merge")
    kv_bytes_per_token: PerKvDtype
    linear_state_bytes_per_seq: int
    weights_gb: PerWeightDtype
    visual_tokens: int
    image: ImageFacts
    sources: list[str]


class CellReport(_Out):
    model: str
    gpus: str
    cell: str
    dtype: str | None
    tp: int | None
    replicas_per_card: int | None
    concurrency: int | None


class InstanceReport(_Out):
    model: str
    dtype: str
    tp: int
    cards: list[int]
    port: int
    gpu_memory_utilization: float
    concurrency: int
    max_num_seqs: int
    decode_ms_per_token: float
    decode_tokens_per_s_bound: float = Field(
        description="bandwidth / bytes one decode step reads (weights and a figure's KV)"
    )
    command: str


class TermReport(_Out):
    name: str
    seconds: float
    uses: list[str]


class ConstReport(_Out):
    name: str
    value: float
    unit: str
    source: str


class GroupReport(_Out):
    engine: str
    seconds: float
    terms: list[TermReport]


class PathReport(_Out):
    """A slide's estimated critical path: CPU stages, then the slowest engine group."""

    seconds: float
    profile: str
    serial: bool = Field(False, description="the engine groups queue on one device (a Mac)")
    bottleneck: str | None
    cpu: list[TermReport]
    groups: list[GroupReport]
    constants: list[ConstReport]


class LayoutReport(_Out):
    gpus: str
    platform: str
    server: str = Field(description="vllm (GPU, TPU) or mlx-vlm (Apple)")
    target_s: float
    slide_s: float
    meets_target: bool
    instances: list[InstanceReport]
    warnings: list[str]
    critical_path: PathReport | None = None


class AcceleratorReport(_Out):
    """One row of `pagereader plan --list`."""

    key: str
    name: str
    platform: str
    memory_gb: float
    planned_gb: float
    bandwidth_gbs: float
    tflops: float
    tflops_kind: str
    fp8: bool
    aliases: list[str]
    source: str


class NoteReport(_Out):
    name: str
    memory: str
    verified: list[str]
    hypotheses: list[str]


class PlanReport(_Out):
    """`pagereader plan --format json`."""

    schema_version: int = SCHEMA_VERSION
    gpus: list[str]
    models: list[str]
    table: list[CellReport]
    layouts: list[LayoutReport]
    notes: list[NoteReport]


def model_report(
    model: ModelSpec,
    width: int,
    height: int,
    min_pixels: int | None = None,
    max_pixels: int | None = None,
) -> ModelReport:
    """One model's facts and the figures derived from them, for one image."""
    lo = model.min_pixels if min_pixels is None else min_pixels
    hi = model.max_pixels if max_pixels is None else max_pixels
    tokens = visual_tokens(model, width, height, lo, hi)
    rh, rw = smart_resize(height, width, model.factor, lo, hi)
    return ModelReport(
        key=model.key,
        repo=model.repo,
        role=model.role,
        params_b=model.params_b,
        active_params_b=model.active_params_b,
        layers=model.layers,
        kv_layers=model.kv_layers,
        kv_heads=model.kv_heads,
        head_dim=model.head_dim,
        hybrid=model.hybrid,
        reasoning=model.reasoning,
        factor=model.factor,
        kv_bytes_per_token=PerKvDtype(
            bf16=kv_bytes_per_token(model, "bf16"), fp8=kv_bytes_per_token(model, "fp8")
        ),
        linear_state_bytes_per_seq=linear_state_bytes(model),
        weights_gb=PerWeightDtype(
            bf16=round(weights_bytes(model, "bf16") / GB, 2),
            fp8=round(weights_bytes(model, "fp8") / GB, 2),
            int4=round(weights_bytes(model, "int4") / GB, 2),
        ),
        visual_tokens=tokens,
        image=ImageFacts(
            width=width,
            height=height,
            resized_width=rw,
            resized_height=rh,
            min_pixels=lo,
            max_pixels=hi,
        ),
        sources=list(model.sources),
    )


def cell_report(f: Fit) -> CellReport:
    o = f.option
    return CellReport(
        model=f.model.key,
        gpus=f.gpus.label,
        cell=f.cell(),
        dtype=o.dtype if o else None,
        tp=o.tp if o else None,
        replicas_per_card=o.replicas_per_card if o else None,
        concurrency=o.concurrency if o else None,
    )


def path_report(path: CriticalPath, profile: str) -> PathReport:
    def terms(items: list[Term]) -> list[TermReport]:
        return [
            TermReport(name=t.name, seconds=round(t.seconds, 4), uses=list(t.uses)) for t in items
        ]

    slowest = path.bottleneck
    return PathReport(
        seconds=round(path.seconds, 3),
        profile=profile,
        serial=path.serial,
        constants=[
            ConstReport(name=name, value=c.value, unit=c.unit, source=c.source)
            for name, c in sorted(path.constants.items())
        ],
        bottleneck=slowest.label if slowest else None,
        cpu=terms(path.cpu),
        groups=[
            GroupReport(engine=g.label, seconds=round(g.seconds, 3), terms=terms(g.terms))
            for g in path.groups
        ],
    )


def decode_ms(inst: Instance, layout: Layout) -> float:
    """One decode step at batch 1 at a figure request's context (calibrated if measured)."""
    est = layout.estimate or Estimate()
    calibrated = est.calibration.get(inst.model.key)
    if calibrated is not None:
        return round(calibrated.decode_ms_batch1, 2)
    shape = figure_shape(inst.model)
    context = shape.visual_tokens + shape.text_tokens
    step = decode_step_seconds(
        inst.model, layout.gpus.gpu, inst.dtype, inst.tp, est.constants, 1, context
    )
    return round(step * 1000, 2)


def tokens_bound(inst: Instance, layout: Layout) -> float:
    """One sequence's decode ceiling at a figure request's context."""
    shape = figure_shape(inst.model)
    context = shape.visual_tokens + shape.text_tokens
    bound = tokens_per_s_bound(inst.model, layout.gpus.gpu, inst.dtype, inst.tp, context)
    return round(bound, 1)


def accelerator_report(gpu: GpuSpec) -> AcceleratorReport:
    return AcceleratorReport(
        key=gpu.key,
        name=gpu.name,
        platform=gpu.platform,
        memory_gb=round(gpu.memory_bytes / GB, 1),
        planned_gb=round(gpu.planned_bytes * gpu.max_utilization / GB, 1),
        bandwidth_gbs=gpu.bandwidth_gbs,
        tflops=gpu.bf16_tflops,
        tflops_kind=gpu.tflops_kind,
        fp8=gpu.fp8,
        aliases=list(gpu.aliases),
        source=gpu.source,
    )


def layout_report(layout: Layout) -> LayoutReport:
    gpu = layout.gpus.gpu
    est = layout.estimate or Estimate()
    instances = [
        InstanceReport(
            model=i.model.key,
            dtype=i.dtype,
            tp=i.tp,
            cards=i.cards,
            port=i.port,
            gpu_memory_utilization=i.utilization,
            concurrency=budget(i.model, gpu, i.dtype, i.tp, i.utilization).concurrency,
            max_num_seqs=max_num_seqs(i),
            decode_ms_per_token=decode_ms(i, layout),
            decode_tokens_per_s_bound=tokens_bound(i, layout),
            command=serve_command(i, gpu, n),
        )
        for n, i in enumerate(layout.instances)
    ]
    return LayoutReport(
        gpus=layout.gpus.label,
        platform=gpu.platform,
        server="mlx-vlm" if gpu.platform == "apple" else "vllm",
        target_s=layout.target_s,
        slide_s=layout.slide_s,
        meets_target=layout.meets_target,
        instances=instances,
        warnings=layout_warnings(layout),
        critical_path=path_report(layout.path, est.constants.name) if layout.path else None,
    )


def plan_report(
    sets: list[GpuSet], models: list[ModelSpec], fits: list[Fit], layouts: list[Layout]
) -> PlanReport:
    return PlanReport(
        gpus=[s.label for s in sets],
        models=[m.key for m in models],
        table=[cell_report(f) for f in fits],
        layouts=[layout_report(lay) for lay in layouts],
        notes=[
            NoteReport(
                name=n.name,
                memory=n.memory,
                verified=list(n.verified),
                hypotheses=list(n.hypotheses),
            )
            for n in NOTES
        ],
    )
