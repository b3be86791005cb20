"""The service's start-up work runs in the app's lifespan: building the app (as a test or an
ASGI server importing it does) re-queues nothing and deletes nothing; starting it puts a dead
server's running job back in the queue and removes a folder no job owns."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from pagereader.config.options import Options
from pagereader.service.app import create_app
from pagereader.service.jobs.store import FINISHED, JobStore


def test_start_up_work_waits_for_the_lifespan(tmp_path: Path) -> None:
    store = JobStore(tmp_path / "jobs.sqlite")
    store.create("a" * 32, "deck.pdf", "0" * 64, tmp_path / "jobs" / ("a" * 32))
    assert store.claim() is not None  # a server claimed it, then died
    stray = tmp_path / "uploads" / ("b" * 32)
    stray.mkdir(parents=True)
    (stray / "half.pdf").write_bytes(b"%PDF-1.4 cut off")
    app = create_app(tmp_path, Options(), workers=1)
    assert store.get("a" * 32).status == "running"  # type: ignore[union-attr]
    assert stray.is_dir()
    with TestClient(app, base_url="http://127.0.0.1"):
        assert not stray.exists()
        # re-queued, claimed again and run: its upload is gone, so it fails, saying so
        deadline = time.monotonic() + 60
        while (job := store.get("a" * 32)) is not None and job.status not in FINISHED:
            assert time.monotonic() < deadline, job
            time.sleep(0.1)
        assert job is not None and job.status == "failed" and job.errors, job
