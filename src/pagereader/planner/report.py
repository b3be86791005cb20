"""The planner's answers as typed, versioned JSON, and as Markdown for the README."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pagereader.planner.catalog import ModelSpec, get_model
from pagereader.planner.hardware import NOTES
from pagereader.planner.layouts import Fit, GpuSet, Layout, decode_seconds_per_token
from pagereader.planner.memory import (
    GB,
    budget,
    kv_bytes_per_token,
    linear_state_bytes,
    smart_resize,
    visual_tokens,
    weights_bytes,
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
    command: str


class LayoutReport(_Out):
    gpus: str
    target_s: float
    slide_s: float
    meets_target: bool
    instances: list[InstanceReport]
    warnings: list[str]


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


def layout_report(layout: Layout) -> LayoutReport:
    gpu = layout.gpus.gpu
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
            decode_ms_per_token=round(
                decode_seconds_per_token(i.model, i.dtype, i.tp, gpu) * 1000, 1
            ),
            command=serve_command(i, gpu),
        )
        for i in layout.instances
    ]
    return LayoutReport(
        gpus=layout.gpus.label,
        target_s=layout.target_s,
        slide_s=layout.slide_s,
        meets_target=layout.meets_target,
        instances=instances,
        warnings=layout_warnings(layout),
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


def table_rows(report: PlanReport) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the what-fits-where table: a model a row, a GPU set a column."""
    header = ["Model", "BF16 weights", "INT4 weights", *report.gpus]
    cells = {(c.model, c.gpus): c.cell for c in report.table}
    rows = []

    for key in report.models:
        model = get_model(key)
        rows.append(
            [
                key,
                f"{weights_bytes(model, 'bf16') / GB:.1f} GB",
                f"{weights_bytes(model, 'int4') / GB:.1f} GB",
                *(cells[(key, g)] for g in report.gpus),
            ]
        )
    return header, rows


def markdown(report: PlanReport) -> str:
    """The table, each layout's commands and warnings, and the platform notes."""
    header, rows = table_rows(report)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    for lay in report.layouts:
        verdict = "meets" if lay.meets_target else "misses"
        out += [
            "",
            f"### {lay.gpus}: estimated {lay.slide_s:.1f} s a slide ({verdict} {lay.target_s:g} s)",
            "",
        ]
        for inst in lay.instances:
            out.append(
                f"- card {','.join(map(str, inst.cards))}: {inst.model} {inst.dtype.upper()}"
                f" TP{inst.tp}, port {inst.port}, ~{inst.concurrency} concurrent requests"
            )
        out += ["", "```bash", *(i.command for i in lay.instances), "```"]
        out += [f"- warning: {w}" for w in lay.warnings]
    out += ["", "Notes (not sized):"]
    for note in report.notes:
        out.append(f"- {note.name}, {note.memory}")
        out += [f"  - verified: {v}" for v in note.verified]
        out += [f"  - hypothesis: {h}" for h in note.hypotheses]
    return "\n".join(out) + "\n"
