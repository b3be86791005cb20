"""The request contract against the real vLLM server: every shape pagereader sends is taken,
the planner's visual-token count is the image processor's, errors read as vLLM wrote them, and
a crop far above its pixel budget is shrunk before upload (vLLM answers the full-size upload
with a 500)."""

from __future__ import annotations

import asyncio

import pytest

from pagereader.engines.prompts import task_prompt
from pagereader.errors import EngineError, EngineRefusedError
from pagereader.planner.catalog import get_model
from pagereader.planner.memory import visual_tokens
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
from real_vllm.servers import VllmSet

pytestmark = pytest.mark.vllm

CATALOG = {"qwen2_vl": "qwen2.5-vl-7b", "qwen3_vl": "qwen3-vl-8b"}
BUDGETS = (200_704, 501_760, 1_003_520)


@pytest.mark.parametrize("style", ["paddleocr-vl", "qwen-vl"])
async def test_every_request_shape_is_accepted(vllm: VllmSet, style: str) -> None:
    """Each task's prompt with a crop, all at once, as the recognize stage sends a page."""
    vlm = engine(vllm.family("qwen2_vl"), "qwen2_vl", prompt_style=style)
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


@pytest.mark.parametrize("family", ["qwen2_vl", "qwen3_vl"])
async def test_prompt_tokens_are_the_planners_visual_tokens_plus_the_template(
    vllm: VllmSet, family: str
) -> None:
    """usage.prompt_tokens = smart_resize's tokens (planner) + the template's (measured apart),
    at three pixel budgets; the engine's shrunk upload costs the same as the full crop."""
    server = vllm.family(family)
    model = get_model(CATALOG[family])
    prompt = task_prompt("qwen-vl", "text", {})
    base = template_tokens(server, prompt)
    image = crop(1191, 842, seed=7)
    url = data_url(image)
    vlm = engine(server, family)
    try:
        for budget in BUDGETS:
            low = min(112_896, budget)
            expected = visual_tokens(model, image.width, image.height, low, budget) + base
            body = {
                "messages": user(image_part(url), text_part(prompt)),
                "mm_processor_kwargs": {"min_pixels": low, "max_pixels": budget},
            }
            raw = chat(server, body)
            assert raw.status_code == 200, raw.text
            assert raw.json()["usage"]["prompt_tokens"] == expected, budget
            answer = await vlm.recognize(block_request(image, "text", low, budget))
            assert answer.prompt_tokens == expected, budget
    finally:
        await vlm.aclose()


async def test_a_huge_crop_is_shrunk_before_upload(vllm: VllmSet) -> None:
    """A 20000x20000 crop: sent whole, vLLM fails with a 500 (Pillow's bomb limit) whatever
    max_pixels says; through the engine it is shrunk to the budget first and answered."""
    server = vllm.family("qwen2_vl")
    image = crop(20_000, 20_000, mode="L")
    budget = 1_003_520
    prompt = task_prompt("qwen-vl", "text", {})
    vlm = engine(server, "qwen2_vl")
    try:
        answer = await vlm.recognize(block_request(image, "text", 112_896, budget))
    finally:
        await vlm.aclose()
    expected = visual_tokens(get_model("qwen2.5-vl-7b"), 20_000, 20_000, 112_896, budget)
    assert answer.http_status == 200
    assert answer.prompt_tokens == expected + template_tokens(server, prompt)
    whole = chat(
        server,
        {
            "messages": user(image_part(data_url(image)), text_part(prompt)),
            "mm_processor_kwargs": {"min_pixels": 112_896, "max_pixels": budget},
        },
    )
    assert whole.status_code == 500, whole.text[:300]


async def test_vllm_error_objects_are_shown_as_vllm_wrote_them(vllm: VllmSet) -> None:
    """A 400 naming its parameter and a 404 for the model: the engine's message is vLLM's own
    message (with its type and parameter), not the client library's repr of the body."""
    server = vllm.family("qwen2_vl")
    image = crop(300, 200)
    too_long = engine(server, "qwen2_vl", max_tokens={"text": 100_000})
    with pytest.raises(EngineError) as excinfo:
        await too_long.recognize(block_request(image))
    await too_long.aclose()
    raw = chat(server, {"messages": user(text_part("x")), "max_tokens": 100_000}).json()["error"]
    assert raw["param"] == "max_tokens"
    assert excinfo.value.status == 400 and excinfo.value.cause == "rejected"
    assert excinfo.value.message.endswith(f"HTTP 400: {raw['type']}: {raw['message']}")
    assert "{'error'" not in excinfo.value.message
    assert too_long.breaker.state == "closed"  # a bad parameter of one request, not the server

    wrong = engine(server, "qwen2_vl", model="no-such-model")
    with pytest.raises(EngineRefusedError) as refused:
        await wrong.recognize(block_request(image))
    await wrong.aclose()
    missing = chat(server, {"model": "no-such-model", "messages": user(text_part("x"))})
    error = missing.json()["error"]
    assert missing.status_code == 404
    assert refused.value.message.endswith(
        f"HTTP 404: {error['type']} (param {error['param']}): {error['message']}"
    )
    assert "model" in refused.value.hint and wrong.breaker.state == "open"
