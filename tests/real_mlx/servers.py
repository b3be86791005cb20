"""The real mlx-vlm server on loopback: the tiny models, the interpreter, the command.

A ``make test-mlx`` session starts two ``python -m mlx_vlm.server`` processes on loopback (mlx
on the CPU), one for the tiny Qwen2-VL and one for the tiny Qwen3-VL of tiny_model.py (random
weights, built here, nothing downloaded; the hub is off, real_vllm.servers.SERVER_ENV, so a
request naming another model cannot fetch one). The mlx
interpreter is ``PAGEREADER_MLX_PYTHON`` or ``.mlx-venv/bin/python`` (``make test-mlx`` builds
it); without one every test here fails and says so: a skipped test would hide that nothing was
checked.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from real_vllm.servers import Server

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "tests" / "fixtures" / "_generated" / "mlx"
CORPUS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "examples").glob("*.txt")),
]
FAMILIES = ("qwen2_vl", "qwen3_vl")
START_TIMEOUT_S = 180.0


@dataclass
class MlxSet:
    """The session's servers, by family; each serves its model under its folder's path."""

    servers: dict[str, Server]
    models: dict[str, Path]

    def family(self, name: str) -> Server:
        return self.servers[name]


def mlx_python() -> Path:
    """The mlx venv's interpreter, or a failure that says how to get one."""
    named = os.environ.get("PAGEREADER_MLX_PYTHON")
    python = Path(named) if named else ROOT / ".mlx-venv" / "bin" / "python"
    if not python.exists():
        pytest.fail(
            f"no mlx interpreter at {python}: run `make test-mlx` (it installs mlx[cpu] and "
            "mlx-vlm into .mlx-venv) or set PAGEREADER_MLX_PYTHON",
            pytrace=False,
        )
    return python


def build_model(python: Path, family: str) -> Path:
    out = WORK / "models" / family
    script = Path(__file__).with_name("tiny_model.py")
    done = subprocess.run(
        [str(python), str(script), str(out), family, *map(str, CORPUS)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        pytest.fail(f"building the tiny {family} model failed:\n{done.stderr[-3000:]}")
    return out


def server_argv(python: Path, model: Path, port: int) -> list[str]:
    """``mlx_vlm.server`` as a user starts it, on loopback."""
    return [
        str(python),
        "-m",
        "mlx_vlm.server",
        "--model",
        str(model),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
