"""An OpenAI-compatible face over the embedded engines (``pagereader serve-engine``).

It answers the paddleocr-vl task prompts ("OCR:", "Table Recognition:", "Formula
Recognition:", "Chart Recognition:") by running the embedded engines on the posted image, so
every served-VLM path of the pipeline (request shape, retries, routing, deadlines) runs for
real on a machine with no GPU. Like vLLM it reads ``mm_processor_kwargs`` (the pixel bounds set
the visual-token count reported in ``usage.prompt_tokens``) and honours ``max_tokens`` with
finish_reason ``length``. Any model name is accepted; ``/v1/models`` lists the served one.
Malformed requests are refused with 400 like vLLM (requests.py); ``stream: true`` is
answered with server-sent chunks. Images read at once share a memory budget
(pixel_budget.py), so concurrent large images queue instead of exhausting memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from PIL import Image

from pagereader.config.options import RenderOptions
from pagereader.engine_server.pixel_budget import (
    DEFAULT_IMAGE_MEMORY_BYTES,
    PixelBudget,
    return_freed_memory,
)
from pagereader.engine_server.requests import (
    ApiError,
    ChatRequest,
    clean_message,
    image_bytes,
    image_size,
    open_image,
    parse_request,
)
from pagereader.engine_server.schemas import (
    ChatCompletion,
    Choice,
    FinishReason,
    Message,
    ModelCard,
    ModelList,
    Usage,
)
from pagereader.engines.base import BlockRequest, Engine
from pagereader.engines.grid import TableGridEngine
from pagereader.engines.prompts import task_of_prompt
from pagereader.engines.rapidocr import RapidOCREngine
from pagereader.engines.tesseract import TesseractEngine
from pagereader.errors import PagereaderError
from pagereader.http.auth import TokenStore
from pagereader.http.errors import ServiceError
from pagereader.http.json_body import read_json
from pagereader.http.origin import OriginGuard
from pagereader.pixels import smart_resize
from pagereader.types import Block, BlockKind, Task

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "pagereader/embedded"
PATCH_FACTOR = 28
MAX_REQUEST_BYTES = 64 * 1024 * 1024
STREAM_PIECE = 16
_KIND_OF_TASK: dict[str, BlockKind] = {"table": "table", "formula": "formula", "chart": "figure"}


class EmbeddedAnswerer:
    """Maps a task prompt to the embedded engines: grid for ruled tables, OCR for the rest."""

    def __init__(self, ocr: str = "rapidocr") -> None:
        self.ocr: Engine = TesseractEngine() if ocr == "tesseract" else RapidOCREngine()
        self.grid = TableGridEngine()

    async def answer(self, image: Image.Image, task: Task, min_pixels: int, max_pixels: int) -> str:
        if image.mode != "RGB":  # convert copies even an RGB image: 192 MB for 8000x8000
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


def completion(
    model: str, text: str, finish: FinishReason, prompt_tokens: int, completion_tokens: int
) -> dict[str, Any]:
    """An OpenAI chat.completion body (ChatCompletion, as JSON)."""
    choice = Choice(message=Message(content=text), finish_reason=finish)
    usage = Usage.of(prompt_tokens, completion_tokens)
    return ChatCompletion(model=model, choices=[choice], usage=usage).model_dump()


def sse_chunks(model: str, text: str, finish: str, usage: dict[str, int] | None) -> Iterator[bytes]:
    """The answer as server-sent events, the way the openai client reads a stream: a role
    delta, content deltas, a finish chunk, an optional usage chunk, then ``[DONE]``."""
    base = {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
    }

    def event(delta: dict[str, str], reason: str | None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": reason}
        return f"data: {json.dumps({**base, 'choices': [choice]})}\n\n".encode()

    yield event({"role": "assistant", "content": ""}, None)
    for start in range(0, len(text), STREAM_PIECE):
        yield event({"content": text[start : start + STREAM_PIECE]}, None)
    yield event({}, finish)
    if usage is not None:
        yield f"data: {json.dumps({**base, 'choices': [], 'usage': usage})}\n\n".encode()
    yield b"data: [DONE]\n\n"


async def _read_json(request: Request, max_bytes: int) -> Any:
    """The JSON body (json_body.py's checks), its refusals as OpenAI-style errors."""
    try:
        return await read_json(request, max_bytes)
    except ServiceError as exc:
        raise ApiError(exc.status, exc.message) from exc


def create_app(
    model: str = DEFAULT_MODEL,
    ocr: str = "rapidocr",
    max_image_pixels: int = RenderOptions().max_image_pixels,
    max_request_bytes: int = MAX_REQUEST_BYTES,
    tokens: TokenStore | None = None,
    image_memory_bytes: int = DEFAULT_IMAGE_MEMORY_BYTES,
) -> FastAPI:
    """The FastAPI app: ``/v1/models`` and ``/v1/chat/completions``; with ``tokens``, every
    request needs one of them as its bearer token (the openai client's ``api_key``). Without
    tokens it answers loopback Host names only and no cross-origin browser page (origin.py), so
    a web page cannot post work to it; images read at once share ``image_memory_bytes``."""
    app = FastAPI(title="pagereader engine API", docs_url=None, redoc_url=None, openapi_url=None)
    answerer = EmbeddedAnswerer(ocr)
    store = tokens or TokenStore()
    budget = PixelBudget(image_memory_bytes)

    async def read(chat: ChatRequest, data: bytes, task: Task) -> tuple[str, int, int]:
        """(text, width, height): decode and answer under the budget; the pixels are freed
        before the budget is handed on."""
        width, height = await asyncio.to_thread(image_size, data, max_image_pixels)
        async with budget.hold(budget.weight(width, height)):
            image = await asyncio.to_thread(open_image, data, max_image_pixels)
            try:
                text = await answerer.answer(image, task, chat.min_pixels, chat.max_pixels)
            finally:
                image.close()
                await asyncio.to_thread(return_freed_memory)
        return text, width, height

    @app.middleware("http")
    async def authenticate(request: Request, call_next: Any) -> Any:
        if store:
            scheme, _, token = request.headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or store.lookup(token.strip()) is None:
                error = ApiError(401, "a valid API key is required: 'Authorization: Bearer KEY'")
                return JSONResponse(
                    error.body(), status_code=401, headers={"WWW-Authenticate": "Bearer"}
                )
        return await call_next(request)

    app.add_middleware(
        OriginGuard,
        allowed_origins=(),
        open_api=not store,
        error_body=lambda status, message: ApiError(status, message).body(),
    )

    @app.get("/v1/models")
    async def models() -> ModelList:
        return ModelList(data=[ModelCard(id=model)])

    @app.post("/v1/chat/completions", response_model=None)
    async def chat(request: Request) -> JSONResponse | StreamingResponse:
        try:
            chat = parse_request(await _read_json(request, max_request_bytes))
            task: Task = task_of_prompt(chat.prompt) or "text"  # type: ignore[assignment]
            text, width, height = await read(chat, image_bytes(chat.image_url), task)
        except ApiError as exc:
            return JSONResponse(exc.body(), status_code=exc.status)
        except PagereaderError as exc:
            error = ApiError(500, clean_message(exc.message))
            return JSONResponse(error.body(), status_code=500)
        h, w = smart_resize(height, width, PATCH_FACTOR, chat.min_pixels, chat.max_pixels)
        prompt_tokens = h * w // PATCH_FACTOR**2 + len(chat.prompt.split()) + 8
        completion_tokens = max(1, -(-len(text) // 3))
        finish: FinishReason = "stop"
        if chat.max_tokens is not None and completion_tokens > chat.max_tokens:
            text, completion_tokens, finish = text[: chat.max_tokens * 3], chat.max_tokens, "length"
        name = chat.model or model
        if chat.stream:
            usage = (
                Usage.of(prompt_tokens, completion_tokens).model_dump()
                if chat.include_usage
                else None
            )
            return StreamingResponse(
                sse_chunks(name, text, finish, usage), media_type="text/event-stream"
            )
        return JSONResponse(completion(name, text, finish, prompt_tokens, completion_tokens))

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
