"""Scheduler benchmark: does a slide take its critical path, and how much do concurrent blocks save?

A simulated vLLM server runs on loopback in its own process. Its latency per request grows
with the visual tokens (smart_resize of the posted image under the request's max_pixels),
with the output tokens (proportional to the block's area) and with the number of requests in
flight (batching slows every sequence a little). Each answer carries the seconds the server
spent on it (decoding the image included), so the client knows each slide's critical path:
its slowest block as served.

For N synthetic slides of 6 to 12 blocks, the pagereader engine sends a slide's blocks at once
(as the recognize stage does) and then one after another (a sequential client), and prints
wall seconds per slide against the critical path (goal <= 1.10x) and the sequential time
against the concurrent one (goal >= 4x).

    python bench/scheduler.py [--slides 50] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import random
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
from PIL import Image

from pagereader.config.options import OpenAIEngineOptions
from pagereader.engines.base import BlockRequest
from pagereader.engines.openai_api import OpenAIEngine
from pagereader.pixels import smart_resize
from pagereader.types import Block

FACTOR = 28
PREFILL_S_PER_TOKEN = 0.0001
DECODE_S_PER_TOKEN = 0.003
BATCH_SLOWDOWN = 0.03
SLIDE = (1600, 900)


def simulated_seconds(
    width: int, height: int, max_pixels: int, batch: int, scale: float = 1.0
) -> float:
    """Service time of one request on the simulated server."""
    h, w = smart_resize(height, width, FACTOR, 3136, max_pixels)
    visual = h * w // FACTOR**2
    output = max(20, min(400, width * height // 4000))
    alone = visual * PREFILL_S_PER_TOKEN + output * DECODE_S_PER_TOKEN
    return scale * alone * (1 + BATCH_SLOWDOWN * (batch - 1))


def serve(port: int, scale: float) -> None:
    """The simulated vLLM server (run in a child process)."""
    import uvicorn
    from fastapi import FastAPI

    from pagereader.engine_server.server import completion

    app = FastAPI()
    in_flight = 0

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {"object": "list", "data": [{"id": "sim", "object": "model"}]}

    @app.post("/v1/chat/completions")
    async def chat(body: dict[str, Any]) -> dict[str, Any]:
        nonlocal in_flight
        in_flight += 1
        started = time.perf_counter()
        try:
            url = body["messages"][-1]["content"][0]["image_url"]["url"]
            image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
            max_pixels = int(body["mm_processor_kwargs"]["max_pixels"])
            seconds = simulated_seconds(image.width, image.height, max_pixels, in_flight, scale)
            await asyncio.sleep(seconds)
            served = time.perf_counter() - started  # the server's own work included
            return completion("sim", f"{served:.6f}", "stop", 1, 1)
        finally:
            in_flight -= 1

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", backlog=2048)


def make_slides(count: int, seed: int, even: bool = False) -> list[list[tuple[int, int, int]]]:
    """Per slide, 6 to 12 blocks as (width, height, max_pixels): a title, then bullets and now
    and then a larger block (a table or a chart); a third of the slides are dense (more pixels
    per request). ``even``: text-only slides, every block a bullet of similar size."""
    rng = random.Random(seed)
    heights = (70, 110) if even else (70, 70, 110, 110, 160, 300)
    slides = []
    for _ in range(count):
        max_pixels = rng.choice((501_760, 501_760, 2_007_040))
        blocks = []
        count_blocks = rng.randint(6, 12)
        blocks.append((rng.randint(900, 1400), 110, max_pixels))  # the title
        for _ in range(count_blocks - 1):  # bullets, captions, a table or a chart now and then
            width = rng.randint(700, SLIDE[0] - 100)
            height = rng.choice(heights)
            blocks.append((width, height, max_pixels))
        slides.append(blocks)
    return slides


def _request(index: int, width: int, height: int, max_pixels: int) -> BlockRequest:
    image = Image.new("RGB", (width, height), "white")
    return BlockRequest(
        file="bench",
        page=index,
        block=Block(kind="text", bbox=(0, 0, width, height)),
        task="text",
        image=image,
        page_image=image,
        scale=1.0,
        page_class="digital",
        script="latin",
        min_pixels=3136,
        max_pixels=max_pixels,
    )


async def run_slide(
    engine: OpenAIEngine, requests: list[BlockRequest], concurrent: bool
) -> tuple[float, float, float]:
    """Wall seconds, critical path (slowest block as served) and the sum of served seconds."""
    start = time.perf_counter()
    if concurrent:
        answers = await asyncio.gather(*(engine.recognize(r) for r in requests))
    else:
        answers = [await engine.recognize(r) for r in requests]
    wall = time.perf_counter() - start
    served = [float(a.text) for a in answers]
    return wall, max(served), sum(served)


async def bench(url: str, slides: list[list[tuple[int, int, int]]]) -> dict[str, list[float]]:
    options = OpenAIEngineOptions(base_url=url, model="sim", max_concurrency=64, retries=0)
    engine = OpenAIEngine(options, name="sim")
    rows: dict[str, list[float]] = {k: [] for k in ("wall", "critical", "seq_wall", "seq_sum")}
    try:
        await run_slide(engine, [_request(0, 400, 100, 501_760)] * 4, True)  # warm the pool
        for index, blocks in enumerate(slides, 1):
            requests = [_request(index, *b) for b in blocks]
            wall, critical, _ = await run_slide(engine, requests, concurrent=True)
            seq_wall, _, seq_sum = await run_slide(engine, requests, concurrent=False)
            rows["wall"].append(wall)
            rows["critical"].append(critical)
            rows["seq_wall"].append(seq_wall)
            rows["seq_sum"].append(seq_sum)
    finally:
        await engine.aclose()
    return rows


def _wait_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise SystemExit("the simulated server exited")
        try:
            if httpx.get(f"{url}/models", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the simulated server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slides", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--port", type=int, default=18931)
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply every simulated latency (0 measures client overhead)",
    )
    parser.add_argument(
        "--even", action="store_true", help="text-only slides: blocks of similar size"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.port, args.scale)
        return
    url = f"http://127.0.0.1:{args.port}/v1"
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--port", str(args.port), "--scale", str(args.scale)]
    )
    try:
        _wait_ready(url, process)
        slides = make_slides(args.slides, args.seed, args.even)
        rows = asyncio.run(bench(url, slides))
    finally:
        process.terminate()
        process.wait(10)
    blocks = [len(s) for s in slides]
    wall = statistics.mean(rows["wall"])
    critical = statistics.mean(rows["critical"])
    seq = statistics.mean(rows["seq_wall"])
    ratios = [w / max(c, 1e-9) for w, c in zip(rows["wall"], rows["critical"], strict=True)]
    print(
        f"{len(slides)} slides, {min(blocks)}-{max(blocks)} blocks "
        f"(mean {statistics.mean(blocks):.1f}), {'text-only' if args.even else 'mixed'} slides, "
        "simulated vLLM on loopback"
    )
    print(f"{'measure':<44}{'seconds/slide':>14}")
    print(f"{'concurrent client (wall)':<44}{wall:>14.3f}")
    print(f"{'critical path (slowest block as served)':<44}{critical:>14.3f}")
    print(f"{'sequential client (wall)':<44}{seq:>14.3f}")
    print(f"{'wall / critical path (mean; goal <= 1.10)':<44}{wall / max(critical, 1e-9):>14.3f}")
    print(
        f"{'wall / critical path (p90 of slides)':<44}"
        f"{statistics.quantiles(ratios, n=10)[-1]:>14.3f}"
    )
    print(f"{'sequential / concurrent (goal >= 4)':<44}{seq / wall:>14.2f}")
    bound = statistics.mean(rows["seq_sum"]) / max(critical, 1e-9)
    print(f"{'bound: block seconds summed / slowest block':<44}{bound:>14.2f}")


if __name__ == "__main__":
    main()
