"""A scripted OpenAI-compatible server for tests: it fails on purpose, and remembers everything.

Behaviours (``Fault.mode``): ``ok``, ``error500``, ``error429`` (with Retry-After), ``hang``
(sleeps past any sane client timeout), ``loop`` (a repeating answer cut at max_tokens with
finish_reason "length"), ``think`` (a leaked ``<think>`` block before the answer) and
``length`` (finish_reason "length"). ``fail_first`` makes only the first N requests
misbehave. Every request body is recorded, with the peak number of requests in flight.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from pagereader.service.engine_api import completion


@dataclass
class Fault:
    """What the server does with the next requests."""

    mode: str = "ok"
    latency_s: float = 0.0
    fail_first: int | None = None
    answer: str = "fault server answer"
    hang_s: float = 30.0


@dataclass
class FaultServer:
    """The app and its record. Change ``fault`` between phases of a test."""

    fault: Fault = field(default_factory=Fault)
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    peak: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self, fault: Fault | None = None) -> None:
        with self._lock:
            self.fault = fault or Fault()
            self.requests.clear()
            self.peak = 0

    def _mode(self, number: int) -> str:
        fault = self.fault
        if fault.fail_first is not None and number > fault.fail_first:
            return "ok"
        return fault.mode

    async def handle(self, body: dict[str, Any]) -> JSONResponse:
        with self._lock:
            self.requests.append(body)
            number = len(self.requests)
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            return await self._answer(body, self._mode(number))
        finally:
            with self._lock:
                self.in_flight -= 1

    async def _answer(self, body: dict[str, Any], mode: str) -> JSONResponse:
        fault = self.fault
        await asyncio.sleep(fault.latency_s)
        model = str(body.get("model", "fault"))
        limit = int(body.get("max_tokens") or 64)
        if mode == "error500":
            return JSONResponse(
                {"error": {"message": "scripted failure", "code": 500}}, status_code=500
            )
        if mode == "error429":
            return JSONResponse(
                {"error": {"message": "slow down", "code": 429}},
                status_code=429,
                headers={"retry-after": "0"},
            )
        if mode == "hang":
            await asyncio.sleep(fault.hang_s)
        if mode == "loop":
            return JSONResponse(completion(model, "the same line\n" * limit, "length", 100, limit))
        if mode == "length":
            return JSONResponse(completion(model, fault.answer[:5], "length", 100, limit))
        text = fault.answer
        if mode == "think":
            text = f"<think>the user wants OCR, let me look closely</think>\n{text}"
        return JSONResponse(completion(model, text, "stop", 100, len(text) // 3 + 1))

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/v1/models")
        async def models() -> dict[str, Any]:
            return {"object": "list", "data": [{"id": "fault", "object": "model"}]}

        @app.post("/v1/chat/completions")
        async def chat(body: dict[str, Any]) -> JSONResponse:
            return await self.handle(body)

        return app


def wait_until(predicate: Any, timeout_s: float = 5.0) -> bool:
    """Poll until ``predicate()`` is true (for state changed by the server thread)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False
