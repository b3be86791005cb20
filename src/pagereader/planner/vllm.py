"""Serve commands for a layout (`vllm serve` on GPUs and TPUs, mlx_vlm.server on a Mac), the
warnings the design notes learned the hard way, and the pagereader engines/routes config that
points at those servers.

Every command carries ``--trust-request-mm-kwargs``: pagereader sends each block's pixel
bounds in ``mm_processor_kwargs``, and a current vLLM refuses them (400) without it. Video is
limited to none: pagereader sends only images, and vLLM would otherwise reserve memory for a
video in its profiling run. The emitted config carries the commands as ``# start:`` comments
beside the engine they serve, so config and servers are written together.

On TPU the command is vLLM's own (the tpu-inference plugin reads the same flags, and
--gpu-memory-utilization caps its HBM); a server is pinned to its chips by the libtpu
variables tpu-inference sets for its own multi-process runs (TPU_VISIBLE_CHIPS, the chip
bounds, one TPU_PROCESS_PORT a server)."""

from __future__ import annotations

import json
import math

from pagereader.planner.catalog import ModelSpec
from pagereader.planner.hardware import GpuSpec
from pagereader.planner.memory import MAX_MODEL_LEN, REQUEST_MIN_PIXELS, SERVE_MAX_PIXELS
from pagereader.planner.mlx import mlx_args, mlx_repo
from pagereader.planner.placement import MAX_NUM_SEQS, Instance, Layout
from pagereader.planner.platforms import platform_warnings

HOST = "127.0.0.1"
#: Lets each request carry its own pixel bounds; without it vLLM answers them 400.
TRUST_REQUEST_MM_KWARGS = "--trust-request-mm-kwargs"
START_PREFIX = "# start: "
IMAGES_PER_PROMPT = {"parser": 1, "general": 4}
#: libtpu's first process port (tpu_inference.distributed.jax_parallel_state).
TPU_PROCESS_PORT = 8476


def served_repo(inst: Instance) -> str:
    """The checkpoint to load: the BF16 repo, Qwen's -FP8 sibling, a community AWQ one, or
    mlx-community's conversion."""
    if inst.dtype in ("q4", "q8"):
        return mlx_repo(inst.model.repo, inst.dtype)
    if inst.dtype == "fp8":
        return f"{inst.model.repo}-FP8"
    if inst.dtype == "int4":
        return inst.model.int4_repo or f"<org>/{inst.model.repo.split('/')[-1]}-AWQ"
    return inst.model.repo


def max_num_seqs(inst: Instance) -> int:
    """Enough sequences to batch a slide's blocks, never more than the KV can hold."""
    return max(1, min(MAX_NUM_SEQS, inst.concurrency))


def served_name(inst: Instance, gpu: GpuSpec) -> str:
    """The model name requests carry: vLLM's --served-model-name, or the repo mlx-vlm loaded."""
    if gpu.platform == "apple":
        return mlx_repo(inst.model.repo, inst.dtype)
    return inst.model.repo


def serve_args(inst: Instance, gpu: GpuSpec) -> list[str]:
    """The flags of one server, one flag (with its value) an item."""
    if gpu.platform == "apple":
        return mlx_args(inst.model.repo, inst.dtype, inst.port, max_num_seqs(inst))
    model = inst.model
    args = [f"vllm serve {served_repo(inst)}"]
    if inst.dtype == "int4":
        args.append("--quantization awq_marlin")
    else:
        args.append("--dtype bfloat16")
    args.append(f"--served-model-name {model.repo}")
    args.append(f"--tensor-parallel-size {inst.tp * gpu.devices_per_chip}")
    args.append(f"--max-model-len {MAX_MODEL_LEN}")
    images = IMAGES_PER_PROMPT[model.role]
    args.append(f"--limit-mm-per-prompt '{json.dumps({'image': images, 'video': 0})}'")
    args.append(f"--max-num-seqs {max_num_seqs(inst)}")
    args.append(f"--gpu-memory-utilization {inst.utilization:.2f}")
    pixels = {"min_pixels": REQUEST_MIN_PIXELS, "max_pixels": SERVE_MAX_PIXELS}
    args.append(f"--mm-processor-kwargs '{json.dumps(pixels)}'")
    args.append(TRUST_REQUEST_MM_KWARGS)
    args.extend(model.extra_serve_flags)
    if model.hybrid and gpu.hopper:
        args.append("--gdn-prefill-backend triton")
    args.append(f"--host {HOST} --port {inst.port}")
    return args


def pin(inst: Instance, gpu: GpuSpec, index: int = 0) -> str:
    """The environment that pins a server to its devices (nothing on a Mac: one GPU)."""
    devices = ",".join(str(c) for c in inst.cards)
    if gpu.platform == "apple":
        return ""
    if gpu.platform == "rocm":
        return f"HIP_VISIBLE_DEVICES={devices} "
    if gpu.platform == "tpu":
        return (
            f"TPU_VISIBLE_CHIPS={devices} TPU_CHIPS_PER_PROCESS_BOUNDS=1,{len(inst.cards)},1 "
            f"TPU_PROCESS_BOUNDS=1,1,1 TPU_PROCESS_PORT={TPU_PROCESS_PORT + index} "
        )
    return f"CUDA_VISIBLE_DEVICES={devices} "


def serve_command(inst: Instance, gpu: GpuSpec, index: int = 0) -> str:
    """A shell command line, pinned to its devices (``index``: the server's place in the
    layout, for what must differ between servers of one host)."""
    return pin(inst, gpu, index) + " \\\n  ".join(serve_args(inst, gpu))


def start_line(inst: Instance, gpu: GpuSpec, index: int = 0) -> str:
    """The serve command on one line, as the emitted config's ``# start:`` comment."""
    return START_PREFIX + pin(inst, gpu, index) + " ".join(serve_args(inst, gpu))


def model_warnings(model: ModelSpec, gpu: GpuSpec, dtype: str) -> list[str]:
    """What went wrong for others with this model on this card."""
    out: list[str] = []
    if model.reasoning:
        out.append(
            f"{model.key} thinks before it answers (slow, timeouts): prefer an Instruct "
            "(non-thinking) checkpoint for OCR, or send chat_template_kwargs "
            '{"enable_thinking": false} with every request'
        )
    if gpu.platform in ("tpu", "apple"):
        return out
    if model.hybrid and gpu.hopper:
        out.append(
            f"{model.key} is a Gated DeltaNet hybrid: on Hopper vLLM JIT-compiles the FlashInfer "
            "GDN prefill kernel at cold start (memory spike, exit 137): pass "
            "--gdn-prefill-backend triton (added) and pin one GPU kind per pool"
        )
    elif model.hybrid:
        out.append(
            f"{model.key} is a Gated DeltaNet hybrid: confirm the vLLM version and the "
            f"flash-linear-attention kernel path on {gpu.name} first, and pin one GPU kind per "
            "pool (different cards pick different kernels)"
        )
    if dtype == "int4" and not gpu.hopper and gpu.platform in ("cuda", "rocm"):
        out.append(
            f"{model.key} INT4: community AWQ checkpoints; verify the awq_marlin kernel on "
            f"{gpu.name} before relying on it"
        )
    return out


def layout_warnings(layout: Layout) -> list[str]:
    """Warnings for a whole layout: the card kind first, then each distinct model."""
    gpu = layout.gpus.gpu
    out = platform_warnings(gpu, layout.gpus.count)
    if not gpu.fp8 and gpu.platform in ("cuda", "rocm"):
        out.append(
            f"{gpu.name} has no FP8 tensor cores: the FP8 checkpoints Qwen publishes do not help "
            "here; use BF16 or INT4"
        )
    seen: set[tuple[str, str]] = set()
    for inst in layout.instances:
        if (inst.model.key, inst.dtype) in seen:
            continue
        seen.add((inst.model.key, inst.dtype))
        out.extend(model_warnings(inst.model, gpu, inst.dtype))
    out.extend(layout.warnings)
    return out


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def engine_names(layout: Layout) -> dict[str, list[Instance]]:
    """Engine name to its replicas: 'parser', 'general', then further models by key."""
    by_model: dict[str, list[Instance]] = {}
    for inst in layout.instances:
        by_model.setdefault(inst.model.key, []).append(inst)
    names: dict[str, list[Instance]] = {}
    for group in by_model.values():
        role = group[0].model.role
        name = role if role not in names else group[0].model.key
        names[name] = group
    return names


def _routes(names: dict[str, list[Instance]]) -> dict[str, list[str]]:
    reader = "parser" if "parser" in names else "general"
    generals = [n for n, g in names.items() if g[0].model.role == "general"]
    strongest = max(generals, key=lambda n: names[n][0].model.params_b) if generals else reader
    return {
        "digital.text": ["textlayer"],
        "scan.text": [reader, "rapidocr"],
        "dense.*": [reader, "rapidocr"],
        "*.figure": [strongest],
        "*.table": [reader, "rapidocr"],
    }


def emit_config(layout: Layout) -> str:
    """The pagereader config (engines, routes, budget) that points at this layout's servers."""
    names = engine_names(layout)
    gpu = layout.gpus.gpu
    lines = [f"# pagereader config for {layout.gpus.label}, written by `pagereader plan`"]
    index = {id(inst): n for n, inst in enumerate(layout.instances)}
    # A Mac reads a slide in tens of seconds (its plan says why): give requests and pages room.
    mac = gpu.platform == "apple"
    timeout = 300 if mac else 60
    deadline = max(layout.target_s, math.ceil(2 * layout.slide_s)) if mac else layout.target_s
    for name, group in names.items():
        first = group[0]
        lines += ["", *(start_line(inst, gpu, index[id(inst)]) for inst in group)]
        lines += [
            f"[engines.{name}]",
            'kind = "openai"',
            f"base_url = {_toml_str(f'http://{HOST}:{first.port}/v1')}",
            f"model = {_toml_str(served_name(first, gpu))}",
            f"prompt_style = {_toml_str(first.model.prompt_style)}",
            f"max_concurrency = {max_num_seqs(first)}",
            f"timeout_s = {timeout}",
            "retries = 2",
            f"image_factor = {first.model.factor}",
        ]
        if mac:  # mlx-vlm reads the pixel bounds from its own fields (served_fields.py)
            lines.append('server = "mlx-vlm"')
        for other in group[1:]:
            lines.append(f"# replica: http://{HOST}:{other.port}/v1 (put a load balancer in front)")
    lines += ["", "[routes]"]
    for key, chain in _routes(names).items():
        lines.append(f"{_toml_str(key)} = [{', '.join(_toml_str(c) for c in chain)}]")
    lines += ["", "[budget]", f"page_deadline_s = {float(deadline)}", ""]
    return "\n".join(lines)
