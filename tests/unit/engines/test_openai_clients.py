"""The openai engine's clients belong to the event loop that made them."""

from __future__ import annotations

import asyncio
import gc

from openai import AsyncOpenAI

from pagereader.config.options import OpenAIEngineOptions
from pagereader.engines.openai_api import OpenAIEngine


def test_one_client_per_loop_and_none_kept_for_a_finished_loop() -> None:
    engine = OpenAIEngine(OpenAIEngineOptions(base_url="http://127.0.0.1:9/v1", model="m"))

    async def twice() -> tuple[AsyncOpenAI, AsyncOpenAI]:
        return engine._client(), engine._client()

    first_a, first_b = asyncio.run(twice())
    assert first_a is first_b
    gc.collect()
    # the finished loop is gone, and its client with it: a new loop never inherits it
    assert len(engine._clients) == 0
    second, _ = asyncio.run(twice())
    assert second is not first_a

    async def close() -> None:
        await engine.aclose()

    asyncio.run(close())
    assert len(engine._clients) == 0
