"""Facts about the accelerators the planner sizes layouts for, and the platforms it only
reports on (TPU, Apple silicon): memory, bandwidth, FP8 support, with the source of each."""

from __future__ import annotations

from dataclasses import dataclass, field

from pagereader.errors import ConfigError
from pagereader.planner.catalog import normalize_name


@dataclass(frozen=True)
class GpuSpec:
    """One accelerator kind: what vLLM sees as total memory, and how fast it reads it."""

    key: str
    name: str
    memory_bytes: int
    bandwidth_gbs: float
    bf16_tflops: float
    fp8: bool
    compute_capability: str
    aliases: tuple[str, ...] = ()

    @property
    def hopper(self) -> bool:
        """sm_90: vLLM picks the JIT-compiled FlashInfer GDN prefill kernel here (seed 001)."""
        return self.compute_capability == "9.0"


_MIB = 1024**2

GPUS: tuple[GpuSpec, ...] = (
    # NVIDIA A100 datasheet: 40 GB HBM2, 1,555 GB/s, BF16 312 TFLOPS dense, no FP8 tensor
    # cores (Ampere, sm_80); nvidia-smi reports 40960 MiB.
    GpuSpec("a100-40", "A100 40GB", 40960 * _MIB, 1555, 312, False, "8.0", ("a100-40gb",)),
    # A100 80GB SXM: HBM2e, 2,039 GB/s; nvidia-smi 81920 MiB.
    GpuSpec("a100-80", "A100 80GB", 81920 * _MIB, 2039, 312, False, "8.0", ("a100-80gb",)),
    # H100 SXM datasheet: 80 GB HBM3, 3.35 TB/s, BF16 989 TFLOPS dense, FP8 (sm_90);
    # nvidia-smi 81559 MiB.
    GpuSpec("h100-80", "H100 80GB", 81559 * _MIB, 3350, 989, True, "9.0", ("h100", "h100-80gb")),
    # H200 datasheet: 141 GB HBM3e, 4.8 TB/s, same compute as H100; nvidia-smi 143771 MiB.
    GpuSpec("h200", "H200 141GB", 143771 * _MIB, 4800, 989, True, "9.0", ("h200-141",)),
    # L40S datasheet: 48 GB GDDR6, 864 GB/s, BF16 362 TFLOPS dense, FP8 (Ada, sm_89);
    # nvidia-smi 46068 MiB.
    GpuSpec("l40s", "L40S 48GB", 46068 * _MIB, 864, 362, True, "8.9", ("l40s-48",)),
)


@dataclass(frozen=True)
class PlatformNote:
    """A platform the planner does not size but whose status it reports."""

    key: str
    name: str
    memory: str
    verified: tuple[str, ...] = field(default_factory=tuple)
    hypotheses: tuple[str, ...] = field(default_factory=tuple)


NOTES: tuple[PlatformNote, ...] = (
    PlatformNote(
        key="tpu",
        name="TPU v5e / v6e (vLLM tpu-inference)",
        # Google Cloud TPU docs: v5e 16 GB HBM a chip (819 GB/s), v6e 32 GB (1,640 GB/s).
        memory="v5e 16 GB HBM per chip, v6e 32 GB HBM per chip",
        verified=(
            "tpu-inference recommends v5e, v6e and v7x (seed 000)",
            "Qwen2.5-VL-7B-Instruct passes unit and correctness tests, not performance (seed 000)",
            "Gemma 4 multimodal models are fully tested (seed 000)",
        ),
        hypotheses=(
            "Qwen3-VL on TPU: not confirmed; check the backend's support matrix first",
            "fallback: Qwen2.5-VL-7B (same qwenvl html prompt family)",
        ),
    ),
    PlatformNote(
        key="m1-max",
        name="Apple M1 Max 64 GB (mlx-vlm)",
        # Apple: M1 Max unified memory up to 64 GB at 400 GB/s.
        memory="64 GB unified memory, 400 GB/s",
        verified=(
            "mlx-vlm serves mlx-community 4-bit conversions (seed 000)",
            "Qwen3-VL-8B 4-bit is about 5 GB and 32B about 18 GB: both fit in 64 GB",
        ),
        hypotheses=(
            "generation speed is bandwidth-bound and unmeasured for these models: "
            "development and evaluation only, not the five-second path",
        ),
    ),
)


def get_gpu(name: str) -> GpuSpec:
    """Find a GPU kind by key or alias; TPU and Mac are notes, not planning targets."""
    wanted = normalize_name(name)
    for gpu in GPUS:
        if wanted in {gpu.key, *gpu.aliases}:
            return gpu
    for note in NOTES:
        if wanted.startswith(note.key) or wanted.startswith("tpu"):
            raise ConfigError(
                f"{name!r} is reported as a note, not sized",
                hint="run `pagereader plan --format json` and read notes, or pick a GPU",
            )
    known = ", ".join(g.key for g in GPUS)
    raise ConfigError(f"unknown GPU {name!r}", hint=f"known GPUs: {known}")
