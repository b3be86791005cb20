"""The body of a block request for each server kind: vLLM's fields by default, mlx-vlm's
top-level fields when the engine says so, and nothing of the other's in either."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from pagereader.config.options import OpenAIEngineOptions
from pagereader.engines.base import BlockRequest
from pagereader.engines.openai_api import OpenAIEngine, image_data_url
from pagereader.planner.calibrate import request_body as calibration_body
from pagereader.types import Block

URL = "http://127.0.0.1:9/v1"


def _body(**options: Any) -> dict[str, Any]:
    image = Image.new("RGB", (300, 200), "white")
    request = BlockRequest(
        file="a.pdf",
        page=1,
        block=Block(kind="text", bbox=(0.0, 0.0, 300.0, 200.0)),
        task="text",
        image=image,
        page_image=image,
        scale=1.0,
        page_class="scan",
        script="latin",
        min_pixels=3136,
        max_pixels=200_704,
    )
    engine = OpenAIEngine(OpenAIEngineOptions(base_url=URL, model="m", **options))
    return engine.request_body(request, image_data_url(image))


def test_the_default_speaks_vllm() -> None:
    body = _body()
    assert body["extra_body"] == {
        "mm_processor_kwargs": {"min_pixels": 3136, "max_pixels": 200_704},
        "chat_template_kwargs": {"enable_thinking": False},
    }
    assert OpenAIEngineOptions(base_url=URL, model="m").server == "vllm"


def test_mlx_vlm_gets_top_level_fields() -> None:
    body = _body(server="mlx-vlm")
    assert body["extra_body"] == {
        "min_pixels": 3136,
        "max_pixels": 200_704,
        "enable_thinking": False,
    }
    assert body["max_tokens"] == _body()["max_tokens"] and body["model"] == "m"


def test_an_unknown_server_is_refused_by_the_config() -> None:
    with pytest.raises(ValueError, match="mlx-vlm"):
        OpenAIEngineOptions(base_url=URL, model="m", server="ollama")


@pytest.mark.parametrize(
    ("server", "length", "pixels"),
    [
        ("vllm", {"min_tokens": 16, "ignore_eos": True}, "mm_processor_kwargs"),
        ("mlx-vlm", {}, "max_pixels"),
    ],
)
def test_calibration_bodies_follow_the_server(
    server: str, length: dict[str, Any], pixels: str
) -> None:
    engine = OpenAIEngineOptions(base_url=URL, model="m", server=server)
    body = calibration_body(engine, "data:,", 100_000, 16)
    assert {k: body[k] for k in ("min_tokens", "ignore_eos") if k in body} == length
    assert pixels in body and body["max_tokens"] == 16
    assert ("mm_processor_kwargs" in body) == (server == "vllm")
