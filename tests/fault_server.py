"""A scripted OpenAI-compatible server for tests: it fails on purpose, and remembers everything.

Behaviours (``Fault.mode``): ``ok``, ``error500``, ``error429`` (with Retry-After), ``hang``
(sleeps past any sane client timeout), ``loop`` (a repeating answer cut at max_tokens with
finish_reason "length"), ``think`` (a leaked ``<think>`` block before the answer) and
``length`` (finish_reason "length"). ``fail_first`` makes only the first N requests
misbehave. Every request body is recorded, with the peak number of requests in flight.

Content faults: with ``Fault.truth`` (a function from a request body to the correct answer,
e.g. a lookup by the crop's key) the server answers correctly by default, and each
``ContentFault`` in ``Fault.content`` corrupts the answers whose correct text contains its
``match``: a modal word swapped (得->應, shall->may), an article number dropped, Korean
answered in romanization, a table with an invented column, an empty answer, a looping answer
that still ends with "stop", a reasoning preamble. A transient fault corrupts only the first
request for a crop (a retry with more pixels reads it right); every corruption is recorded in
``injected``.

Latency model: with ``Fault.timing`` (a ``Timing``) an ``ok`` request takes a known time, like
a serving engine: a fixed cost, prefill in proportion to its prompt tokens (the image's visual
tokens under the request's pixel bounds, plus the prompt's words), then one decode step per
output token at a step cost that grows linearly from batch 1 to batch 8 with the requests in
flight. ``ignore_eos``/``min_tokens`` make it answer exactly ``max_tokens`` tokens.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from PIL import Image

from pagereader.engine_server.server import completion
from pagereader.pixels import smart_resize

Transform = Callable[[str], str]


def swap(old: str, new: str) -> Transform:
    """Read ``old`` as ``new`` once (a blurred 得 read as 應, shall read as may)."""
    return lambda text: text.replace(old, new, 1)


def drop(token: str) -> Transform:
    """Leave ``token`` out (an article number dropped), with the space after it."""
    return lambda text: re.sub(re.escape(token) + r"[ \u3000]?", "", text, count=1)


def empty(text: str) -> str:
    """Answer nothing."""
    return ""


def extra_column(html: str) -> str:
    """Invent a cell at the end of every row of a table."""
    return html.replace("</tr>", "<td>n/a 999</td></tr>")


def repeat(text: str) -> str:
    """Repeat the last words until the budget looks spent, then stop as if nothing happened."""
    tail = text.strip()[-12:]
    return text + (tail + " ") * 40


def preamble(text: str) -> str:
    """A thinking model's monologue in front of the answer, with no tags to strip."""
    return "The user wants the text of this block. Let me read it carefully.\n" + text


_INITIALS = [
    "g",
    "kk",
    "n",
    "d",
    "tt",
    "r",
    "m",
    "b",
    "pp",
    "s",
    "ss",
    "-",
    "j",
    "jj",
    "ch",
    "k",
    "t",
    "p",
    "h",
]
_MEDIALS = [
    "a",
    "ae",
    "ya",
    "yae",
    "eo",
    "e",
    "yeo",
    "ye",
    "o",
    "wa",
    "wae",
    "oe",
    "yo",
    "u",
    "wo",
    "we",
    "wi",
    "yu",
    "eu",
    "ui",
    "i",
]
_FINALS = [
    "",
    *[
        "k",
        "k",
        "k",
        "n",
        "n",
        "n",
        "t",
        "l",
        "k",
        "m",
        "l",
        "l",
        "l",
        "l",
        "l",
        "m",
        "p",
        "p",
        "t",
        "t",
        "ng",
        "t",
        "t",
        "k",
        "t",
        "p",
        "t",
    ],
]


def romanize(text: str) -> str:
    """Revised Romanization syllable by syllable: what a VLM answers when it transliterates."""
    out = []
    for ch in text:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            initial = _INITIALS[code // 588].replace("-", "")
            out.append(initial + _MEDIALS[(code % 588) // 28] + _FINALS[code % 28])
        else:
            out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class ContentFault:
    """Corrupt the answer of every crop whose correct text contains ``match``."""

    name: str
    match: str
    transform: Transform
    persistent: bool = True


@dataclass(frozen=True)
class Injection:
    """One corrupted answer: which fault, on which crop, in which request."""

    fault: str
    match: str
    key: str
    request: int


def image_key(url: str) -> str:
    """The key of a crop: a digest of its data URL (the client sends the same URL each time)."""
    return hashlib.sha1(url.encode("ascii")).hexdigest()


def request_image_key(body: dict[str, Any]) -> str | None:
    """The key of the crop in a chat request (its last user message's image_url part)."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") != "user" or not isinstance(message.get("content"), list):
            continue
        for part in message["content"]:
            if part.get("type") == "image_url":
                return image_key(str(part["image_url"]["url"]))
    return None


@dataclass(frozen=True)
class Timing:
    """Known latencies: what a calibration against this server must recover."""

    fixed_ms: float
    prefill_ms_per_1k: float
    decode_ms_batch1: float
    decode_ms_batch8: float

    def step_ms(self, batch: int) -> float:
        return (
            self.decode_ms_batch1
            + (self.decode_ms_batch8 - self.decode_ms_batch1) * (min(batch, 8) - 1) / 7
        )


def prompt_tokens(body: dict[str, Any]) -> int:
    """Visual tokens of the request's image under its pixel bounds (factor 28), plus words."""
    kwargs = body.get("mm_processor_kwargs") or {}
    tokens, words = 0, 0
    for message in body.get("messages") or []:
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for part in parts:
            if part.get("type") == "image_url":
                data = str(part["image_url"]["url"]).split(",", 1)[-1]
                with Image.open(io.BytesIO(base64.b64decode(data))) as image:
                    h, w = smart_resize(
                        image.height,
                        image.width,
                        28,
                        int(kwargs.get("min_pixels", 112896)),
                        int(kwargs.get("max_pixels", 1003520)),
                    )
                tokens += h * w // 28**2
            else:
                words += len(str(part.get("text") or "").split())
    return tokens + words + 8


@dataclass
class Fault:
    """What the server does with the next requests."""

    mode: str = "ok"
    latency_s: float = 0.0
    fail_first: int | None = None
    answer: str = "fault server answer"
    hang_s: float = 30.0
    truth: Callable[[dict[str, Any]], str | None] | None = None
    content: tuple[ContentFault, ...] = ()
    timing: Timing | None = None


@dataclass
class FaultServer:
    """The app and its record. Change ``fault`` between phases of a test."""

    fault: Fault = field(default_factory=Fault)
    requests: list[dict[str, Any]] = field(default_factory=list)
    injected: list[Injection] = field(default_factory=list)
    in_flight: int = 0
    peak: int = 0
    bearers: set[str] = field(default_factory=set)
    """Every Authorization header a request carried."""
    _seen: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self, fault: Fault | None = None) -> None:
        with self._lock:
            self.fault = fault or Fault()
            self.requests.clear()
            self.bearers.clear()
            self.injected.clear()
            self._seen.clear()
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
            return await self._answer(body, self._mode(number), number)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _content(self, body: dict[str, Any], number: int) -> str:
        """The correct answer for this request, corrupted where a content fault applies."""
        fault = self.fault
        text = fault.truth(body) if fault.truth else None
        if text is None:
            return fault.answer
        key = request_image_key(body) or ""
        with self._lock:
            seen = self._seen.get(key, 0)
            self._seen[key] = seen + 1
        for content in fault.content:
            if content.match not in text or (seen and not content.persistent):
                continue
            corrupted = content.transform(text)
            if corrupted != text:
                with self._lock:
                    self.injected.append(Injection(content.name, content.match, key, number))
                return corrupted
        return text

    async def _answer(self, body: dict[str, Any], mode: str, number: int) -> JSONResponse:
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
            return JSONResponse(
                completion(model, self._content(body, number)[:5], "length", 100, limit)
            )
        if fault.timing is not None and mode == "ok":
            return await self._timed(body, model, limit, fault.timing)
        text = self._content(body, number)
        if mode == "think":
            text = f"<think>the user wants OCR, let me look closely</think>\n{text}"
        return JSONResponse(completion(model, text, "stop", 100, len(text) // 3 + 1))

    async def _timed(
        self, body: dict[str, Any], model: str, limit: int, timing: Timing
    ) -> JSONResponse:
        """Sleep the known latency: fixed + prefill, then the decode steps at the batch found
        in flight once prefill is done (concurrent requests overlap their prefills)."""
        prompt = prompt_tokens(body)
        text = self._content(body, 0)
        natural = len(text) // 3 + 1
        output = limit if body.get("ignore_eos") or body.get("min_tokens") else min(limit, natural)
        await asyncio.sleep((timing.fixed_ms + prompt / 1000 * timing.prefill_ms_per_1k) / 1000)
        with self._lock:
            batch = max(1, self.in_flight)
        await asyncio.sleep(output * timing.step_ms(batch) / 1000)
        words = ("tok " * output).strip()
        return JSONResponse(completion(model, words, "length", prompt, output))

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/v1/models")
        async def models() -> dict[str, Any]:
            return {"object": "list", "data": [{"id": "fault", "object": "model"}]}

        @app.post("/v1/chat/completions")
        async def chat(body: dict[str, Any], request: Request) -> JSONResponse:
            with self._lock:
                self.bearers.add(request.headers.get("authorization", ""))
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
