"""Calibrate the time model against the user's own OpenAI-compatible endpoints.

A short, bounded series of real requests to each endpoint: untimed warm-up rounds of one
request at each pixel budget and output length, until no shape is more than ``SETTLED`` faster
than its fastest before (at most ``WARM_ROUNDS``), and one concurrent round (vLLM's
first request at a new ``mm_processor_kwargs`` value costs seconds more, and a fresh CPU server
keeps speeding up over its first rounds), then batch-1 requests cycling over two pixel budgets
(a quarter of the crop's pixels, and all of them) and two output lengths, then four rounds of
eight concurrent requests with short, long, long and short answers (the order cancels a server
that still speeds up or slows down at a steady rate: one round of each measured a batch step
of 2.7 ms and of 5.7 ms on the same server). Every request sends a crop of its own (same size,
different text): a repeated crop is answered from vLLM's prefix and multimodal caches and its
prefill would time as free.

The batch-1 latencies (the median of each pair of prompt and output tokens, so that a straggler
does not move the fit) are fitted by non-negative least squares to ``fixed + prefill x prompt
tokens + step x output tokens`` (a cost cannot be negative; a term held at zero is reported);
the step at batch 8 is the difference of the long and short rounds' means over the difference
of their output tokens (their prefills are the same, so they cancel). Token counts come from
the server's ``usage``. A fit that cannot be right (a term at zero, a residual as large as the
latencies) is flagged implausible. For the cleanest numbers start the server with
``--no-enable-prefix-caching --mm-processor-cache-gb 0``.

The pixel bounds and the answer length travel in the fields of the engine's ``server``
(served_fields.py). An mlx-vlm server has no way to ask for an exact length: the fit takes the
tokens each answer counted, and the calibration says so when an answer stopped early. A server
that ignored the pixel bounds (every request the same prompt tokens: an mlx-vlm server sent
vLLM's ``mm_processor_kwargs``) is named, with the ``server`` value that fixes it.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import logging
import math
import statistics
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx
from PIL import Image, ImageDraw

from pagereader import aio
from pagereader.config.options import OpenAIEngineOptions
from pagereader.errors import ConfigError
from pagereader.planner.calibrate_fit import (
    CalibrationError,
    Sample,
    fit,
)
from pagereader.planner.calibrate_series import (
    BATCH,
    BATCH_ROUNDS,
    CROP,
    MIN_REQUESTS,
    OUTPUT_TOKENS,
    SETTLED,
    WARM_ROUNDS,
    pixel_budgets,
)
from pagereader.planner.catalog import get_model
from pagereader.planner.timemodel import Calibrated
from pagereader.served_errors import classify, error_message
from pagereader.served_fields import forces_length, length_fields, pixel_fields

logger = logging.getLogger(__name__)

SCHEMA = "pagereader-calibration/1"
_PROMPTS = {"paddleocr-vl": "OCR:", "qwen-vl": "Read the text in this image."}


_TEXT = (
    "Quarterly revenue grew in every region while costs held steady and margins widened "
    "across the divisions that reported before the close of the fiscal year"
)
_WORDS = _TEXT.split()


def page_crop(width: int = CROP[0], height: int = CROP[1], seed: int = 0) -> Image.Image:
    """A crop of a text page: lines of real words on white. Each ``seed`` gives other lines
    (words, numbers and their order), so no two requests share pixels."""
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    count = len(_WORDS)
    for n, y in enumerate(range(24, height - 24, 36)):
        start = (seed * 7 + n * 3) % count
        words = " ".join(_WORDS[(start + k * (seed % 5 + 1)) % count] for k in range(10))
        draw.text((24, y), f"{seed}.{n + 1} {words} {(seed * 31 + n * 7) % 997}", fill="black")
    return image


def _data_url(image: Image.Image) -> str:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def request_body(
    engine: OpenAIEngineOptions, url: str, max_pixels: int, max_tokens: int
) -> dict[str, Any]:
    """A chat request that asks for exactly ``max_tokens`` tokens where the server can be asked
    (vLLM's ignore_eos), in the fields of the engine's ``server``."""
    return {
        "model": engine.model,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": url}},
                    {"type": "text", "text": _PROMPTS[engine.prompt_style]},
                ],
            }
        ],
        "max_tokens": max_tokens,
        **length_fields(engine.server, max_tokens),
        "temperature": 0.0,
        **pixel_fields(engine.server, min(3136, max_pixels), max_pixels),
    }


async def _one(
    client: httpx.AsyncClient, engine: OpenAIEngineOptions, body: dict[str, Any]
) -> tuple[int, int, float]:
    """Prompt tokens, completion tokens and seconds of one request."""
    start = time.perf_counter()
    try:
        response = await client.post(
            engine.base_url.rstrip("/") + "/chat/completions",
            json=body,
            headers={"Authorization": f"Bearer {engine.api_key.get_secret_value()}"},
        )
    except httpx.HTTPError as exc:
        raise CalibrationError(
            f"request to {engine.base_url} failed: {exc}", hint="is the server running?"
        ) from exc
    if response.status_code != 200:
        failure = classify(
            response.status_code, _server_message(response), "calibrated", engine.base_url
        )
        raise CalibrationError(f"{engine.base_url} answered {failure.line()}", hint=failure.hint)
    usage = response.json().get("usage") or {}
    if "prompt_tokens" not in usage or "completion_tokens" not in usage:
        raise CalibrationError(f"{engine.base_url} reports no token usage; cannot fit")
    return int(usage["prompt_tokens"]), int(usage["completion_tokens"]), time.perf_counter() - start


def _server_message(response: httpx.Response) -> str:
    """The error object's message as the server wrote it."""
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    return error_message(body, response.text[:300])


async def _round(
    client: httpx.AsyncClient, engine: OpenAIEngineOptions, bodies: list[dict[str, Any]]
) -> tuple[float, float, float]:
    """Send the bodies at once; mean prompt and completion tokens, and the median request's
    seconds (not the round's wall, which is its slowest request: one straggler delayed by the
    client's own scheduling would bias the batch step it measures)."""
    done = await asyncio.gather(*(_one(client, engine, b) for b in bodies))
    return (
        sum(p for p, _, _ in done) / len(done),
        sum(c for _, c, _ in done) / len(done),
        statistics.median(seconds for _, _, seconds in done),
    )


async def probe(
    engine: OpenAIEngineOptions,
    requests: int = MIN_REQUESTS,
    crop: tuple[int, int] = CROP,
    name: str = "NAME",
) -> list[Sample]:
    """The timed series against one endpoint (``[engines.name]``): ``requests`` requests after
    the warm-ups, which stop at the first round when the server ignored the pixel bounds."""
    if requests < MIN_REQUESTS:
        raise ConfigError(f"--requests must be at least {MIN_REQUESTS}, got {requests}")
    budgets = pixel_budgets(crop)
    single = requests - BATCH * len(BATCH_ROUNDS)
    combos = [(p, t) for t in OUTPUT_TOKENS for p in budgets]
    samples: list[Sample] = []
    seeds = iter(range(1, 1_000_000))

    def fresh() -> str:
        return _data_url(page_crop(*crop, seed=next(seeds)))

    limits = httpx.Limits(max_connections=BATCH, max_keepalive_connections=BATCH)
    async with httpx.AsyncClient(timeout=engine.timeout_s, limits=limits) as client:
        # untimed: every shape the series will time, until the server has settled (a server's
        # first requests of a shape cost more, and a fresh CPU server keeps speeding up over
        # its first rounds), then one batch round
        best = [math.inf] * len(combos)
        rounds = 0
        while rounds < WARM_ROUNDS:
            rounds += 1
            took: list[float] = []
            prompts: dict[int, int] = {}
            for pixels, tokens in combos:
                body = request_body(engine, fresh(), pixels, tokens)
                prompt, _, seconds = await _one(client, engine, body)
                took.append(seconds)
                prompts[pixels] = prompt
            _check_pixels(name, engine, prompts)
            if all(t >= (1 - SETTLED) * b for t, b in zip(took, best, strict=True)):
                break
            best = [min(t, b) for t, b in zip(took, best, strict=True)]
        logger.info("%s: warmed up in %d round(s) of %d", engine.model, rounds, len(combos))
        warm = [request_body(engine, fresh(), budgets[0], OUTPUT_TOKENS[0]) for _ in range(BATCH)]
        await _round(client, engine, warm)
        for n in range(single):
            pixels, tokens = combos[n % len(combos)]
            body = request_body(engine, fresh(), pixels, tokens)
            p, c, seconds = await _round(client, engine, [body])
            samples.append(Sample(1, pixels, tokens, p, c, seconds))
        for tokens in BATCH_ROUNDS:
            bodies = [request_body(engine, fresh(), budgets[0], tokens) for _ in range(BATCH)]
            p, c, seconds = await _round(client, engine, bodies)
            samples.append(Sample(BATCH, budgets[0], tokens, p, c, seconds))
    return samples


def _check_pixels(name: str, engine: OpenAIEngineOptions, prompts: dict[int, int]) -> None:
    """Fail, naming the fix, when the pixel budgets (max_pixels -> prompt tokens of one warm-up
    round) all cost the same prompt tokens: the server did not read the bounds."""
    budgets = sorted(prompts)
    if len(budgets) < 2 or len(set(prompts.values())) > 1:
        return
    fields = next(iter(pixel_fields(engine.server, 1, 1)))
    other = "mlx-vlm" if engine.server == "vllm" else "vllm"
    raise CalibrationError(
        f"engine {name} ({engine.base_url}): every request cost {prompts[budgets[0]]} prompt "
        f"tokens at max_pixels {budgets[0]:,} and {budgets[-1]:,}: the server ignored the "
        f'pixel bounds sent as {fields} (server = "{engine.server}")',
        hint=(
            f"if the endpoint is {'an mlx_vlm.server' if other == 'mlx-vlm' else 'vLLM'}, set "
            f'[engines.{name}] server = "{other}"'
        ),
    )


def _length_warnings(engine: OpenAIEngineOptions, samples: list[Sample]) -> list[str]:
    """A warning when answers stopped before their asked length on a server that cannot be
    held to it (the fit used the tokens they counted)."""
    short = [s for s in samples if s.completion_tokens < s.max_tokens]
    if forces_length(engine.server) or not short:
        return []
    return [
        f"{len(short)} of {len(samples)} answers stopped before their asked length "
        f'(server = "{engine.server}" cannot be asked for an exact length): the fit used the '
        "tokens they counted"
    ]


def calibrate_endpoints(
    engines: dict[str, OpenAIEngineOptions],
    requests: int = MIN_REQUESTS,
    crop: tuple[int, int] = CROP,
) -> dict[str, Any]:
    """Probe and fit every endpoint; the calibration document."""
    endpoints: dict[str, Any] = {}
    for name, engine in engines.items():
        samples = aio.run(probe(engine, requests, crop, name))
        result = fit(samples)
        try:
            key: str | None = get_model(engine.model).key
        except ConfigError:
            key = None
        endpoints[name] = {
            "base_url": engine.base_url,
            "model": engine.model,
            "catalog_key": key,
            "requests": requests,
            "crop": list(crop),
            **asdict(result),
            "warnings": list(result.warnings) + _length_warnings(engine, samples),
            "samples": [asdict(s) for s in samples],
        }
        logger.info("calibrated %s: %s", name, asdict(result))
    return {"schema": SCHEMA, "created_unix": round(time.time()), "endpoints": endpoints}


def read_calibration(path: Path) -> dict[str, Calibrated]:
    """A calibration file's endpoints by catalog key (their engine name when the served model
    is not in the catalog but the name is, e.g. ``parser``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError("calibration file not found", file=path) from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not valid JSON: {exc}", file=path) from exc
    if (
        not isinstance(data, dict)
        or data.get("schema") != SCHEMA
        or not isinstance(data.get("endpoints"), dict)
    ):
        raise ConfigError(
            f"not a calibration file (schema {SCHEMA} expected)",
            file=path,
            hint="write one with `pagereader plan calibrate --config FILE -o calib.json`",
        )
    found: dict[str, Calibrated] = {}
    for name, entry in data["endpoints"].items():
        key = entry.get("catalog_key")
        if key is None:
            try:
                key = get_model(name).key
            except ConfigError:
                logger.warning("%s: %s is not in the catalog; not used", path, entry.get("model"))
                continue
        names = ("fixed_ms", "prefill_ms_per_1k", "decode_ms_batch1", "decode_ms_batch8")
        try:
            values = {k: float(entry[k]) for k in names}
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"endpoint {name!r} lacks a constant: {exc}", file=path) from exc
        if not all(math.isfinite(v) for v in values.values()):
            raise ConfigError(f"endpoint {name!r} has a non-finite constant", file=path)
        found[key] = Calibrated(
            **values, source=f"calibrated: {path.name}, {name} at {entry['base_url']}"
        )
    return found
