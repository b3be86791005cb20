"""``serve-engine`` over loopback: the served path gives the embedded path's text, reports
visual tokens from the posted pixel bounds, and answers bad requests like an OpenAI server."""

from __future__ import annotations

import asyncio
import base64
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from openai import AsyncOpenAI
from PIL import Image, ImageDraw, ImageFont

from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engine_server.server import DEFAULT_MODEL, create_app, serve_in_thread
from pagereader.engines.openai_api import image_data_url
from pagereader.pipeline import aparse, make_context
from pagereader.types import DocumentResult

from fixtures import Fixtures

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with serve_in_thread(create_app()) as url:
        yield url


async def _parse(path: object, options: Options) -> DocumentResult:
    ctx = make_context(options)
    try:
        return await aparse(path, ctx=ctx)  # type: ignore[arg-type]
    finally:
        await asyncio.gather(*(engine.aclose() for engine in ctx.engines.values()))


def _line_image(text: str) -> Image.Image:
    image = Image.new("RGB", (900, 120), "white")
    ImageDraw.Draw(image).text((20, 35), text, fill="black", font=ImageFont.truetype(FONT, 40))
    return image


@pytest.mark.slow
async def test_served_text_equals_embedded_text(served: str, fixtures: Fixtures) -> None:
    embedded = Options(routes={"*.*": ["rapidocr"]}, pages=(1, 2), verify={"enabled": False})
    over_http = Options(
        engines={"local": OpenAIEngineOptions(base_url=served, model=DEFAULT_MODEL)},
        routes={"*.*": ["local"]},
        pages=(1, 2),
        verify={"enabled": False},
    )
    reference = await _parse(fixtures.deck_pdf, embedded)
    result = await _parse(fixtures.deck_pdf, over_http)
    assert result.status == "ok" and reference.status == "ok"
    pairs = [
        (a, b)
        for pa, pb in zip(reference.pages, result.pages, strict=True)
        for a, b in zip(pa.blocks, pb.blocks, strict=True)
    ]
    assert len(pairs) == 10
    for ref, got in pairs:
        assert ref.block.bbox == got.block.bbox
        assert got.engine == "local" and ref.engine == "rapidocr"
        assert got.text == ref.text
    assert "Quarterly Operations Review" in pairs[0][1].text
    tokens = [a.prompt_tokens for p in result.pages for b in p.blocks for a in b.attempts]
    assert all(t and t > 0 for t in tokens)


async def test_pixel_bounds_set_the_visual_tokens(served: str) -> None:
    client = AsyncOpenAI(base_url=served, api_key="EMPTY", max_retries=0)
    url = image_data_url(_line_image("Budget 2026: 42,000 pages"))
    tokens = []
    try:
        for max_pixels in (50_176, 1_003_520):
            response = await client.chat.completions.create(
                model=DEFAULT_MODEL,
                temperature=0,
                max_tokens=64,
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "image_url", "image_url": {"url": url}},
                            {"type": "text", "text": "OCR:"},
                        ],
                    }
                ],
                extra_body={
                    "mm_processor_kwargs": {"min_pixels": 3136, "max_pixels": max_pixels},
                    "chat_template_kwargs": {"enable_thinking": False},
                },
            )
            assert response.choices[0].finish_reason == "stop"
            assert "42,000" in (response.choices[0].message.content or "")
            assert response.usage is not None
            tokens.append(response.usage.prompt_tokens)
        # 900x120 resizes to 896x112 (128 visual tokens) under the larger bound, and is
        # scaled down to at most 50,176 pixels (64 tokens) under the smaller one
        assert tokens[1] - tokens[0] >= 60
        short = await client.chat.completions.create(
            model=DEFAULT_MODEL,
            max_tokens=2,
            messages=[
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": url}},
                        {"type": "text", "text": "OCR:"},
                    ],
                }
            ],
        )
        assert short.choices[0].finish_reason == "length"
        assert short.usage is not None and short.usage.completion_tokens == 2
    finally:
        await client.close()


def test_models_and_bad_requests(served: str) -> None:
    with httpx.Client(base_url=served, timeout=10) as http:
        models = http.get("/models").json()
        assert [m["id"] for m in models["data"]] == [DEFAULT_MODEL]
        no_image = http.post(
            "/chat/completions",
            json={"model": DEFAULT_MODEL, "messages": [{"role": "user", "content": "OCR:"}]},
        )
        assert no_image.status_code == 400
        assert no_image.json()["error"]["message"] == "the user message has no image_url part"
        remote = http.post(
            "/chat/completions",
            json={
                "model": DEFAULT_MODEL,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
                        ],
                    }
                ],
            },
        )
        assert remote.status_code == 400
        assert "base64 data URL" in remote.json()["error"]["message"]
        bounds = http.post(
            "/chat/completions",
            json={
                "model": DEFAULT_MODEL,
                "mm_processor_kwargs": {"min_pixels": 10, "max_pixels": 5},
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image_url",
                                "image_url": {"url": image_data_url(_line_image("x"))},
                            }
                        ],
                    }
                ],
            },
        )
        assert bounds.status_code == 400
        assert "min_pixels <= max_pixels" in bounds.json()["error"]["message"]


def _big_png(side: int) -> bytes:
    """A valid 1-bit PNG of side x side black pixels, a few dozen KB compressed."""
    row = b"\x00" * (1 + (side + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row * 1000) for _ in range(side // 1000)) + packer.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def _body(url: str, **extra: object) -> dict[str, object]:
    part = {"type": "image_url", "image_url": {"url": url}}
    return {
        "model": DEFAULT_MODEL,
        "messages": [{"role": "user", "content": [part, {"type": "text", "text": "OCR:"}]}],
        **extra,
    }


MALFORMED: dict[str, tuple[object, str]] = {
    "image_url as a string": ("string-url", "messages[0].content[0].image_url"),
    "min_pixels abc": (
        {"mm_processor_kwargs": {"min_pixels": "abc"}},
        "mm_processor_kwargs.min_pixels",
    ),
    "max_tokens lots": ({"max_tokens": "lots"}, "max_tokens"),
    "max_tokens -1": ({"max_tokens": -1}, "max_tokens"),
    "max_tokens 0": ({"max_completion_tokens": 0}, "max_completion_tokens"),
    "stream as a string": ({"stream": "yes"}, "stream"),
    "messages not a list": ({"messages": "OCR:"}, "messages"),
    "temperature text": ({"temperature": "hot"}, "temperature"),
    "n above 1": ({"n": 3}, "n"),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_malformed_requests_give_400_with_an_error_object(served: str, case: str) -> None:
    change, param = MALFORMED[case]
    body = _body(image_data_url(_line_image("x")))
    if change == "string-url":
        body["messages"][0]["content"][0]["image_url"] = "data:image/png;base64,AAAA"  # type: ignore[index]
    else:
        body.update(change)  # type: ignore[call-overload]
    answer = httpx.post(f"{served}/chat/completions", json=body, timeout=30)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["param"] == param and error["code"] == 400 and error["type"] == "BadRequestError"
    assert error["message"]


def test_oversized_images_are_refused_from_the_header(served: str) -> None:
    huge = "data:image/png;base64," + base64.b64encode(_big_png(20000)).decode()
    answer = httpx.post(f"{served}/chat/completions", json=_body(huge), timeout=30)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["param"] == "image_url" and str(20000 * 20000) in error["message"]
    assert "render.max_image_pixels" in error["message"]
    not_json = httpx.post(f"{served}/chat/completions", content=b"{oops", timeout=30)
    assert not_json.status_code == 400 and "not valid JSON" in not_json.json()["error"]["message"]
    # the configured budget is the one applied: 1200x1000 passes the default, not 1,000,000
    small = image_data_url(Image.new("RGB", (1200, 1000), "white"))
    with serve_in_thread(create_app(max_image_pixels=1_000_000, max_request_bytes=10_000)) as url:
        refused = httpx.post(f"{url}/chat/completions", json=_body(small), timeout=30)
        assert refused.status_code == 413
        assert "limit of 10000 bytes" in refused.json()["error"]["message"]
    with serve_in_thread(create_app(max_image_pixels=1_000_000)) as url:
        refused = httpx.post(f"{url}/chat/completions", json=_body(small), timeout=30)
        assert refused.status_code == 400 and "1200x1000" in refused.json()["error"]["message"]
    accepted = httpx.post(f"{served}/chat/completions", json=_body(small), timeout=60)
    assert accepted.status_code == 200


async def test_streamed_answer_equals_the_whole_answer(served: str) -> None:
    client = AsyncOpenAI(base_url=served, api_key="EMPTY", max_retries=0)
    messages: Any = _body(image_data_url(_line_image("Budget 2026: 42,000 pages")))["messages"]
    try:
        whole = await client.chat.completions.create(model=DEFAULT_MODEL, messages=messages)
        stream = await client.chat.completions.create(
            model=DEFAULT_MODEL,
            messages=messages,
            stream=True,
            stream_options={"include_usage": True},
        )
        pieces, finishes, usage = [], [], None
        async for chunk in stream:
            if chunk.usage is not None:
                usage = chunk.usage
            for choice in chunk.choices:
                pieces.append(choice.delta.content or "")
                finishes.append(choice.finish_reason)
    finally:
        await client.close()
    text = whole.choices[0].message.content or ""
    assert "42,000" in text and "".join(pieces) == text
    assert len([p for p in pieces if p]) > 1, "the answer comes in more than one chunk"
    assert finishes[-1] == "stop" and all(f is None for f in finishes[:-1])
    assert usage is not None and whole.usage is not None
    assert usage.prompt_tokens == whole.usage.prompt_tokens
    assert usage.completion_tokens == whole.usage.completion_tokens
