"""`pagereader serve` as a real process on loopback, for tests that kill it or watch its disk."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from pagereader.service.jobs.store import FINISHED

SRC = Path(__file__).parents[1] / "src"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_finished(http: httpx.Client, job_id: str, timeout: float = 300) -> dict[str, Any]:
    """Poll a job until it has finished; its JSON. Fails the test past ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        job: dict[str, Any] = http.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in FINISHED:
            return job
        assert time.monotonic() < deadline, f"job {job_id} still {job['status']}"
        time.sleep(0.2)


def serve_args(data_dir: Path, port: int, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pagereader",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        *extra,
    ]


def server_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    env.pop("PAGEREADER_TOKENS", None)
    env.update(extra)
    return env


class ServerProcess:
    """One running server: its base URL, its process and its log file."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, log: Path) -> None:
        self.process = process
        self.url = url
        self.log = log

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)


def start(
    data_dir: Path, log: Path, *extra: str, env: dict[str, str] | None = None
) -> ServerProcess:
    """Start a server and wait until /healthz answers."""
    port = free_port()
    with log.open("ab") as handle:
        process = subprocess.Popen(
            serve_args(data_dir, port, *extra),
            stdout=handle,
            stderr=subprocess.STDOUT,
            env=env or server_env(),
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}: {log.read_text()}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return ServerProcess(process, url, log)
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"the server did not start: {log.read_text()}")
        time.sleep(0.2)


@contextmanager
def running(
    data_dir: Path, log: Path, *extra: str, env: dict[str, str] | None = None
) -> Iterator[ServerProcess]:
    """A server for the length of a with-block (SIGTERM, then SIGKILL)."""
    server = start(data_dir, log, *extra, env=env)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.terminate()
            try:
                server.process.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
