"""Cloud TPU chips as the planner sizes them, and what vLLM's TPU backend has confirmed.

HBM, bandwidth and BF16 TFLOPS a chip are Google Cloud's published figures (the TPU v5e, TPU
v6e and TPU7x (Ironwood) pages of cloud.google.com/tpu/docs): v5e 16 GB at 819 GB/s and 197
TFLOPS; v6e 32 GB at 1,640 GB/s and 918 TFLOPS; v7x 192 GB at 7,370 GB/s and 2,307 TFLOPS.
A v7x chip holds two TensorCores, which tpu-inference counts as two devices
(``tpu_info.get_num_cores_per_chip``): its ``--tensor-parallel-size`` counts those.

The support facts are the tpu-inference 0.32.0 README's release support matrix (last updated
2026-10-22; the live one is github.com/vllm-project/tpu-inference, support_matrices/):
Qwen2.5-VL-7B-Instruct passes unit and correctness tests (performance untested), the Gemma 4
multimodal models pass all three, and Qwen3-VL-8B-Instruct is listed untested; the package's
native JAX models include qwen2_5_vl and gemma4_mm and no Qwen3-VL or PaddleOCR-VL."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pagereader.planner.accelerator import GpuSpec

TPUS: tuple[GpuSpec, ...] = (
    GpuSpec(
        "tpu-v5e",
        "TPU v5e",
        16 * 10**9,
        819,
        197,
        False,
        "v5e",
        ("v5e", "v5litepod", "tpu-v5-lite"),
        platform="tpu",
        source="Google Cloud TPU v5e: 16 GB HBM2 a chip, 819 GB/s, 197 TFLOPS BF16",
    ),
    GpuSpec(
        "tpu-v6e",
        "TPU v6e (Trillium)",
        32 * 10**9,
        1640,
        918,
        False,
        "v6e",
        ("v6e", "trillium", "tpu-trillium"),
        platform="tpu",
        source="Google Cloud TPU v6e: 32 GB HBM a chip, 1,640 GB/s, 918 TFLOPS BF16",
    ),
    GpuSpec(
        "tpu-v7x",
        "TPU v7x (Ironwood)",
        192 * 10**9,
        7370,
        2307,
        True,
        "v7x",
        ("v7x", "tpu7x", "ironwood", "tpu-ironwood"),
        platform="tpu",
        devices_per_chip=2,
        source="Google Cloud TPU7x (Ironwood): 192 GB HBM3e a chip, 7.37 TB/s, 2,307 TFLOPS BF16",
    ),
)

#: Chips one TPU VM holds: a server's tensor-parallel group stays inside one host.
CHIPS_PER_HOST = {"tpu-v5e": 8, "tpu-v6e": 8, "tpu-v7x": 4}

#: Where and when the support facts were read.
SUPPORT_SOURCE = (
    "tpu-inference 0.32.0 release support matrix, updated 2026-10-22 "
    "(check github.com/vllm-project/tpu-inference support_matrices/ before deploying)"
)


@dataclass(frozen=True)
class Support:
    """One model's status on the TPU backend and what to serve in its place."""

    status: str
    fallback: str | None = None


#: By catalog key. A model absent here is not in the matrix: Qwen2.5-VL-7B reads it instead.
SUPPORT: dict[str, Support] = {
    "qwen2.5-vl-7b": Support("unit and correctness tests pass; performance untested"),
    "qwen3-vl-8b": Support("listed untested", "qwen2.5-vl-7b"),
}
FALLBACK = "qwen2.5-vl-7b"
#: The tested multimodal alternative for figure descriptions (not in the catalog: its configs
#: were not in the sources, so it is named, not sized).
GEMMA = "Gemma 4 multimodal (google/gemma-4-31B-it, 26B-A4B, E4B, E2B)"


def support(key: str) -> Support:
    """A catalog model's status on TPU: confirmed, listed untested, or not in the matrix."""
    return SUPPORT.get(key, Support("not in the support matrix", FALLBACK))


_SLICE = re.compile(r"(?:tpu-?)?(v5e|v5litepod|v6e|v7x|tpu7x|trillium|ironwood)(?:-(\d+))?")


def find(wanted: str) -> tuple[GpuSpec, int | None] | None:
    """A TPU kind and its chip count from Google's slice names ('tpu-v6e-8', 'v5litepod-4')
    or a bare kind ('TPU-v5e'); None when the name is not a TPU."""
    match = _SLICE.fullmatch(wanted)
    if match is None:
        return None
    kind = match.group(1)
    gpu = next(t for t in TPUS if kind in {t.key.removeprefix("tpu-"), *t.aliases})
    chips = int(match.group(2)) if match.group(2) else None
    return gpu, chips
