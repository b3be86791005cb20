"""The shape of an accelerator as the planner reads it: memory it can plan, how fast it reads
that memory and computes, and how its servers are started. The rows are in hardware.py
(NVIDIA, AMD), apple.py and tpu.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: cuda and rocm run `vllm serve`; tpu runs vLLM's TPU backend (tpu-inference); apple runs
#: mlx-vlm's server.
Platform = Literal["cuda", "rocm", "tpu", "apple"]

#: vLLM's --gpu-memory-utilization: the share of a card's memory its profiler plans with.
GPU_MEMORY_UTILIZATION = 0.9


@dataclass(frozen=True)
class GpuSpec:
    """One accelerator kind: what its server sees as total memory, and how fast it reads it.

    ``bf16_tflops`` is dense BF16 on GPUs and TPUs; Apple publishes only FP32 for its GPUs
    and runs FP16 at the same rate, so that figure stands there. ``memory_share`` is the part
    of ``memory_bytes`` the planner may give to models: 1 for a card of its own, the GPU's
    wired-memory limit for a Mac's unified memory (the rest belongs to macOS)."""

    key: str
    name: str
    memory_bytes: int
    bandwidth_gbs: float
    bf16_tflops: float
    fp8: bool
    compute_capability: str
    aliases: tuple[str, ...] = ()
    platform: Platform = "cuda"
    memory_share: float = 1.0
    #: Devices the runtime sees in one chip (TPU v7x: two TensorCores, two JAX devices).
    devices_per_chip: int = 1
    tflops_kind: str = "BF16 dense"
    source: str = ""

    @property
    def hopper(self) -> bool:
        """sm_90: vLLM picks the JIT-compiled FlashInfer GDN prefill kernel here."""
        return self.compute_capability == "9.0"

    @property
    def planned_bytes(self) -> float:
        """What the models may use before the server's own utilization share."""
        return self.memory_bytes * self.memory_share

    @property
    def max_utilization(self) -> float:
        """vLLM plans 0.9 of a card or a TPU chip; mlx-vlm has no such share: the wired
        limit already is the cap."""
        return 1.0 if self.platform == "apple" else GPU_MEMORY_UTILIZATION

    @property
    def shareable(self) -> bool:
        """Whether two servers may share one device: not a TPU chip (libtpu opens a chip for
        one process)."""
        return self.platform != "tpu"

    @property
    def unit(self) -> str:
        """What one of it is called in a plan."""
        return {"tpu": "chip", "apple": "GPU"}.get(self.platform, "card")
