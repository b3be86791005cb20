"""What differs between platforms once the memory math is done: which models a platform can
serve (the TPU backend's support matrix), and what a plan must say about it."""

from __future__ import annotations

from pagereader.planner import tpu
from pagereader.planner.accelerator import GpuSpec
from pagereader.planner.catalog import ModelSpec, get_model


def placeable(models: list[ModelSpec], gpu: GpuSpec) -> tuple[list[ModelSpec], list[str]]:
    """The models to place on this platform, and why any was replaced. On TPU a model the
    support matrix does not confirm gives way to Qwen2.5-VL-7B (the qwenvl html prompt family
    the Qwen3-VL prompts come from); without a parser it reads the blocks too."""
    if gpu.platform != "tpu":
        return list(models), []
    out: list[ModelSpec] = []
    notes: list[str] = []
    for model in models:
        status = tpu.support(model.key)
        if status.fallback is None:
            chosen = model
        else:
            chosen = get_model(status.fallback)
            notes.append(
                f"{model.key} on TPU: {status.status}; {chosen.key} placed in its place "
                f"({tpu.support(chosen.key).status}), as of the {tpu.SUPPORT_SOURCE}"
            )
        if all(m.key != chosen.key for m in out):
            out.append(chosen)
    if notes:
        notes.append(
            f"figure descriptions on TPU: {tpu.GEMMA} is the fully tested alternative "
            "(not in the catalog, so not sized here)"
        )
    return out, notes


def platform_warnings(gpu: GpuSpec, count: int) -> list[str]:
    """What a plan on this platform must say beside its commands."""
    if gpu.platform == "apple":
        return [
            f"{gpu.name}: mlx-vlm for development and evaluation; one GPU serves every model "
            "in turn, so the engine groups of a slide add up instead of overlapping",
            "mlx-vlm reads per-request pixel bounds from top-level min_pixels/max_pixels, not "
            'from vLLM\'s mm_processor_kwargs: the config sets server = "mlx-vlm" so the '
            "engine sends those, and the server's --min-pixels/--max-pixels are its defaults",
            "mlx-vlm loads whatever model a request names: the config's model is the served "
            "mlx-community repo, exactly; the repo names follow mlx-community's <name>-4bit "
            "pattern (the design notes name Qwen3-VL-8B-Instruct-4bit): check the others "
            "exist on huggingface.co/mlx-community",
            f"planned {gpu.memory_share:.0%} of {gpu.memory_bytes / 1024**3:.0f} GB unified "
            "memory (macOS's default GPU wired limit); `sudo sysctl iogpu.wired_limit_mb=N` "
            "raises it",
        ]
    if gpu.platform == "tpu":
        out = [
            f"{gpu.name}: one vLLM process a chip group (libtpu opens a chip for one process); "
            "XLA compiles each new shape at start-up (minutes): warm the server before timing"
        ]
        host = tpu.CHIPS_PER_HOST[gpu.key]
        if count > host:
            out.append(
                f"{count} chips span {count // host} hosts of {host}: each host runs its own "
                "servers (the plan keeps tensor parallelism inside a host)"
            )
        if gpu.devices_per_chip > 1:
            out.append(
                f"{gpu.name}: {gpu.devices_per_chip} TensorCores a chip, each a JAX device: "
                "--tensor-parallel-size counts devices (chips x 2)"
            )
        return out
    return []
