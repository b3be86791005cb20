"""The openai engine over loopback against the scripted fault server: request shape, pixel
bounds from the decision layer, reasoning stripped, retries, fallbacks, deadlines, breaker,
concurrency and router mode."""

from __future__ import annotations

import asyncio
import base64
import io
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pagereader.config.file import override
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.engines.breaker import CircuitBreaker
from pagereader.engines.openai_api import strip_reasoning
from pagereader.pipeline import aparse, make_context
from pagereader.render.json import document_json
from pagereader.types import DocumentResult

from fault_server import Fault, FaultServer
from fixtures import Fixtures

Served = tuple[FaultServer, str]
ANSWER = "Quarterly figures, as read by the fault server"


@pytest.fixture(scope="module")
def fault() -> Iterator[Served]:
    server = FaultServer()
    with serve_in_thread(server.app()) as url:
        yield server, url


def _options(url: str, routes: dict[str, list[str]], **engine: Any) -> Options:
    """One served engine on the fault server; the verifier is off because the scripted
    answers are not meant to match the page."""
    settings: dict[str, Any] = {"timeout_s": 5.0, "retries": 1, **engine}
    budget = settings.pop("budget", {})
    router = settings.pop("router", None)
    return Options(
        engines={"vlm": OpenAIEngineOptions(base_url=url, model="fault", **settings)},
        routes=routes,
        budget=budget,
        router=router,
        verify={"enabled": False},
    )


def _changed(options: Options, **changes: object) -> Options:
    """``options`` with top-level fields replaced, validated again."""
    return override(options, {(key,): value for key, value in changes.items()}, source="<test>")


async def _parse(path: Path, options: Options) -> DocumentResult:
    ctx = make_context(options)
    try:
        return await aparse(path, ctx=ctx)
    finally:
        await asyncio.gather(*(engine.aclose() for engine in ctx.engines.values()))


def _attempts(result: DocumentResult) -> list[dict[str, Any]]:
    data = document_json(result)
    return [a for page in data["pages"] for b in page["blocks"] for a in b["attempts"]]


async def test_requests_carry_pixel_bounds(fault: Served, fixtures: Fixtures) -> None:
    server, url = fault
    seen: dict[str, list[dict[str, Any]]] = {}
    results: dict[str, DocumentResult] = {}
    for name, path in (("sparse", fixtures.deck_pdf), ("dense", fixtures.dense_pdf)):
        server.reset(Fault(answer=ANSWER))
        options = _changed(_options(url, {"*.*": ["vlm"]}), pages=(1,))
        results[name] = await _parse(path, options)
        seen[name] = list(server.requests)
    for name, requests in seen.items():
        page = results[name].pages[0]
        assert page.decision is not None
        assert len(requests) == len(page.blocks) > 0
        for body in requests:
            assert body["mm_processor_kwargs"] == {
                "min_pixels": page.decision.min_pixels,
                "max_pixels": page.decision.max_pixels,
            }
            assert body["chat_template_kwargs"] == {"enable_thinking": False}
            assert body["temperature"] == 0.0 and body["max_tokens"] > 0
            image, prompt = body["messages"][-1]["content"]
            assert image["image_url"]["url"].startswith("data:image/png;base64,")
            assert prompt["text"] in {"OCR:", "Table Recognition:", "Chart Recognition:"}
        assert {b.text for b in page.blocks} == {ANSWER}
    dense_max = {b["mm_processor_kwargs"]["max_pixels"] for b in seen["dense"]}
    sparse_max = {b["mm_processor_kwargs"]["max_pixels"] for b in seen["sparse"]}
    assert [p.decision.page_class for p in results["dense"].pages if p.decision] == ["dense"]
    assert min(dense_max) > max(sparse_max)
    tokens = [a["prompt_tokens"] for a in _attempts(results["sparse"])]
    assert tokens == [100] * len(tokens)


async def test_leaked_reasoning_is_stripped(fault: Served, fixtures: Fixtures) -> None:
    server, url = fault
    server.reset(Fault(mode="think", answer=ANSWER))
    result = await _parse(fixtures.deck_pdf, _changed(_options(url, {"*.*": ["vlm"]}), pages=(1,)))
    texts = [b.text for b in result.pages[0].blocks]
    assert texts and all(t == ANSWER for t in texts)
    assert "<think>" not in result.markdown and "</think>" not in result.markdown


def test_strip_reasoning_forms() -> None:
    assert strip_reasoning("<think>a\nb</think>\nText") == "Text"
    assert strip_reasoning("reasoning first</think>Text") == "Text"
    assert strip_reasoning("Text<think>cut off mid-thought") == "Text"
    assert strip_reasoning("<THINK>x</THINK>A<think>y</think>B") == "AB"


async def test_failing_endpoint_falls_back(fault: Served, fixtures: Fixtures) -> None:
    server, url = fault
    server.reset(Fault(mode="error500"))
    result = await _parse(
        fixtures.deck_pdf, _changed(_options(url, {"*.*": ["vlm", "textlayer"]}), pages=(1,))
    )
    # the fallback answered every block, but the served engine's failure is the document's
    # error (one line for the engine), so the run cannot pass as a clean one
    assert result.status == "partial"
    page = result.pages[0]
    assert page.blocks[0].text == "Quarterly Operations Review"
    assert all(b.engine == "textlayer" for b in page.blocks)
    failures = [a for a in _attempts(result) if not a["ok"]]
    assert len(failures) == len(page.blocks)
    assert all(a["engine"] == "vlm" for a in failures)
    assert all("HTTP 500" in a["error"] or "circuit open" in a["error"] for a in failures)
    assert {a["cause"] for a in failures} <= {"server", "unreachable"}
    # 5 blocks x 2 tries would be 10 requests; the breaker opens after 5 failures
    assert 5 <= len(server.requests) <= 10
    [error] = result.errors
    assert error.message.startswith(f"engine vlm ({url}): {len(failures)} request(s) failed")
    assert f"{len(page.blocks)} block(s) by textlayer" in error.message
    assert "HTTP 500" in error.message and "fallback_on_refusal = true" in error.hint


async def test_failing_endpoint_with_fallback_accepted_warns(
    fault: Served, fixtures: Fixtures
) -> None:
    server, url = fault
    server.reset(Fault(mode="error500"))
    options = _options(url, {"*.*": ["vlm", "textlayer"]}, fallback_on_refusal=True)
    result = await _parse(fixtures.deck_pdf, _changed(options, pages=(1,)))
    assert result.status == "ok" and not result.errors
    [warning] = result.warnings
    assert warning.startswith(f"engine vlm ({url}): ") and "HTTP 500" in warning
    assert "fallback accepted" in warning


async def test_rate_limited_requests_are_retried(fault: Served, fixtures: Fixtures) -> None:
    server, url = fault
    server.reset(Fault(mode="error429", fail_first=2, answer=ANSWER))
    result = await _parse(
        fixtures.deck_pdf, _changed(_options(url, {"*.*": ["vlm"]}, retries=2), pages=(1,))
    )
    page = result.pages[0]
    assert result.status == "ok" and {b.text for b in page.blocks} == {ANSWER}
    assert len(server.requests) == len(page.blocks) + 2


def _image_size(body: dict[str, Any]) -> tuple[int, int]:
    for message in body["messages"]:
        for part in message["content"] if isinstance(message["content"], list) else []:
            if part.get("type") == "image_url":
                data = str(part["image_url"]["url"]).split(",", 1)[-1]
                with Image.open(io.BytesIO(base64.b64decode(data))) as image:
                    return image.size
    raise AssertionError("no image in the request")


async def test_truncated_answers_are_retried_from_a_finer_render(
    fault: Served, fixtures: Fixtures
) -> None:
    """An answer cut at max_tokens reaches the verifier with its finish_reason: the truncation
    check finds it. Every crop of this slide is under its pixel budget, so the page raster's
    crop would give the model the same visual tokens; the slide is a PDF, so the retry sends
    the block's region rendered afresh with more pixels (the verdict says at what DPI), and
    when that answer loops too the block falls back to the text layer."""
    server, url = fault
    server.reset(Fault(mode="loop"))
    options = _changed(
        _options(url, {"*.*": ["vlm", "textlayer"]}), pages=(1,), verify={"enabled": True}
    )
    result = await _parse(fixtures.deck_pdf, options)
    textlayer = await _parse(fixtures.deck_pdf, Options(routes={"*.*": ["textlayer"]}, pages=(1,)))
    page, want = result.pages[0], textlayer.pages[0]
    assert [b.block.order for b in page.blocks] == [b.block.order for b in want.blocks]
    for block, reference in zip(page.blocks, want.blocks, strict=True):
        assert "truncation" in {f.check for f in block.verdict.findings}, block.verdict
        assert [(a.engine, a.finish_reason) for a in block.attempts] == [("vlm", "length")] * 2
        steps = [f.message for f in block.verdict.findings if "retried vlm" in f.message]
        assert len(steps) == 1 and re.search(r"from a \d+ DPI render", steps[0]), steps
        assert block.verdict.outcome == "fallback"
        assert block.text == reference.text
    assert len(server.requests) == 2 * len(page.blocks)
    sizes = [_image_size(body) for body in server.requests]
    firsts, retries = sizes[: len(page.blocks)], sizes[len(page.blocks) :]
    assert sum(w * h for w, h in retries) > 1.5 * sum(w * h for w, h in firsts)


async def test_a_scan_s_crop_under_its_budget_is_not_sent_again(
    fault: Served, fixtures: Fixtures
) -> None:
    """On a raster (no finer render exists) a crop under its budget would be the same request
    again: the retry is not sent, and the verdict says why."""
    server, url = fault
    server.reset(Fault(mode="loop"))
    options = _changed(_options(url, {"*.*": ["vlm"]}), verify={"enabled": True})
    result = await _parse(fixtures.scan_png, options)
    blocks = [b for p in result.pages for b in p.blocks if b.attempts]
    assert blocks
    for block in blocks:
        assert [(a.engine, a.finish_reason) for a in block.attempts] == [("vlm", "length")]
        notes = [f.message for f in block.verdict.findings if "not chosen" in f.message]
        assert len(notes) == 1 and "no finer render" in notes[0], block.verdict
        before, after = re.findall(r"([\d,]+) visual tokens .* would be ([\d,]+)", notes[0])[0]
        assert before == after
    assert len(server.requests) == len(blocks)


async def test_hung_endpoint_page_deadline(fault: Served, fixtures: Fixtures) -> None:
    server, url = fault
    server.reset(Fault(mode="hang", hang_s=20.0))
    deadline, timeout = 0.6, 1.5
    options = _changed(
        _options(
            url,
            {"*.*": ["vlm", "textlayer"]},
            timeout_s=timeout,
            budget={"page_deadline_s": deadline},
        ),
        pages=(1,),
    )
    start = time.perf_counter()
    result = await _parse(fixtures.deck_pdf, options)
    elapsed = time.perf_counter() - start
    page = result.pages[0]
    assert result.status == "ok"
    assert all(b.engine == "textlayer" for b in page.blocks)
    assert page.timings is not None and page.timings.stages["recognize"] < deadline + timeout
    assert elapsed < deadline + timeout + 2.0
    errors = [a["error"] for a in _attempts(result) if not a["ok"]]
    assert len(errors) == len(page.blocks)
    assert all("late: the page deadline (0.6 s) passed" in e for e in errors)


async def test_blocks_of_a_page_are_in_flight_together(fault: Served, fixtures: Fixtures) -> None:
    server, url = fault
    latency = 0.4
    server.reset(Fault(latency_s=latency, answer=ANSWER))
    start = time.perf_counter()
    result = await _parse(fixtures.two_column_pdf, _options(url, {"*.*": ["vlm"]}))
    page = result.pages[0]
    blocks = len(page.blocks)
    assert blocks >= 8
    assert server.peak >= min(blocks, 8)
    assert page.timings is not None and page.timings.stages["recognize"] < 2 * latency
    assert time.perf_counter() - start < blocks * latency


async def test_router_mode_tags_and_metadata(fault: Served, fixtures: Fixtures) -> None:
    server, url = fault
    server.reset(Fault(answer=ANSWER))
    options = Options(
        engines={
            "parser": OpenAIEngineOptions(
                base_url="http://127.0.0.1:9/v1", model="PaddlePaddle/PaddleOCR-VL", retries=0
            )
        },
        routes={"*.*": ["parser"]},
        router={"base_url": url},
        pages=(1,),
        verify={"enabled": False},
    )
    result = await _parse(fixtures.deck_pdf, options)
    assert result.status == "ok" and {b.text for b in result.pages[0].blocks} == {ANSWER}
    assert server.requests
    for body in server.requests:
        assert body["model"] == "vllm-sr/auto"
        assert body["metadata"]["page_class"] == "digital"
        assert body["metadata"]["task"] == "text"
        assert body["metadata"]["block_kind"] in {"title", "text"}
        system = body["messages"][0]
        assert system["role"] == "system"
        assert system["content"].startswith("page_class=digital task=text crop=")


def test_circuit_breaker_opens_probes_and_closes() -> None:
    now = [0.0]
    breaker = CircuitBreaker(failure_threshold=3, reset_after_s=10.0, clock=lambda: now[0])
    for _ in range(3):
        assert breaker.allow()
        breaker.record_failure()
    assert breaker.state == "open" and not breaker.allow()
    assert breaker.retry_in() == pytest.approx(10.0)
    now[0] = 10.5
    assert breaker.allow() and not breaker.allow()  # one probe at a time
    breaker.record_failure()
    assert breaker.state == "open"
    now[0] = 21.0
    assert breaker.allow()
    breaker.record_success()
    closed: str = breaker.state  # the property, read again after the success
    assert closed == "closed" and breaker.allow()


def test_a_probe_asked_for_goes_out_at_once_and_only_once() -> None:
    now = [0.0]
    breaker = CircuitBreaker(failure_threshold=1, reset_after_s=30.0, clock=lambda: now[0])
    breaker.probe_now()  # closed: nothing to do
    assert breaker.state == "closed"
    breaker.record_failure("HTTP 500")
    now[0] = 5.0
    assert not breaker.allow()
    breaker.probe_now()
    assert breaker.allow() and not breaker.allow()  # the probe, and no second one beside it
    breaker.probe_now()  # a probe already out is not doubled
    assert not breaker.allow()
    breaker.record_failure()
    reopened: str = breaker.state  # the property, read again after the failure
    assert reopened == "open" and breaker.retry_in() == pytest.approx(30.0)
