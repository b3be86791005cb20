"""An OpenAI-compatible face over the embedded engines (``pagereader serve-engine``).

It answers the paddleocr-vl task prompts ("OCR:", "Table Recognition:", "Formula
Recognition:", "Chart Recognition:") by running the embedded engines on the posted image, so
every served-VLM path of the pipeline (request shape, retries, routing, deadlines) runs for
real on a machine with no GPU. Like vLLM it reads ``mm_processor_kwargs`` (the pixel bounds set
the visual-token count reported in ``usage.prompt_tokens``) and honours ``max_tokens`` with
finish_reason ``length``. Any model name is accepted; ``/v1/models`` lists the served one.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import io
import logging
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from PIL import Image, UnidentifiedImageError

from pagereader.engines.base import BlockRequest, Engine
from pagereader.engines.prompts import task_of_prompt
from pagereader.engines.rapidocr import RapidOCREngine
from pagereader.engines.table import TableGridEngine
from pagereader.engines.tesseract import TesseractEngine
from pagereader.errors import PagereaderError
from pagereader.planner.memory import smart_resize
from pagereader.types import Block, BlockKind, Task

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "pagereader/embedded"
PATCH_FACTOR = 28
DEFAULT_MIN_PIXELS = 112_896
DEFAULT_MAX_PIXELS = 1_003_520
_KIND_OF_TASK: dict[str, BlockKind] = {"table": "table", "formula": "formula", "chart": "figure"}


class ApiError(Exception):
    """A request the server refuses, answered as an OpenAI-style error body."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _decode_image(url: str) -> Image.Image:
    if not url.startswith("data:") or ";base64," not in url:
        raise ApiError(400, "image_url must be a base64 data URL (this server fetches nothing)")
    try:
        data = base64.b64decode(url.split(";base64,", 1)[1], validate=True)
        image = Image.open(io.BytesIO(data))
        image.load()
    except (binascii.Error, UnidentifiedImageError, OSError) as exc:
        raise ApiError(400, f"cannot decode the image: {exc}") from exc
    return image


def parse_messages(messages: Any) -> tuple[Image.Image, str]:
    """The image and the text prompt of the last user message."""
    if not isinstance(messages, list):
        raise ApiError(400, "messages must be a list")
    user = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    if not user:
        raise ApiError(400, "no user message")
    content = user[-1].get("content")
    parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
    image: Image.Image | None = None
    texts: list[str] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "image_url":
            image = _decode_image(str((part.get("image_url") or {}).get("url", "")))
        elif part.get("type") == "text":
            texts.append(str(part.get("text", "")))
    if image is None:
        raise ApiError(400, "the user message has no image_url part")
    return image, " ".join(texts).strip()


class EmbeddedAnswerer:
    """Maps a task prompt to the embedded engines: grid for ruled tables, OCR for the rest."""

    def __init__(self, ocr: str = "rapidocr") -> None:
        self.ocr: Engine = TesseractEngine() if ocr == "tesseract" else RapidOCREngine()
        self.grid = TableGridEngine()

    async def answer(self, image: Image.Image, task: Task, min_pixels: int, max_pixels: int) -> str:
        image = image.convert("RGB")
        width, height = image.size
        request = BlockRequest(
            file="<request>",
            page=1,
            block=Block(
                kind=_KIND_OF_TASK.get(task, "text"), bbox=(0, 0, width, height), source="served"
            ),
            task=task,
            image=image,
            page_image=image,
            scale=1.0,
            page_class="scan",
            script="unknown",
            min_pixels=min_pixels,
            max_pixels=max_pixels,
            crop_box_px=(0, 0, width, height),
        )
        if task == "table":
            with contextlib.suppress(PagereaderError):
                table = await self.grid.recognize(request)
                return table.html or table.text
        return (await self.ocr.recognize(request)).text


def _pixels(body: dict[str, Any]) -> tuple[int, int]:
    kwargs = body.get("mm_processor_kwargs") or {}
    low = int(kwargs.get("min_pixels", DEFAULT_MIN_PIXELS))
    high = int(kwargs.get("max_pixels", DEFAULT_MAX_PIXELS))
    if low <= 0 or high < low:
        raise ApiError(
            400, f"mm_processor_kwargs: need 0 < min_pixels <= max_pixels, got {low} and {high}"
        )
    return low, high


def completion(
    model: str, text: str, finish: str, prompt_tokens: int, completion_tokens: int
) -> dict[str, Any]:
    """An OpenAI chat.completion body."""
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def create_app(model: str = DEFAULT_MODEL, ocr: str = "rapidocr") -> FastAPI:
    """The FastAPI app: ``/v1/models`` and ``/v1/chat/completions``."""
    app = FastAPI(title="pagereader engine API")
    answerer = EmbeddedAnswerer(ocr)

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [{"id": model, "object": "model", "created": 0, "owned_by": "pagereader"}],
        }

    @app.post("/v1/chat/completions")
    async def chat(body: dict[str, Any]) -> JSONResponse:
        try:
            image, prompt = parse_messages(body.get("messages"))
            low, high = _pixels(body)
            task: Task = task_of_prompt(prompt) or "text"  # type: ignore[assignment]
            text = await answerer.answer(image, task, low, high)
        except ApiError as exc:
            return JSONResponse(
                {
                    "error": {
                        "message": exc.message,
                        "type": "invalid_request_error",
                        "code": exc.status,
                    }
                },
                status_code=exc.status,
            )
        except PagereaderError as exc:
            return JSONResponse(
                {"error": {"message": exc.message, "type": "server_error", "code": 500}},
                status_code=500,
            )
        h, w = smart_resize(image.height, image.width, PATCH_FACTOR, low, high)
        prompt_tokens = h * w // PATCH_FACTOR**2 + len(prompt.split()) + 8
        completion_tokens = max(1, -(-len(text) // 3))
        finish = "stop"
        limit = body.get("max_tokens") or body.get("max_completion_tokens")
        if limit and completion_tokens > int(limit):
            text, completion_tokens, finish = text[: int(limit) * 3], int(limit), "length"
        return JSONResponse(
            completion(
                str(body.get("model") or model), text, finish, prompt_tokens, completion_tokens
            )
        )

    return app


@contextlib.contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Run an ASGI app under uvicorn in a background thread; yields its ``/v1`` base URL.

    Port 0 takes a free port (the socket is bound here, so no other process can take it
    between choosing and serving).
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=1, timeout_keep_alive=30, backlog=2048
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield f"http://{host}:{sock.getsockname()[1]}/v1"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
