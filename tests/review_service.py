"""A review service for tests: ``pagereader serve``'s app with tokens for the three roles, whose
scans are read by a VLM that misreads one modal word, so the verifier flags a block for a
person. The VLM is the embedded OCR behind the OpenAI API, with ``shall ensure`` answered as
``may ensure``; the verifier's reference on scans is the embedded OCR itself, so it catches the
swap and (critical findings go straight to review here) keeps the block flagged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from pagereader.config.options import DEFAULT_ROUTES, OpenAIEngineOptions, Options
from pagereader.engine_server.requests import decode_image, parse_request
from pagereader.engine_server.server import EmbeddedAnswerer, completion, serve_in_thread
from pagereader.engines.prompts import task_of_prompt
from pagereader.http.auth import Principal, TokenStore
from pagereader.service.app import create_app

MISREAD = ("shall ensure", "may ensure")
TOKENS = {
    "reader": ("ann", "reader-token-0123456789"),
    "reviewer": ("rita", "reviewer-token-0123456789"),
    "admin": ("ops", "admin-token-0123456789abc"),
}


def misreading_vlm(old: str, new: str) -> FastAPI:
    """An OpenAI-compatible server reading crops with the embedded OCR, ``old`` read as
    ``new``."""
    app = FastAPI()
    answerer = EmbeddedAnswerer()

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> JSONResponse:
        chat = parse_request(await request.json())
        image = decode_image(chat.image_url, 100_000_000)
        task = task_of_prompt(chat.prompt) or "text"
        text = await answerer.answer(image, task, chat.min_pixels, chat.max_pixels)  # type: ignore[arg-type]
        return JSONResponse(completion("misread", text.replace(old, new), "stop", 100, 100))

    return app


def review_options(vlm_url: str) -> Options:
    """Scans go to the misreading VLM; a critical finding is kept for review at once."""
    return Options.model_validate(
        {
            "engines": {
                "vlm": OpenAIEngineOptions(base_url=vlm_url, model="misread", timeout_s=120)
            },
            "routes": {**DEFAULT_ROUTES, "scan.*": ["vlm"]},
            "verify": {"remedies": {"critical": ["review"]}},
        }
    )


def token_store() -> TokenStore:
    return TokenStore([(Principal(name, role), token) for role, (name, token) in TOKENS.items()])  # type: ignore[arg-type]


def client(url: str, role: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {TOKENS[role][1]}"} if role else {}
    return httpx.Client(base_url=url, headers=headers, timeout=60)


@contextmanager
def vlm_server() -> Iterator[str]:
    with serve_in_thread(misreading_vlm(*MISREAD)) as url:
        yield url


@contextmanager
def review_service(data_dir: Path, vlm_url: str) -> Iterator[str]:
    """The service app on loopback (tokens for reader, reviewer, admin); yields its base URL."""
    app = create_app(data_dir, review_options(vlm_url), tokens=token_store())
    with serve_in_thread(app) as url:
        yield url.removesuffix("/v1")
