"""Facts about the accelerators the planner sizes layouts for, each with its source, and the
names people write for them. NVIDIA and AMD cards are here; Apple silicon is in apple.py and
Cloud TPUs in tpu.py. Memory is what the card's own tool reports where that was read
(nvidia-smi, in MiB), else the datasheet's decimal GB; TFLOPS are dense (no sparsity)."""

from __future__ import annotations

from dataclasses import dataclass

from pagereader.errors import ConfigError
from pagereader.planner import apple, tpu
from pagereader.planner.accelerator import GPU_MEMORY_UTILIZATION, GpuSpec, Platform
from pagereader.planner.catalog import normalize_name

__all__ = [
    "GPUS",
    "GPU_MEMORY_UTILIZATION",
    "NOTES",
    "GpuSpec",
    "Platform",
    "PlatformNote",
    "Resolved",
    "get_gpu",
    "known",
    "resolve",
]

_MIB = 1024**2
_GB = 10**9

GPUS: tuple[GpuSpec, ...] = (
    GpuSpec(
        "a100-40",
        "A100 40GB",
        40960 * _MIB,
        1555,
        312,
        False,
        "8.0",
        ("a100-40gb",),
        source="NVIDIA A100 datasheet: 40 GB HBM2, 1,555 GB/s, 312 TFLOPS BF16; "
        "no FP8 tensor cores (Ampere); nvidia-smi 40960 MiB",
    ),
    GpuSpec(
        "a100-80",
        "A100 80GB",
        81920 * _MIB,
        2039,
        312,
        False,
        "8.0",
        ("a100-80gb", "a100-sxm"),
        source="NVIDIA A100 datasheet: 80 GB HBM2e SXM, 2,039 GB/s; nvidia-smi 81920 MiB",
    ),
    GpuSpec(
        "h100-80",
        "H100 SXM 80GB",
        81559 * _MIB,
        3350,
        989,
        True,
        "9.0",
        ("h100", "h100-80gb", "h100-sxm"),
        source="NVIDIA H100 datasheet: SXM 80 GB HBM3, 3.35 TB/s, 989 TFLOPS BF16, FP8; "
        "nvidia-smi 81559 MiB",
    ),
    GpuSpec(
        "h100-pcie",
        "H100 PCIe 80GB",
        81559 * _MIB,
        2000,
        756,
        True,
        "9.0",
        ("h100-pcie-80", "h100-pcie-80gb"),
        source="NVIDIA H100 datasheet: PCIe 80 GB HBM2e, 2 TB/s, 756 TFLOPS BF16, FP8",
    ),
    GpuSpec(
        "h200",
        "H200 141GB",
        143771 * _MIB,
        4800,
        989,
        True,
        "9.0",
        ("h200-141",),
        source="NVIDIA H200 datasheet: 141 GB HBM3e, 4.8 TB/s, H100's compute; "
        "nvidia-smi 143771 MiB",
    ),
    GpuSpec(
        "b200",
        "B200 180GB",
        180 * _GB,
        8000,
        2250,
        True,
        "10.0",
        ("b200-180",),
        source="NVIDIA HGX B200 datasheet: 180 GB HBM3e a GPU, 8 TB/s, 2.25 PFLOPS BF16 "
        "dense (4.5 with sparsity), FP8",
    ),
    GpuSpec(
        "l4",
        "L4 24GB",
        23034 * _MIB,
        300,
        121,
        True,
        "8.9",
        ("l4-24",),
        source="NVIDIA L4 datasheet: 24 GB GDDR6, 300 GB/s, 121 TFLOPS BF16 dense "
        "(242 with sparsity), FP8; nvidia-smi 23034 MiB",
    ),
    GpuSpec(
        "l40s",
        "L40S 48GB",
        46068 * _MIB,
        864,
        362,
        True,
        "8.9",
        ("l40s-48",),
        source="NVIDIA L40S datasheet: 48 GB GDDR6, 864 GB/s, 362 TFLOPS BF16 dense, FP8; "
        "nvidia-smi 46068 MiB",
    ),
    GpuSpec(
        "rtx4090",
        "GeForce RTX 4090 24GB",
        24564 * _MIB,
        1008,
        165.2,
        True,
        "8.9",
        ("rtx-4090", "4090", "geforce-rtx-4090"),
        source="NVIDIA Ada architecture whitepaper: RTX 4090 24 GB GDDR6X, 1,008 GB/s, "
        "165.2 TFLOPS BF16 dense with FP32 accumulate; nvidia-smi 24564 MiB",
    ),
    GpuSpec(
        "rtx5090",
        "GeForce RTX 5090 32GB",
        32607 * _MIB,
        1792,
        209.5,
        True,
        "12.0",
        ("rtx-5090", "5090", "geforce-rtx-5090"),
        source="NVIDIA Blackwell (GeForce) whitepaper: RTX 5090 32 GB GDDR7, 1,792 GB/s, "
        "209.5 TFLOPS BF16 dense with FP32 accumulate; nvidia-smi 32607 MiB",
    ),
    GpuSpec(
        "mi300x",
        "Instinct MI300X 192GB",
        192 * _GB,
        5300,
        1307.4,
        True,
        "gfx942",
        ("mi300x-192", "amd-mi300x"),
        platform="rocm",
        source="AMD Instinct MI300X datasheet: 192 GB HBM3, 5.3 TB/s, 1,307.4 TFLOPS BF16 "
        "dense, FP8",
    ),
    GpuSpec(
        "mi325x",
        "Instinct MI325X 256GB",
        256 * _GB,
        6000,
        1307.4,
        True,
        "gfx942",
        ("mi325x-256", "amd-mi325x"),
        platform="rocm",
        source="AMD Instinct MI325X datasheet: 256 GB HBM3E, 6 TB/s, 1,307.4 TFLOPS BF16 "
        "dense, FP8",
    ),
)

#: Names that mean one kind but not exactly: the note goes into the plan's warnings.
_LOOSE = {
    "a100": ("a100-80", "'A100' read as the 80 GB card; write A100-40 for the 40 GB one"),
}


@dataclass(frozen=True)
class PlatformNote:
    """What is confirmed and what is not on a platform, beside its sized plan."""

    key: str
    name: str
    memory: str
    verified: tuple[str, ...] = ()
    hypotheses: tuple[str, ...] = ()


NOTES: tuple[PlatformNote, ...] = (
    PlatformNote(
        key="tpu",
        name="TPU v5e / v6e / v7x (vLLM tpu-inference)",
        memory="v5e 16 GB, v6e 32 GB, v7x 192 GB HBM a chip",
        verified=(
            "tpu-inference recommends v7x, v5e and v6e",
            f"Qwen2.5-VL-7B-Instruct: {tpu.SUPPORT['qwen2.5-vl-7b'].status}",
            f"{tpu.GEMMA}: unit, correctness and performance tests pass",
            f"as of the {tpu.SUPPORT_SOURCE}",
        ),
        hypotheses=(
            "Qwen3-VL on TPU: listed untested; the plan places Qwen2.5-VL-7B (same qwenvl "
            "html prompt family) in its place",
        ),
    ),
    PlatformNote(
        key="apple",
        name="Apple silicon (mlx-vlm)",
        memory="unified memory, about 75% wired for the GPU by default above 36 GB",
        verified=(
            "mlx-vlm 0.7.10 ships qwen3_vl, qwen2_5_vl and paddleocr_vl models and serves "
            "them over /v1/chat/completions",
            "Qwen3-VL-8B at MLX 4-bit is about 5 GB of language weights plus a 16-bit vision "
            "tower: it fits every M-series Mac with 16 GB or more",
        ),
        hypotheses=(
            "decode is bound by memory bandwidth and prefill by the GPU's FP32 rate: "
            "development and evaluation, not the five-second path (see the plan's estimate)",
        ),
    ),
)


@dataclass(frozen=True)
class Resolved:
    """What a name meant: the kind, a chip count the name carried (tpu-v6e-8), and a note
    when the name was loose (A100, M1 Max)."""

    gpu: GpuSpec
    count: int | None = None
    note: str = ""


def known() -> tuple[GpuSpec, ...]:
    """Every kind the planner sizes: GPUs, TPU chips, then Macs."""
    return (*GPUS, *tpu.TPUS, *apple.APPLE)


def resolve(name: str) -> Resolved:
    """Find an accelerator by key, alias or the way people write it."""
    wanted = normalize_name(name).replace("geforce-", "").removeprefix("nvidia-")
    wanted = wanted.removeprefix("amd-").removesuffix("-gpu")
    if wanted in _LOOSE:
        key, note = _LOOSE[wanted]
        return Resolved(next(g for g in GPUS if g.key == key), note=note)
    for gpu in (*GPUS, *tpu.TPUS, *apple.APPLE):
        if wanted in {gpu.key, *gpu.aliases}:
            return Resolved(gpu)
    slice_ = tpu.find(wanted)
    if slice_ is not None:
        return Resolved(slice_[0], slice_[1])
    mac = apple.find(wanted)
    if mac is not None:
        return Resolved(mac[0], note=f"{name!r} {mac[1]}" if mac[1] else "")
    keys = ", ".join(g.key for g in (*GPUS, *tpu.TPUS))
    raise ConfigError(
        f"unknown GPU {name!r}",
        hint=f"known: {keys}, Apple m1..m4[-pro|-max|-ultra]-GB; `pagereader plan --list`",
    )


def get_gpu(name: str) -> GpuSpec:
    """The kind a name means (see ``resolve`` for the count and note it may carry)."""
    return resolve(name).gpu
