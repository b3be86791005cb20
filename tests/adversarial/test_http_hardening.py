"""The HTTP layer of ``serve`` and ``serve-engine`` against hostile bodies and headers, on real
servers over loopback: every refusal is a 4xx naming what is wrong (never a 500, never a Python
repr), an open engine answers no foreign Host, Origin or body type, and six large images
posted together stay within the decode budget, measured on the server process itself."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageDraw

from pagereader.engine_server.server import DEFAULT_MODEL, create_app, serve_in_thread

from service_process import ServerProcess, free_port, running, server_env, wait_finished

DECK = Path(__file__).parents[2] / "examples" / "deck.pdf"
JSON = {"Content-Type": "application/json"}
BIG_SIDE = 7999
PEAK_BOUND_KB = 1_500_000


@pytest.fixture(scope="module")
def engine() -> Iterator[str]:
    with serve_in_thread(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("hardening")
    with running(root / "data", root / "server.log") as process:
        yield process


def _png(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def _chat(url: str, **extra: Any) -> dict[str, Any]:
    parts = [{"type": "image_url", "image_url": {"url": url}}, {"type": "text", "text": "OCR:"}]
    return {"model": DEFAULT_MODEL, "messages": [{"role": "user", "content": parts}], **extra}


def _small_image() -> str:
    image = Image.new("RGB", (320, 80), "white")
    ImageDraw.Draw(image).text((10, 30), "Total 42", fill="black")
    return _png(image)


def _finished_job(url: str) -> tuple[str, dict[str, Any]]:
    answer = httpx.post(
        f"{url}/v1/documents",
        files={"file": ("deck.pdf", DECK.read_bytes(), "application/pdf")},
        timeout=60,
    )
    assert answer.status_code == 202, answer.text
    job_id = answer.json()["id"]
    with httpx.Client(base_url=url, timeout=30) as http:
        wait_finished(http, job_id, 300)
    blocks = httpx.get(f"{url}/v1/jobs/{job_id}/blocks", timeout=30).json()["blocks"]
    return job_id, blocks[0]


def test_a_lone_surrogate_in_review_text_is_refused_with_422(service: ServerProcess) -> None:
    job_id, block = _finished_job(service.url)
    # json.dumps writes the lone surrogate as the escape \ud800, which any JSON reader accepts
    body = json.dumps({"page": block["page"], "block": block["block"], "action": "edit"})
    body = body[:-1] + ', "text": "fixed \\ud800 text"}'
    answer = httpx.post(
        f"{service.url}/v1/jobs/{job_id}/reviews", content=body, headers=JSON, timeout=30
    )
    assert answer.status_code == 422, answer.text
    message = answer.json()["error"]
    assert "lone surrogate" in message and "U+D800" in message and "text" in message
    trail = httpx.get(f"{service.url}/v1/jobs/{job_id}/reviews", timeout=30).json()["reviews"]
    assert trail == [], "nothing was recorded"
    valid = body.replace("\\ud800", "\\ud83d\\ude00")  # a surrogate pair: one real character
    accepted = httpx.post(
        f"{service.url}/v1/jobs/{job_id}/reviews", content=valid, headers=JSON, timeout=60
    )
    assert accepted.status_code == 201, accepted.text
    assert accepted.json()["text"] == "fixed \U0001f600 text"


def test_deep_nesting_is_a_400_on_both_servers(service: ServerProcess, engine: str) -> None:
    deep = b"[" * 100_000
    targets = [f"{service.url}/v1/jobs/nope/reviews", f"{engine}/chat/completions"]
    for target in targets:
        answer = httpx.post(target, content=deep, headers=JSON, timeout=60)
        assert answer.status_code == 400, (target, answer.text)
        error = answer.json()["error"]
        message = error if isinstance(error, str) else error["message"]
        assert "nests deeper than 64 levels" in message
    # nesting inside a string is text, not structure
    text = _chat(_small_image(), user="[" * 5000)
    assert httpx.post(targets[1], json=text, timeout=120).status_code == 200


LONG_NUMBER = "1" + "0" * 4999
"""5000 digits: past Python's int() limit of 4300, a ValueError inside json.loads."""


def _refusal(answer: httpx.Response) -> str:
    """The message of a 400 from either server (the service's shape or OpenAI's)."""
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    return str(error if isinstance(error, str) else error["message"])


def test_a_5000_digit_number_is_a_400_on_both_servers(service: ServerProcess, engine: str) -> None:
    job_id, block = _finished_job(service.url)
    reviews = f"{service.url}/v1/jobs/{job_id}/reviews"
    decision = {"page": block["page"], "block": block["block"], "action": "approve"}
    chat = json.dumps(_chat(_small_image(), seed=0))
    bodies = {
        reviews: json.dumps(decision).replace(f'"page": {block["page"]}', f'"page": {LONG_NUMBER}'),
        f"{engine}/chat/completions": chat.replace('"seed": 0', f'"seed": {LONG_NUMBER}'),
    }
    for target, body in bodies.items():
        assert LONG_NUMBER in body
        answer = httpx.post(target, content=body, headers=JSON, timeout=60)
        assert "a number of more than 100 digits" in _refusal(answer), target
    # both still answer, and digits inside a string are text: a correction of 5000 digits is kept
    edit = {**decision, "action": "edit", "text": LONG_NUMBER}
    accepted = httpx.post(reviews, json=edit, timeout=60)
    assert accepted.status_code == 201, accepted.text
    assert accepted.json()["text"] == LONG_NUMBER
    answered = httpx.post(f"{engine}/chat/completions", content=chat, headers=JSON, timeout=120)
    assert answered.status_code == 200, answered.text


def test_an_open_engine_refuses_foreign_hosts_origins_and_body_types(engine: str) -> None:
    body = json.dumps(_chat(_small_image()))
    foreign = httpx.post(
        f"{engine}/chat/completions", content=body, headers={**JSON, "Host": "evil.example"}
    )
    assert foreign.status_code == 403
    assert "evil.example" in foreign.json()["error"]["message"]
    models = httpx.get(f"{engine}/models", headers={"Host": "evil.example:8000"})
    assert models.status_code == 403
    cross = httpx.post(
        f"{engine}/chat/completions",
        content=body,
        headers={**JSON, "Origin": "http://evil.example"},
    )
    assert cross.status_code == 403
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        typed = httpx.post(
            f"{engine}/chat/completions", content=body, headers={"Content-Type": kind}, timeout=60
        )
        assert typed.status_code == 415, kind
        assert typed.json()["error"]["code"] == 415
    allowed = httpx.post(f"{engine}/chat/completions", content=body, headers=JSON, timeout=120)
    assert allowed.status_code == 200, allowed.text


BAD_NUMBERS: dict[str, tuple[dict[str, Any], str]] = {
    "temperature NaN": ({"temperature": float("nan")}, "temperature"),
    "temperature Infinity": ({"temperature": float("inf")}, "temperature"),
    "temperature 3": ({"temperature": 3}, "temperature"),
    "max_tokens 1e30": ({"max_tokens": 1e30}, "max_tokens"),
    "max_tokens 10**30": ({"max_tokens": 10**30}, "max_tokens"),
    "max_completion_tokens past the model": (
        {"max_completion_tokens": 10**6},
        "max_completion_tokens",
    ),
    "top_p 0": ({"top_p": 0}, "top_p"),
    "top_p 1.5": ({"top_p": 1.5}, "top_p"),
    "top_k -5": ({"top_k": -5}, "top_k"),
    "min_p 2": ({"min_p": 2}, "min_p"),
    "presence_penalty 9": ({"presence_penalty": 9}, "presence_penalty"),
    "frequency_penalty -NaN": ({"frequency_penalty": float("nan")}, "frequency_penalty"),
    "repetition_penalty 0": ({"repetition_penalty": 0}, "repetition_penalty"),
    "seed 2**64": ({"seed": 2**64}, "seed"),
    "seed 1.5": ({"seed": 1.5}, "seed"),
    "n 0": ({"n": 0}, "n"),
    "top_logprobs 50": ({"top_logprobs": 50}, "top_logprobs"),
    "logit_bias 1e9": ({"logit_bias": {"42": 1e9}}, "logit_bias.42"),
    "min_pixels 1e30": (
        {"mm_processor_kwargs": {"min_pixels": 10**30}},
        "mm_processor_kwargs.min_pixels",
    ),
}


@pytest.mark.parametrize("case", BAD_NUMBERS, ids=list(BAD_NUMBERS))
def test_every_numeric_field_is_checked_like_vllm(engine: str, case: str) -> None:
    change, param = BAD_NUMBERS[case]
    body = json.dumps(_chat(_small_image(), **change))  # NaN and Infinity as Python writes them
    answer = httpx.post(f"{engine}/chat/completions", content=body, headers=JSON, timeout=60)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["param"] == param and error["code"] == 400 and error["type"] == "BadRequestError"
    assert param in error["message"]


def test_error_messages_carry_no_python_reprs(engine: str) -> None:
    junk = "data:image/png;base64," + base64.b64encode(b"not an image at all" * 10).decode()
    png = base64.b64decode(_small_image().split(",", 1)[1])
    truncated = "data:image/png;base64," + base64.b64encode(png[:120]).decode()
    for url in (junk, truncated):
        answer = httpx.post(f"{engine}/chat/completions", json=_chat(url), timeout=60)
        assert answer.status_code == 400, answer.text
        message = answer.json()["error"]["message"]
        assert message.startswith("cannot decode the image")
        assert "0x" not in message and " object at " not in message and "<_io" not in message


def _peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


@pytest.mark.slow
def test_six_concurrent_huge_images_stay_within_the_image_memory_budget(tmp_path: Path) -> None:
    image = Image.new("RGB", (BIG_SIDE, BIG_SIDE), "white")
    draw = ImageDraw.Draw(image)
    for y in range(200, BIG_SIDE, 1600):
        draw.text((200, y), f"Line {y}", fill="black")
    url = _png(image)
    del image, draw
    port = free_port()
    log = tmp_path / "engine.log"
    command = [sys.executable, "-m", "pagereader", "serve-engine", "--port", str(port)]
    with log.open("wb") as handle:
        process = subprocess.Popen(
            command, stdout=handle, stderr=subprocess.STDOUT, env=server_env()
        )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        statuses: list[int] = []

        def post() -> None:
            answer = httpx.post(f"{base}/chat/completions", json=_chat(url), timeout=900)
            statuses.append(answer.status_code)

        threads = [threading.Thread(target=post) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        peak = _peak_kb(process.pid)
    finally:
        process.terminate()
        process.wait(30)
    assert statuses == [200] * 6
    assert peak < PEAK_BOUND_KB, f"peak RSS {peak} kB"
