"""Apple silicon as the planner sizes it: one GPU with unified memory shared with macOS.

Unified memory, memory bandwidth and GPU cores are Apple's published Tech Specs (the Mac
models' pages at support.apple.com/specs and apple.com/mac/compare); the FP32 TFLOPS are the
figures of Apple's newsroom releases for M1 (2.6), M1 Pro and Max (5.2, 10.4), M1 Ultra (21),
M2 (3.6), M2 Pro and Max (6.8, 13.6) and M2 Ultra (27.2). Apple published no TFLOPS for M3 and
M4: those are estimated at M2's published rate a GPU core (13.6 TFLOPS / 38 cores), which
their higher clocks make a lower bound.

The GPU may wire only part of unified memory: macOS's default limit (Metal's
recommendedMaxWorkingSetSize, which MLX reads) is about three quarters of memory above 36 GB
and about two thirds at or below; the rest is the OS's and the apps'. `sudo sysctl
iogpu.wired_limit_mb=N` raises it, at the risk of swapping."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pagereader.planner.accelerator import GpuSpec

_GIB = 1024**3
#: Apple publishes no TFLOPS for M3 and M4: M2 Max's 13.6 TFLOPS over its 38 GPU cores.
M2_TFLOPS_PER_CORE = 13.6 / 38
#: macOS's default GPU wired limit as a share of unified memory (see the module docstring).
WIRED_SHARE_LARGE = 0.75
WIRED_SHARE_SMALL = 2 / 3
WIRED_SHARE_THRESHOLD_GB = 36


@dataclass(frozen=True)
class Chip:
    """One M-series chip: its published memory sizes (GB), bandwidth a size, GPU cores."""

    key: str
    name: str
    gpu_cores: int
    #: memory size (GB) -> memory bandwidth (GB/s); M3 Max and M4 Max bins differ by size.
    memory: dict[int, float]
    tflops: float | None = None

    def fp32_tflops(self) -> float:
        return self.tflops if self.tflops is not None else self.gpu_cores * M2_TFLOPS_PER_CORE


CHIPS: tuple[Chip, ...] = (
    Chip("m1", "M1", 8, {8: 68.25, 16: 68.25}, 2.6),
    Chip("m1-pro", "M1 Pro", 16, {16: 200, 32: 200}, 5.2),
    Chip("m1-max", "M1 Max", 32, {32: 400, 64: 400}, 10.4),
    Chip("m1-ultra", "M1 Ultra", 64, {64: 800, 128: 800}, 21.0),
    Chip("m2", "M2", 10, {8: 100, 16: 100, 24: 100}, 3.6),
    Chip("m2-pro", "M2 Pro", 19, {16: 200, 32: 200}, 6.8),
    Chip("m2-max", "M2 Max", 38, {32: 400, 64: 400, 96: 400}, 13.6),
    Chip("m2-ultra", "M2 Ultra", 76, {64: 800, 128: 800, 192: 800}, 27.2),
    Chip("m3", "M3", 10, {8: 100, 16: 100, 24: 100}),
    Chip("m3-pro", "M3 Pro", 18, {18: 150, 36: 150}),
    # 30-core GPU with 36 or 96 GB at 300 GB/s; 40-core with 48, 64 or 128 GB at 400 GB/s.
    Chip("m3-max", "M3 Max", 40, {36: 300, 48: 400, 64: 400, 96: 300, 128: 400}),
    Chip("m3-ultra", "M3 Ultra", 80, {96: 819, 256: 819, 512: 819}),
    Chip("m4", "M4", 10, {16: 120, 24: 120, 32: 120}),
    Chip("m4-pro", "M4 Pro", 20, {24: 273, 48: 273, 64: 273}),
    # 32-core GPU with 36 GB at 410 GB/s; 40-core with 48, 64 or 128 GB at 546 GB/s.
    Chip("m4-max", "M4 Max", 40, {36: 410, 48: 546, 64: 546, 128: 546}),
)

#: Binned parts with fewer GPU cores than the chip's top one, by (chip, memory GB).
_BINNED_CORES = {("m3-max", 36): 30, ("m3-max", 96): 30, ("m4-max", 36): 32}


def wired_share(memory_gb: int) -> float:
    """The share of unified memory macOS lets the GPU wire by default."""
    return WIRED_SHARE_LARGE if memory_gb > WIRED_SHARE_THRESHOLD_GB else WIRED_SHARE_SMALL


def spec(chip: Chip, memory_gb: int) -> GpuSpec:
    """One Mac: a chip with one of its memory sizes."""
    cores = _BINNED_CORES.get((chip.key, memory_gb), chip.gpu_cores)
    tflops = chip.fp32_tflops() * cores / chip.gpu_cores
    published = chip.tflops is not None
    return GpuSpec(
        key=f"{chip.key}-{memory_gb}",
        name=f"Apple {chip.name} {memory_gb}GB",
        memory_bytes=memory_gb * _GIB,
        bandwidth_gbs=chip.memory[memory_gb],
        bf16_tflops=round(tflops, 2),
        fp8=False,
        compute_capability="metal",
        aliases=(f"{chip.key}-{memory_gb}gb", f"apple-{chip.key}-{memory_gb}"),
        platform="apple",
        memory_share=wired_share(memory_gb),
        tflops_kind="FP32 (Apple)" if published else "FP32, estimated at M2's rate a core",
        source=(
            f"Apple Tech Specs: {chip.name} {memory_gb} GB unified memory, "
            f"{chip.memory[memory_gb]:g} GB/s, {cores}-core GPU; "
            + (
                f"Apple newsroom: {chip.fp32_tflops():g} TFLOPS"
                if published
                else f"{cores} cores x 13.6/38 TFLOPS (M2 Max's published rate a core)"
            )
        ),
    )


APPLE: tuple[GpuSpec, ...] = tuple(spec(c, gb) for c in CHIPS for gb in c.memory)

_NAME = re.compile(r"(?:apple-?)?(m[1-4])(?:-?(pro|max|ultra))?(?:-?(\d+)(?:-?gb)?)?")


def find(wanted: str) -> tuple[GpuSpec, str] | None:
    """A Mac from what a user wrote ('Apple M1 Max', 'm1-max-64'), with a note when the
    memory size was not given (the largest is planned)."""
    match = _NAME.fullmatch(wanted)
    if match is None:
        return None
    key = match.group(1) + (f"-{match.group(2)}" if match.group(2) else "")
    chip = next((c for c in CHIPS if c.key == key), None)
    if chip is None:
        return None
    sizes = sorted(chip.memory)
    if match.group(3) is None:
        size = sizes[-1]
        note = (
            f"read as {chip.name} {size} GB (the largest); "
            f"write {chip.key}-NN for {', '.join(map(str, sizes[:-1]))} GB"
        )
        return spec(chip, size), note
    size = int(match.group(3))
    if size not in chip.memory:
        return None
    return spec(chip, size), ""
