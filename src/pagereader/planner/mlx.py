"""mlx_vlm.server commands for a Mac's layout (mlx-vlm 0.7.10's server flags: --model,
--host, --port, --min-pixels, --max-pixels, --max-num-seqs).

mlx-vlm answers /v1/chat/completions, loads the model a request names (so the config names
the served mlx-community repo exactly), and takes per-request pixel bounds as top-level
``min_pixels``/``max_pixels`` fields rather than vLLM's ``mm_processor_kwargs``: the server's
own bounds are set to what pagereader sends by default, and they hold for every request."""

from __future__ import annotations

from pagereader.planner.memory import REQUEST_MAX_PIXELS, REQUEST_MIN_PIXELS, WeightDtype

HOST = "127.0.0.1"
SERVER = "mlx_vlm.server"
_SUFFIX = {"q4": "4bit", "q8": "8bit", "bf16": "bf16"}


def mlx_repo(repo: str, dtype: WeightDtype) -> str:
    """mlx-community's conversion of a Hugging Face repo: <name>-4bit, -8bit or -bf16 (the
    design notes' mlx-community/Qwen3-VL-8B-Instruct-4bit follows this pattern)."""
    return f"mlx-community/{repo.split('/')[-1]}-{_SUFFIX.get(dtype, 'bf16')}"


def mlx_args(repo: str, dtype: WeightDtype, port: int, max_num_seqs: int) -> list[str]:
    """The flags of one mlx_vlm.server, one flag (with its value) an item."""
    return [
        f"{SERVER} --model {mlx_repo(repo, dtype)}",
        f"--min-pixels {REQUEST_MIN_PIXELS} --max-pixels {REQUEST_MAX_PIXELS}",
        f"--max-num-seqs {max_num_seqs}",
        f"--host {HOST} --port {port}",
    ]
