"""kill -9 of a real `pagereader serve` under load, then a restart on the same data folder:
every job finishes exactly once, with every output and every page overlay, and an upload cut
off by the kill leaves no folder behind."""

from __future__ import annotations

import re
import secrets
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from service_process import ServerProcess, start

pytestmark = pytest.mark.slow  # seconds of real engines, servers or processes

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"
JOBS = 8
TOKEN = secrets.token_urlsafe(24)
HEADERS = {"Authorization": f"Bearer {TOKEN}"}


def _jobs(server: ServerProcess) -> dict[str, dict[str, Any]]:
    answer = httpx.get(f"{server.url}/v1/jobs", headers=HEADERS, timeout=30).json()
    return {job["id"]: job for job in answer["jobs"]}


def _hold_an_upload_open(server: ServerProcess, stop: threading.Event) -> None:
    """Start a multipart upload and never finish it (the kill cuts it off)."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        head = b'--b\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\n\r\n'
        sock.sendall(
            b"POST /v1/documents HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + f"Authorization: Bearer {TOKEN}\r\n".encode()
            + b"Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        piece = head + DECK.read_bytes()
        sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        stop.wait(120)


def test_kill_under_load_then_restart(tmp_path: Path) -> None:
    data, logs = tmp_path / "data", [tmp_path / "first.log", tmp_path / "second.log"]
    (tmp_path / "tokens").write_text(f"ci:admin:{TOKEN}\n")
    args = ("--token-file", str(tmp_path / "tokens"), "--workers", "2")
    server = start(data, logs[0], *args)
    ids = []
    for n in range(JOBS):
        # distinct bytes after %%EOF: every job parses its pages, none comes from the cache
        body = DECK.read_bytes() + f"\n% job {n} {secrets.token_hex(4)}\n".encode()
        answer = httpx.post(
            f"{server.url}/v1/documents",
            files={"file": (f"deck{n}.pdf", body)},
            headers=HEADERS,
            timeout=30,
        )
        assert answer.status_code == 202
        ids.append(answer.json()["id"])
    stop = threading.Event()
    holder = threading.Thread(target=_hold_an_upload_open, args=(server, stop))
    holder.start()
    deadline = time.monotonic() + 300
    while True:
        jobs = _jobs(server)
        done = [i for i in ids if jobs[i]["status"] in ("ok", "partial", "failed")]
        busy = [i for i in ids if jobs[i]["status"] == "running"]
        if len(done) >= 2 and busy:
            break
        assert time.monotonic() < deadline, jobs
        time.sleep(0.05)
    assert any((data / "uploads").glob("*/cut.pdf")), "the held upload is on disk"
    server.kill()
    stop.set()
    holder.join()
    finished_before = {i: j["finished"] for i, j in _jobs_from_disk(data).items() if j["finished"]}
    assert set(done) <= set(finished_before) and len(finished_before) < JOBS

    server = start(data, logs[1], *args)
    try:
        deadline = time.monotonic() + 600
        while True:
            jobs = _jobs(server)
            if all(jobs[i]["status"] in ("ok", "partial", "failed") for i in ids):
                break
            assert time.monotonic() < deadline, jobs
            time.sleep(0.2)
        assert sorted(jobs) == sorted(ids), "no job lost, none added (the cut upload is gone)"
        assert not any((data / "uploads").glob("*/cut.pdf"))
        text = logs[0].read_text() + logs[1].read_text()
        missing: list[str] = []
        for job_id in ids:
            job = jobs[job_id]
            assert job["status"] == "ok" and job["pages_done"] == job["pages_total"] == 4, job
            assert len(re.findall(rf"job {job_id}: ok, 4 page\(s\)", text)) == 1, job_id
            if job_id in finished_before:
                assert job["finished"] == finished_before[job_id], "a finished job ran again"
                assert f"job {job_id}: parsing" not in logs[1].read_text()
            md = httpx.get(f"{server.url}/v1/jobs/{job_id}/document.md", headers=HEADERS)
            assert "Quarterly Operations Review" in md.text
            for page in range(1, 5):
                png = httpx.get(f"{server.url}/v1/jobs/{job_id}/pages/{page}.png", headers=HEADERS)
                if png.status_code != 200 or not png.content.startswith(b"\x89PNG"):
                    missing.append(f"{job_id} page {page}")
        resumed = [i for i in ids if i not in finished_before]
        print(f"\n{len(finished_before)} job(s) finished before the kill, {len(resumed)} after")
        assert not missing, missing
    finally:
        server.process.terminate()
        server.process.wait(30)


def _jobs_from_disk(data: Path) -> dict[str, dict[str, Any]]:
    import sqlite3

    with sqlite3.connect(data / "jobs.sqlite") as db:
        db.row_factory = sqlite3.Row
        return {row["id"]: dict(row) for row in db.execute("SELECT id, status, finished FROM jobs")}
