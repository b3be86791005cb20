"""Served-engine failures, without a server: vLLM's error objects read as written, the refusals
that open the circuit at once, the crop shrunk before upload, a document's one line per failed
engine, and the example configs' serve commands carrying the trust flag."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engines.breaker import CircuitBreaker
from pagereader.pixels import fit_for_upload, image_tokens, smart_resize
from pagereader.planner.calibrate_fit import nnls
from pagereader.render.review import review_markdown
from pagereader.served_errors import classify, error_message
from pagereader.stages.engine_faults import engine_faults
from pagereader.types import Attempt, Block, BlockResult, DocumentResult, ErrorItem, PageResult

ROOT = Path(__file__).resolve().parents[3]
URL = "http://127.0.0.1:9/v1"


def test_vllm_error_objects_read_as_written() -> None:
    body = {
        "error": {
            "message": "max_tokens must be at least 1, got 0. (parameter=max_tokens, value=0)",
            "type": "BadRequestError",
            "param": "max_tokens",
            "code": 400,
        }
    }
    assert error_message(body) == (
        "BadRequestError: max_tokens must be at least 1, got 0. (parameter=max_tokens, value=0)"
    )
    missing = {
        "message": "The model `x` does not exist.",
        "type": "NotFoundError",
        "param": "model",
    }
    assert error_message(missing) == "NotFoundError (param model): The model `x` does not exist."
    assert error_message({"detail": "Not Found"}) == "Not Found"
    assert error_message("plain text body") == "plain text body"
    assert error_message(None, "fallback") == "fallback"


@pytest.mark.parametrize(
    ("status", "message", "cause", "hint"),
    [
        (400, "Per-request mm_processor_kwargs are disabled by default", "refused", "--trust"),
        (404, "The model `x` does not exist.", "refused", "[engines.vlm] model"),
        (400, "Failed to load model: Cannot find an appropriate cached", "refused", "model"),
        (401, "bad key", "refused", "api_key"),
        (413, "Request Entity Too Large", "rejected", "lower max_pixels"),
        (400, "max_tokens must be at least 1", "rejected", "parameters"),
        (500, "Internal Server Error", "server", "see its log"),
    ],
)
def test_failures_are_sorted_with_what_to_do(
    status: int, message: str, cause: str, hint: str
) -> None:
    failure = classify(status, message, "vlm", URL)
    assert failure.cause == cause and hint in failure.hint
    assert failure.line() == f"HTTP {status}: {message}"


def test_a_refusal_trips_the_breaker_at_once_with_its_reason() -> None:
    now = [0.0]
    breaker = CircuitBreaker(failure_threshold=5, reset_after_s=30, clock=lambda: now[0])
    breaker.trip("HTTP 400: refused", "restart with the flag")
    states: list[str] = [breaker.state]
    assert not breaker.allow()
    assert (breaker.reason, breaker.hint) == ("HTTP 400: refused", "restart with the flag")
    now[0] = 31.0
    assert breaker.allow()
    states.append(breaker.state)
    breaker.record_success()
    states.append(breaker.state)
    assert states == ["open", "half-open", "closed"] and breaker.reason == ""


@pytest.mark.parametrize("factor", [28, 32])
def test_a_crop_over_its_budget_is_shrunk_to_the_servers_own_resize(factor: int) -> None:
    image = Image.new("RGB", (3000, 2000), "white")
    low, high = 112_896, 1_003_520
    sent = fit_for_upload(image, factor, low, high)
    h, w = smart_resize(2000, 3000, factor, low, high)
    assert sent.size == (w, h) and w * h <= high
    # the server's resize of what was sent changes nothing: the same visual tokens
    assert smart_resize(sent.height, sent.width, factor, low, high) == (h, w)
    assert image_tokens(w, h, factor, low, high) == image_tokens(3000, 2000, factor, low, high)
    small = Image.new("RGB", (300, 200), "white")
    assert fit_for_upload(small, factor, low, high) is small  # the server enlarges it: as is


def test_nnls_matches_least_squares_inside_and_clips_outside() -> None:
    x = np.array([[1.0, 0.4, 16], [1.0, 1.6, 16], [1.0, 0.4, 128], [1.0, 1.6, 128]])
    y = x @ np.array([50.0, 300.0, 7.5])
    assert np.allclose(nnls(x, y), [50.0, 300.0, 7.5])
    falling = x @ np.array([50.0, -300.0, 7.5])  # a negative prefill: held at zero
    coef = nnls(x, falling)
    assert coef[1] == 0.0 and np.all(coef >= 0)


def _page(attempts: tuple[Attempt, ...], engine: str) -> PageResult:
    block = BlockResult(
        block=Block(kind="text", bbox=(0, 0, 10, 10)), engine=engine, attempts=attempts
    )
    return PageResult(index=1, width=10, height=10, blocks=(block,))


def _options(fallback: bool = False) -> Options:
    engine = OpenAIEngineOptions(base_url=URL, model="m", fallback_on_refusal=fallback)
    return Options(engines={"vlm": engine}, routes={"*.*": ["vlm", "ocr"]})


def test_an_unreachable_engine_is_one_error_of_the_document() -> None:
    failed = Attempt(
        engine="vlm",
        ok=False,
        error=f"engine vlm ({URL}): cannot connect: refused (after 3 tries)",
        cause="unreachable",
    )
    late = Attempt(engine="vlm", ok=False, error="late: the page deadline", cause="deadline")
    pages = [_page((failed, Attempt(engine="ocr", ok=True)), "ocr"), _page((late,), "ocr")]
    faults = engine_faults("doc.pdf", pages, _options())
    [error] = faults.errors
    assert error.message == (
        f"engine vlm ({URL}): 1 request(s) failed, 1 refused or not sent (first: cannot "
        "connect: refused (after 3 tries)); answered instead: 1 block(s) by ocr"
    )
    assert "start the server" in error.hint and "fallback_on_refusal = true" in error.hint
    accepted = engine_faults("doc.pdf", pages, _options(fallback=True))
    assert accepted.errors == () and len(accepted.warnings) == 1
    assert "fallback accepted" in accepted.warnings[0]


def test_a_failed_preflight_counts_even_when_no_block_used_the_engine() -> None:
    early = ErrorItem(
        file="", stage="preflight", message=f"engine vlm ({URL}): HTTP 404: x", hint="h"
    )
    faults = engine_faults("doc.pdf", [_page((), "textlayer")], _options(), {"vlm": early})
    [error] = faults.errors
    assert "failed its start-up check (HTTP 404: x)" in error.message and error.hint == "h"
    assert engine_faults("doc.pdf", [_page((), "textlayer")], _options()).errors == ()


def test_review_lists_accepted_fallbacks_as_warnings() -> None:
    result = DocumentResult(
        schema_version="1.0",
        source="doc.pdf",
        status="ok",
        pages=(_page((), "ocr"),),
        warnings=("engine vlm: failed (fallback accepted)",),
    )
    review = review_markdown(result)
    assert "every block was accepted" not in review
    assert "## Warnings\n\n- engine vlm: failed (fallback accepted)" in review


def test_every_vllm_serve_command_in_the_examples_carries_the_trust_flag() -> None:
    for path in sorted((ROOT / "examples" / "configs").glob("*.toml")):
        text = path.read_text(encoding="utf-8").replace("\\\n#", " ")
        commands = re.findall(r"vllm serve [^\n]*", text)
        for command in commands:
            assert "--trust-request-mm-kwargs" in command, (path.name, command)
