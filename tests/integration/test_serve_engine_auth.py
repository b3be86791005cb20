"""``serve-engine`` with API keys: the openai client's ``api_key`` is the bearer token; a request
without a known key is refused with an OpenAI-style 401, and an open engine never listens beyond
loopback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import httpx
import openai
import pytest
from openai import AsyncOpenAI

from pagereader.engine_server.server import DEFAULT_MODEL, create_app, serve_in_thread
from pagereader.http.auth import TokenStore

KEY = "engine-key-0123456789abcdef"


@pytest.fixture(scope="module")
def guarded() -> Iterator[str]:
    tokens = TokenStore.parse(f"pipeline:reader:{KEY}", "test")
    with serve_in_thread(create_app(tokens=tokens)) as url:
        yield url


def test_a_request_without_the_key_is_refused(guarded: str) -> None:
    response = httpx.get(f"{guarded}/models")
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "AuthenticationError"
    wrong = httpx.get(f"{guarded}/models", headers={"Authorization": "Bearer not-the-key-at-all"})
    assert wrong.status_code == 401


async def test_the_openai_client_with_the_key_is_served(guarded: str) -> None:
    async with AsyncOpenAI(base_url=guarded, api_key=KEY) as client:
        models = await client.models.list()
    assert [m.id for m in models.data] == [DEFAULT_MODEL]
    async with AsyncOpenAI(base_url=guarded, api_key="EMPTY", max_retries=0) as client:
        with pytest.raises(openai.AuthenticationError):
            await client.models.list()


def test_an_open_engine_refuses_a_public_bind() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PAGEREADER_TOKENS"}
    done = subprocess.run(
        [sys.executable, "-m", "pagereader", "serve-engine", "--host", "0.0.0.0", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 2
    assert "refusing to listen on 0.0.0.0 without API tokens" in done.stderr
