"""``serve-engine`` over loopback: the served path gives the embedded path's text, reports
visual tokens from the posted pixel bounds, and answers bad requests like an OpenAI server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from openai import AsyncOpenAI
from PIL import Image, ImageDraw, ImageFont

from pagereader.engines.openai_api import image_data_url
from pagereader.options import OpenAIEngineOptions, Options
from pagereader.pipeline import aparse, make_context
from pagereader.service.engine_api import DEFAULT_MODEL, create_app, serve_in_thread
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
