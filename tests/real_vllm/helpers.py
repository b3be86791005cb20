"""Requests and runs against the real servers: the engine as pagereader builds it, raw chat
bodies for what the engine does not send, and the CLI in a process of its own."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from PIL import Image, ImageDraw

from pagereader.config.options import OpenAIEngineOptions
from pagereader.engines.base import BlockRequest
from pagereader.engines.openai_api import OpenAIEngine
from pagereader.types import Block, Task
from real_vllm.servers import Server

ROOT = Path(__file__).resolve().parents[2]
SCAN = ROOT / "examples" / "scan.png"
TASKS: tuple[Task, ...] = ("text", "table", "formula", "chart", "figure", "page", "context")
#: The random model never stops on its own: every answer is capped.
MAX_TOKENS = 8
FACTORS = {"qwen2_vl": 28, "qwen3_vl": 32}


def crop(width: int, height: int, seed: int = 0, mode: str = "RGB") -> Image.Image:
    """A page-like crop: dark lines on white, different for each seed."""
    image = Image.new(mode, (width, height), "white")
    draw = ImageDraw.Draw(image)
    for n, y in enumerate(range(20, height - 20, max(30, height // 40))):
        draw.text((20, y), f"{seed} line {n} of a crop {width}x{height}", fill="black")
    return image


def engine(target: Server, family: str, **options: Any) -> OpenAIEngine:
    """The engine as pagereader builds it for ``target`` (``options`` may name its ``server``)."""
    settings: dict[str, Any] = {
        "base_url": target.base_url,
        "model": target.model,
        "prompt_style": "qwen-vl",
        "max_tokens": dict.fromkeys(TASKS, MAX_TOKENS),
        "image_factor": FACTORS[family],
        "timeout_s": 120.0,
        "retries": 0,
        **options,
    }
    return OpenAIEngine(OpenAIEngineOptions(**settings), name="vlm")


def block_request(
    image: Image.Image, task: Task = "text", min_pixels: int = 112_896, max_pixels: int = 1_003_520
) -> BlockRequest:
    box = (0.0, 0.0, float(image.width), float(image.height))
    return BlockRequest(
        file="crop.png",
        page=1,
        block=Block(kind="text", bbox=box),
        task=task,
        image=image,
        page_image=image,
        scale=1.0,
        page_class="scan",
        script="latin",
        min_pixels=min(min_pixels, max_pixels),
        max_pixels=max_pixels,
    )


def data_url(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def chat(server: Server, body: dict[str, Any], timeout: float = 300.0) -> httpx.Response:
    """One raw chat request (the model filled in)."""
    return httpx.post(
        server.base_url + "/chat/completions",
        json={"model": server.model, "max_tokens": 1, **body},
        timeout=timeout,
    )


def user(*parts: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"role": "user", "content": list(parts)}]


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def image_part(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def template_tokens(server: Server, prompt: str) -> int:
    """Prompt tokens of an image request less its visual tokens, measured without the planner:
    the same message with the text alone, plus <|vision_start|> and <|vision_end|>."""
    response = chat(server, {"messages": user(text_part(prompt))})
    assert response.status_code == 200, response.text
    return int(response.json()["usage"]["prompt_tokens"]) + 2


@dataclass
class Run:
    """A `pagereader parse` in its own process, and what it wrote."""

    returncode: int
    output: str
    out: Path

    def document(self, name: str = "scan") -> dict[str, Any]:
        data: dict[str, Any] = json.loads(
            (self.out / name / "document.json").read_text(encoding="utf-8")
        )
        return data

    def review(self, name: str = "scan") -> str:
        return (self.out / name / "review.md").read_text(encoding="utf-8")

    def attempts(self, name: str = "scan") -> list[dict[str, Any]]:
        return [
            attempt
            for page in self.document(name)["pages"]
            for block in page["blocks"]
            for attempt in block["attempts"]
        ]


def parse(config: Path, out: Path, *inputs: Path) -> Run:
    """``pagereader parse`` with a config, as a user runs it (exit status included)."""
    env = {**os.environ, "COLUMNS": "240", "NO_COLOR": "1"}
    argv = [sys.executable, "-m", "pagereader", "parse", *map(str, inputs or (SCAN,))]
    done = subprocess.run(
        [*argv, "--config", str(config), "-o", str(out), "--no-resume"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=ROOT,
    )
    return Run(done.returncode, done.stdout + done.stderr, out)


def engine_config(
    path: Path, base_url: str, model: str, family: str = "qwen2_vl", **extra: object
) -> Path:
    """A config whose scans go to one served engine, the embedded OCR behind it."""
    lines = [
        "[engines.vlm]",
        'kind = "openai"',
        f'base_url = "{base_url}"',
        f'model = "{model}"',
        'prompt_style = "qwen-vl"',
        f"image_factor = {FACTORS[family]}",
        "timeout_s = 120",
        "retries = 1",
        *(f"{k} = {json.dumps(v)}" for k, v in extra.items()),
        "max_tokens = { " + ", ".join(f"{t} = {MAX_TOKENS}" for t in TASKS) + " }",
        "",
        "[routes]",
        '"scan.*" = ["vlm", "ocr"]',
        '"dense.*" = ["vlm", "ocr"]',
        '"digital.*" = ["vlm", "textlayer"]',
        "",
        "[verify]",
        "enabled = false",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
