"""One server per data folder: a second `pagereader serve` on it refuses in one line and exits
1, leaving the first one's uploads and jobs alone; after the first is killed (-9) the lock is
gone with it and a new server starts on the folder."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pytest

from service_process import free_port, running, serve_args, server_env, start

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"


def test_a_second_server_on_the_folder_refuses_and_harms_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running(data, tmp_path / "first.log") as first:
        client = httpx.Client(base_url=first.url, timeout=30)
        files = {"file": ("deck.pdf", DECK.read_bytes(), "application/pdf")}
        job_id = client.post("/v1/documents", files=files).json()["id"]
        second = subprocess.run(
            serve_args(data, free_port()),
            capture_output=True,
            text=True,
            timeout=120,
            env=server_env(),
        )
        assert second.returncode == 1, second.stderr
        errors = [line for line in second.stderr.splitlines() if line.startswith("error")]
        assert len(errors) == 1 and "Traceback" not in second.stderr, second.stderr
        assert "in use by another pagereader server" in errors[0]
        assert f"process {first.process.pid}" in errors[0]
        assert (data / "uploads" / job_id / "deck.pdf").is_file()  # not swept by the second
        deadline = time.monotonic() + 120
        while (job := client.get(f"/v1/jobs/{job_id}").json())["status"] in ("queued", "running"):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert job["status"] == "ok", job
        client.close()


def test_a_killed_server_leaves_no_lock_behind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = start(data, tmp_path / "first.log")
    first.kill()
    assert (data / "service.lock").is_file()
    with running(data, tmp_path / "second.log") as second:
        assert httpx.get(f"{second.url}/healthz", timeout=10).json()["status"] == "ok"
        assert (data / "service.lock").read_text().strip() == str(second.process.pid)
