"""The whole-page route against the real vLLM server: the page image is accepted once with the
decision layer's pixel bounds (its prompt tokens are the image processor's visual tokens plus
the dialect's prompt, measured apart), the random weights' answer is reported as one its dialect
cannot read, the raw answer is kept in document.json, and the page is read by the route's next
engine (the block routes), with a warning in the summary and review.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from pagereader.config.options import OpenAIEngineOptions
from pagereader.engines.prompts import page_prompt
from pagereader.pixels import image_tokens
from real_vllm.helpers import FACTORS, MAX_TOKENS, SCAN, TASKS, chat, parse, text_part
from real_vllm.servers import VllmSet

pytestmark = pytest.mark.vllm

DIALECT = "qwenvl-html"


def page_config(path: Path, base_url: str, model: str, family: str) -> Path:
    """Scans read whole by one served engine with a dialect, the block routes behind it."""
    lines = [
        "[engines.vlm]",
        'kind = "openai"',
        f'base_url = "{base_url}"',
        f'model = "{model}"',
        f'dialect = "{DIALECT}"',
        f"image_factor = {FACTORS[family]}",
        "timeout_s = 120",
        "retries = 0",
        "max_tokens = { " + ", ".join(f"{t} = {MAX_TOKENS}" for t in TASKS) + " }",
        "",
        "[routes]",
        '"scan.page" = ["vlm", "ocr"]',
        "",
        "[verify]",
        "enabled = false",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _prompt_tokens_without_image(vllm: VllmSet, family: str) -> int:
    """The dialect's system and user text alone, plus <|vision_start|> and <|vision_end|>."""
    server = vllm.family(family)
    options = OpenAIEngineOptions(base_url=server.base_url, model=server.model, dialect=DIALECT)
    prompt = page_prompt(options)
    messages = [
        {"role": "system", "content": prompt.system},
        {"role": "user", "content": [text_part(prompt.user)]},
    ]
    response = chat(server, {"messages": messages})
    assert response.status_code == 200, response.text
    return int(response.json()["usage"]["prompt_tokens"]) + 2


@pytest.mark.parametrize("family", ["qwen2_vl", "qwen3_vl"])
def test_a_whole_page_answer_it_cannot_read_goes_to_the_block_routes(
    vllm: VllmSet, family: str, tmp_path: Path
) -> None:
    server = vllm.family(family)
    config = page_config(tmp_path / "c.toml", server.base_url, server.model, family)
    run = parse(config, tmp_path / "out")
    assert run.returncode == 0, run.output
    document = run.document()
    page = document["pages"][0]
    decision = page["decision"]
    assert decision["page_class"] == "scan"
    [record] = page["page_answers"]
    assert record["engine"] == "vlm" and record["dialect"] == DIALECT
    assert record["http_status"] == 200 and not record["parsed"] and not record["used"]
    assert 1 <= record["completion_tokens"] <= MAX_TOKENS
    assert record["raw_chars"] == len(record["raw"])
    assert any(w.startswith("not-in-dialect") for w in record["warnings"])
    with Image.open(SCAN) as image:
        visual = image_tokens(
            image.width,
            image.height,
            FACTORS[family],
            decision["min_pixels"],
            decision["max_pixels"],
        )
    assert record["prompt_tokens"] == visual + _prompt_tokens_without_image(vllm, family)
    engines = {block["engine"] for block in page["blocks"]}
    assert engines == {"rapidocr"}, engines
    assert "Meeting Minutes" in (run.out / "scan" / "document.md").read_text(encoding="utf-8")
    [line] = [w for w in document["warnings"] if w.startswith("engine vlm (qwenvl-html)")]
    assert "could not be read" in line and "page 1 by the block routes" in line
    assert any(w.startswith("page route 'scan.page'") for w in page["warnings"])
    assert "page route 'scan.page'" in run.review() and "## Warnings" in run.review()
