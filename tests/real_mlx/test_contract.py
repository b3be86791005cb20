"""The request contract against the real mlx-vlm server (``mlx_vlm.server`` on the CPU): every
shape pagereader sends is taken; with ``server = "mlx-vlm"`` the pixel bounds are kept (the
prompt tokens are the planner's visual tokens plus the template's), while vLLM's
``mm_processor_kwargs`` are taken and silently ignored; a wrong model, a timeout and a server
error are each named as for vLLM."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from pagereader.engines.prompts import task_prompt
from pagereader.errors import EngineError, EngineRefusedError, EngineUnavailableError
from pagereader.planner.catalog import get_model
from pagereader.planner.memory import visual_tokens
from real_mlx.servers import FAMILIES, MlxSet
from real_vllm.helpers import (
    MAX_TOKENS,
    TASKS,
    block_request,
    chat,
    crop,
    data_url,
    engine,
    image_part,
    template_tokens,
    text_part,
    user,
)

pytestmark = pytest.mark.mlx

CATALOG = {"qwen2_vl": "qwen2.5-vl-7b", "qwen3_vl": "qwen3-vl-8b"}
BUDGETS = (200_704, 501_760, 1_003_520)
MLX = {"server": "mlx-vlm"}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("style", ["paddleocr-vl", "qwen-vl"])
async def test_every_request_shape_is_accepted(mlx: MlxSet, family: str, style: str) -> None:
    """Each task's prompt with a crop, all at once, as the recognize stage sends a page."""
    vlm = engine(mlx.family(family), family, prompt_style=style, **MLX)
    try:
        answers = await asyncio.gather(
            *(vlm.recognize(block_request(crop(420, 300, n), task)) for n, task in enumerate(TASKS))
        )
    finally:
        await vlm.aclose()
    for answer in answers:
        assert answer.http_status == 200
        assert answer.completion_tokens is not None and 1 <= answer.completion_tokens <= MAX_TOKENS
        assert answer.prompt_tokens is not None and answer.prompt_tokens > 100


@pytest.mark.parametrize("family", FAMILIES)
async def test_prompt_tokens_are_the_planners_visual_tokens_plus_the_template(
    mlx: MlxSet, family: str
) -> None:
    """usage.prompt_tokens = smart_resize's tokens (planner) + the template's (measured apart),
    at three pixel budgets, raw and through the engine."""
    server = mlx.family(family)
    model = get_model(CATALOG[family])
    prompt = task_prompt("qwen-vl", "text", {})
    base = template_tokens(server, prompt)
    image = crop(1191, 842, seed=7)
    url = data_url(image)
    vlm = engine(server, family, **MLX)
    try:
        for budget in BUDGETS:
            low = min(112_896, budget)
            expected = visual_tokens(model, image.width, image.height, low, budget) + base
            body = {
                "messages": user(image_part(url), text_part(prompt)),
                "min_pixels": low,
                "max_pixels": budget,
            }
            raw = chat(server, body)
            assert raw.status_code == 200, raw.text
            assert raw.json()["usage"]["prompt_tokens"] == expected, budget
            answer = await vlm.recognize(block_request(image, "text", low, budget))
            assert answer.prompt_tokens == expected, budget
    finally:
        await vlm.aclose()


def test_vllms_fields_are_taken_and_ignored(mlx: MlxSet) -> None:
    """Why the engine has a ``server`` option: mlx-vlm answers 200 to ``mm_processor_kwargs``
    and uses its own default bounds, so a small budget costs as much as none."""
    server = mlx.family("qwen2_vl")
    prompt = task_prompt("qwen-vl", "text", {})
    messages = user(image_part(data_url(crop(1191, 842, seed=8))), text_part(prompt))
    small = {"min_pixels": 3136, "max_pixels": 200_704}
    bodies: dict[str, dict[str, Any]] = {
        "none": {},
        "vllm": {"mm_processor_kwargs": small, "chat_template_kwargs": {"enable_thinking": False}},
        "mlx-vlm": {**small, "enable_thinking": False},
    }
    tokens = {}
    for name, extra in bodies.items():
        response = chat(server, {"messages": messages, **extra})
        assert response.status_code == 200, response.text
        tokens[name] = response.json()["usage"]["prompt_tokens"]
    expected = visual_tokens(get_model("qwen2.5-vl-7b"), 1191, 842, 3136, 200_704)
    assert tokens["mlx-vlm"] == expected + template_tokens(server, prompt)
    assert tokens["vllm"] == tokens["none"] > 3 * tokens["mlx-vlm"]


async def test_a_wrong_model_is_a_refusal_naming_the_model(mlx: MlxSet) -> None:
    """mlx-vlm answers 400 "Failed to load model" (it tried to load the named one): a refusal
    that will repeat, so the circuit opens, and the hint names the engine's model key."""
    server = mlx.family("qwen2_vl")
    wrong = engine(server, "qwen2_vl", model="no-such-model", **MLX)
    with pytest.raises(EngineRefusedError) as refused:
        await wrong.recognize(block_request(crop(300, 200)))
    await wrong.aclose()
    raw = chat(server, {"model": "no-such-model", "messages": user(text_part("x"))})
    assert raw.status_code == 400 and raw.json()["detail"].startswith("Failed to load model")
    assert refused.value.status == 400 and refused.value.cause == "refused"
    assert refused.value.message.endswith(f"HTTP 400: {raw.json()['detail']}")
    assert "[engines.vlm] model" in refused.value.hint and wrong.breaker.state == "open"


async def test_a_timeout_is_named_with_its_seconds(mlx: MlxSet) -> None:
    """A request that takes longer than ``timeout_s`` (a long answer): cause ``timeout`` and
    the limit in the message, not retried; measured against the wall clock."""
    server = mlx.family("qwen2_vl")
    slow = engine(server, "qwen2_vl", timeout_s=0.5, max_tokens={"text": 300}, **MLX)
    start = time.monotonic()
    with pytest.raises(EngineError) as excinfo:
        await slow.recognize(block_request(crop(300, 200, seed=3)))
    took = time.monotonic() - start
    await slow.aclose()
    assert excinfo.value.cause == "timeout"
    assert excinfo.value.message.endswith("no answer within 0.5 s")
    assert f"({server.base_url})" in excinfo.value.message
    assert 0.5 <= took < 5.0


async def test_a_server_error_is_named_with_the_servers_message(mlx: MlxSet) -> None:
    """A crop past the processor's aspect limit (3000x10, ratio over 200): mlx-vlm answers 500
    (vLLM: 400); the engine retries it as a server failure and says what the server said."""
    server = mlx.family("qwen2_vl")
    image = crop(3000, 10)
    raw = chat(
        server,
        {"messages": user(image_part(data_url(image)), text_part("x")), "max_pixels": 200_704},
    )
    assert raw.status_code == 500, raw.text[:300]
    failing = engine(server, "qwen2_vl", retries=1, **MLX)
    with pytest.raises(EngineUnavailableError) as excinfo:
        await failing.recognize(block_request(image, "text", 3136, 200_704))
    await failing.aclose()
    error = excinfo.value
    assert error.status == 500 and error.cause == "server"
    assert f"HTTP 500: {raw.json()['detail']} (after 2 tries)" in error.message
    assert "see its log" in error.hint
