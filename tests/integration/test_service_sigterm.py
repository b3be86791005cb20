"""SIGTERM of a real `pagereader serve` while it parses: with a grace period the running job
finishes before the process exits; without one it is put back in the queue at once (never left
``running``) and the next start finishes it. The JSON log lines carry the job id."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import httpx
import pytest

from pagereader.service.jobs.store import JobStore

from fixtures import Fixtures
from service_process import ServerProcess, running, start

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes


def _status(data_dir: Path, job_id: str) -> str:
    job = JobStore(data_dir / "jobs.sqlite").get(job_id)
    assert job is not None, job_id
    return job.status


def _submit_and_wait_running(server: ServerProcess, scan: Path) -> str:
    files = {"file": (scan.name, scan.read_bytes())}
    job_id = str(httpx.post(f"{server.url}/v1/documents", files=files, timeout=30).json()["id"])
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/v1/jobs/{job_id}", timeout=30).json()["status"] != "running":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return job_id


def _terminate(server: ServerProcess) -> float:
    started = time.monotonic()
    server.process.terminate()
    # uvicorn shuts down cleanly, then re-raises the signal it caught: -SIGTERM, not a crash
    assert server.process.wait(120) in (0, -signal.SIGTERM)
    return time.monotonic() - started


def test_sigterm_finishes_or_requeues(tmp_path: Path, fixtures: Fixtures) -> None:
    data, log = tmp_path / "data", tmp_path / "serve.log"
    server = start(data, log, "--shutdown-grace", "120", "--log-format", "json")
    job_id = _submit_and_wait_running(server, fixtures.scan_png)
    _terminate(server)
    assert _status(data, job_id) == "ok"
    assert (data / "jobs" / job_id / "document.md").is_file()
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    mine = [entry for entry in lines if entry.get("job_id") == job_id]
    assert any("parsing" in entry["message"] for entry in mine), lines[-10:]
    assert {entry["level"] for entry in lines} <= {"debug", "info", "warning", "error"}
    assert not any(entry.get("job_id") and entry["job_id"] != job_id for entry in lines)

    server = start(data, log, "--shutdown-grace", "0")
    second = _submit_and_wait_running(server, fixtures.scan_pngs[1])
    assert _terminate(server) < 30
    assert _status(data, second) == "queued"
    with running(data, log) as again:
        deadline = time.monotonic() + 180
        while (status := _status(data, second)) not in ("ok", "partial", "failed"):
            assert time.monotonic() < deadline, status
            time.sleep(0.2)
        assert status == "ok"
        assert httpx.get(f"{again.url}/v1/jobs/{second}/document.md", timeout=30).status_code == 200
