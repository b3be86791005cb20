"""The served engines' check in long-lived processes: made at start, made again while an engine
fails (not more often than its interval), shown by the service's /healthz, and reported in the
document of a job parsed while the engine is down. A scripted server injects the faults."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pagereader.batch.inputs import InputItem
from pagereader.batch.manifest import Outcome
from pagereader.batch.storage import Destination
from pagereader.batch.worker import DocumentWorker
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engine_check import EngineCheck
from pagereader.engine_server.server import serve_in_thread
from pagereader.pipeline import make_context
from pagereader.service.app import create_app

from fault_server import Fault, FaultServer
from service_process import free_port

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"


@pytest.fixture(scope="module")
def fault() -> Iterator[tuple[FaultServer, str]]:
    server = FaultServer()
    with serve_in_thread(server.app()) as url:
        yield server, url


def _options(url: str, **routes: Any) -> Options:
    return Options(
        engines={"vlm": OpenAIEngineOptions(base_url=url, model="fault", timeout_s=5, retries=0)},
        routes=routes or {"*.*": ["vlm", "textlayer"]},
        verify={"enabled": False},
    )


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_failing_engine_is_checked_again_after_the_interval(
    fault: tuple[FaultServer, str],
) -> None:
    server, url = fault
    server.reset(Fault(mode="error500"))
    clock = Clock()
    ctx = make_context(_options(url))
    check = EngineCheck(ctx, recheck_s=30.0, clock=clock)
    try:
        assert check.status() == {"vlm": "unchecked"}
        problems = await check.refresh()
        assert list(problems) == ["vlm"] and "500" in problems["vlm"].message
        assert problems["vlm"].stage == "preflight"
        assert check.status()["vlm"] == problems["vlm"].message
        sent = len(server.requests)
        assert sent >= 1

        clock.now += 10  # within the interval: the last answer stands, nothing is sent
        assert list(await check.refresh()) == ["vlm"]
        assert len(server.requests) == sent

        server.reset(Fault(mode="ok"))
        clock.now += 30
        assert await check.refresh() == {}
        assert len(server.requests) == 1 and check.status() == {"vlm": "ok"}

        clock.now += 300  # a healthy engine is not checked again
        assert await check.refresh() == {}
        assert len(server.requests) == 1
    finally:
        await asyncio.gather(*(engine.aclose() for engine in ctx.engines.values()))


def test_the_service_shows_a_down_engine_and_its_jobs_report_it(tmp_path: Path) -> None:
    down = f"http://127.0.0.1:{free_port()}/v1"
    app = create_app(tmp_path, _options(down))
    with serve_in_thread(app) as url:
        client = httpx.Client(base_url=url.removesuffix("/v1"), timeout=30)
        deadline = time.monotonic() + 30
        while (engines := client.get("/healthz").json()["engines"]) == {"vlm": "unchecked"}:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert list(engines) == ["vlm"] and down in engines["vlm"]
        assert client.get("/healthz").json()["status"] == "ok"  # the service itself is up

        files = {"file": ("deck.pdf", DECK.read_bytes(), "application/pdf")}
        job_id = client.post("/v1/documents", files=files).json()["id"]
        while (job := client.get(f"/v1/jobs/{job_id}").json())["status"] in ("queued", "running"):
            assert time.monotonic() < deadline + 120
            time.sleep(0.2)
        document = client.get(f"/v1/jobs/{job_id}/document.json").json()
        lines = [e["message"] for e in document["errors"]] + job["errors"]
        assert any(down in line for line in lines), (lines, document["warnings"])
        client.close()


def test_a_batch_worker_checks_at_start_and_its_documents_report_it(
    tmp_path: Path, fault: tuple[FaultServer, str]
) -> None:
    server, url = fault
    server.reset(Fault(mode="error500"))
    options = _options(url)
    worker = DocumentWorker(options, Destination(str(tmp_path / "out")))
    status = worker.engines.status()  # checked when the actor started, before any document
    assert "500" in status["vlm"] and len(server.requests) >= 1
    outcome = worker.parse_document(InputItem(str(DECK)), "deck", 0)
    assert isinstance(outcome, Outcome) and outcome.status == "partial", outcome
    document = json.loads((tmp_path / "out" / "deck" / "document.json").read_text("utf-8"))
    assert any("500" in e["message"] and "vlm" in e["message"] for e in document["errors"])

    server.reset(Fault(mode="ok"))  # the server is back: the next document uses it
    worker.engines.recheck_s = 0.0
    worker.parse_document(InputItem(str(DECK)), "again", 0)
    assert worker.engines.status() == {"vlm": "ok"}
    again = json.loads((tmp_path / "out" / "again" / "document.json").read_text("utf-8"))
    assert not any("vlm" in e["message"] for e in again["errors"])
