"""How fast a real ``pagereader serve`` answers ``GET /v1/jobs`` while it works, against the
same server idle, in one run.

Nothing a job does may block the event loop: hashing an upload, the page cache, overlay
encoding and output writes run in worker threads. Here a real server on loopback (one worker)
answers 50 job-list requests three times: idle, while a large upload streams in, and while a
long job (the shipped deck, parsed from scratch) runs. The table gives each phase's median,
95th percentile and worst latency, and the ratio of its p95 to the idle one's.

    .venv/bin/python bench/service_latency.py [--requests 50] [--upload-mb 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from pagereader.timing import percentile  # noqa: E402

from service_process import running  # noqa: E402

DECK = ROOT / "examples" / "deck.pdf"


def _latencies(url: str, count: int) -> list[float]:
    """Milliseconds of ``count`` job-list requests, one after another."""
    out = []
    with httpx.Client(base_url=url, timeout=60) as http:
        for _ in range(count):
            start = time.perf_counter()
            assert http.get("/v1/jobs").status_code == 200
            out.append((time.perf_counter() - start) * 1000)
    return out


def _status(url: str, job: str) -> str:
    status: str = httpx.get(f"{url}/v1/jobs/{job}", timeout=60).json()["status"]
    return status


def _chunks(total: int, size: int = 1 << 20) -> Iterator[bytes]:
    """A large upload of a PDF header and zero bytes, streamed a megabyte at a time."""
    yield b"%PDF-1.7\n"
    sent = 0
    while sent < total:
        step = min(size, total - sent)
        sent += step
        yield b"0" * step


def _upload_in_background(url: str, megabytes: int) -> threading.Thread:
    def send() -> None:
        boundary = "pagereader-bench"
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n'
            "Content-Type: application/pdf\r\n\r\n"
        ).encode()
        tail = f"\r\n--{boundary}--\r\n".encode()

        def body() -> Iterator[bytes]:
            yield head
            yield from _chunks(megabytes << 20)
            yield tail

        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        httpx.post(f"{url}/v1/documents", content=body(), headers=headers, timeout=600)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def _row(name: str, ms: list[float], idle_p95: float | None) -> str:
    p95 = percentile(ms, 0.95)
    ratio = "" if idle_p95 is None else f"{p95 / idle_p95:.2f}"
    return (
        f"| {name} | {len(ms)} | {statistics.median(ms):.1f} | {p95:.1f} | {max(ms):.1f} | "
        f"{ratio} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--upload-mb", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        extra = ("--max-upload-mb", str(args.upload_mb + 10))
        with running(root / "data", root / "server.log", *extra) as server:
            url = server.url
            idle = _latencies(url, args.requests)
            upload = _upload_in_background(url, args.upload_mb)
            during_upload = _latencies(url, args.requests)
            upload.join(timeout=600)
            files = {"file": ("deck.pdf", DECK.read_bytes(), "application/pdf")}
            job = httpx.post(f"{url}/v1/documents", files=files, timeout=60).json()["id"]
            deadline = time.monotonic() + 300
            while _status(url, job) == "queued" and time.monotonic() < deadline:
                time.sleep(0.05)  # the big upload's job goes first
            during_job = _latencies(url, args.requests)
            status = _status(url, job)
    idle_p95 = percentile(idle, 0.95)
    print("| phase | requests | median ms | p95 ms | worst ms | p95 / idle p95 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(_row("idle", idle, None))
    print(_row(f"during a {args.upload_mb} MB upload", during_upload, idle_p95))
    print(_row(f"during a job (deck.pdf parsed, {status} after)", during_job, idle_p95))


if __name__ == "__main__":
    main()
